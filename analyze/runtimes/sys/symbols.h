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

/* The function holding address vaddr of ELF file path (its own virtual addresses, as
 * `nm` shows them), demangled, into buf; 0, or -1 when the file or the symbol is not found
 * (for the unit tests, and what symbols_user does after mapping an address to the file). */
int symbols_elf_lookup(struct symbols *sy, const char *path, uint64_t vaddr, char *buf,
		       size_t len);
/* The file's virtual address at file offset off (its PT_LOAD segments), or -1 when the file
 * cannot be read. */
int symbols_elf_vaddr(struct symbols *sy, const char *path, uint64_t off, uint64_t *vaddr);
/* How many frames were left unresolved (shown as file+0xOFF or 0xADDR), and ELF files that
 * could not be read. */
uint64_t symbols_unresolved(const struct symbols *sy);
uint64_t symbols_missing_files(const struct symbols *sy);

/* The C++ demangling of name into buf (0), or -1 when it is not a mangled name. */
int symbols_demangle(const char *name, char *buf, size_t len);

#endif
