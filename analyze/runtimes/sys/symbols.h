/* symbols.h — the function names of sampled addresses (symbols.c): user frames through the
 * process's file mappings and each ELF file's symbols (elfutils' libdwfl: symbol tables,
 * separate debug files), C++ names demangled; JIT code through perf-PID.map; kernel frames
 * through the image's KSYM records.  What is not found shows as "file+0xOFF" or "0xADDR".
 * Every answer is cached per (process, generation, address): a profile repeats them. */
#ifndef TPROF_ANALYZE_SYS_SYMBOLS_H
#define TPROF_ANALYZE_SYS_SYMBOLS_H

#include <stdint.h>

#include "../../read/system.h"

struct symbols;

struct symbols *symbols_new(void);
void symbols_free(struct symbols *sy);

/* The name (trace-wide string id) of the function at user address addr of process pid,
 * exec generation gen (< 0: unknown), as system image si maps it; a return address (every
 * frame but the innermost) is looked up at addr - 1. */
uint32_t symbols_user(struct symbols *sy, const struct sysimage *si, uint32_t pid, int64_t gen,
		      uint64_t addr, int is_return);
/* The same for a kernel address, from si's KSYM records. */
uint32_t symbols_kernel(struct symbols *sy, const struct sysimage *si, uint64_t addr,
			int is_return);

/* How many addresses were left unresolved (shown as file+0xOFF or 0xADDR; each once). */
uint64_t symbols_unresolved(const struct symbols *sy);
/* The warnings about files: said as met serially; under --parallel every analysis process's
 * (sy may be NULL: none) said by the first, each once however many met the file.  Returns
 * the files, each once (the first's count; 0 in the others, whose files it counted). */
uint64_t symbols_say(struct symbols *sy);

/* The C++ demangling of name into buf (0), or -1 when it is not a mangled name. */
int symbols_demangle(const char *name, char *buf, size_t len);

#endif
