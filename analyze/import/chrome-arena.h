/* chrome-arena.h — cJSON's allocations while an event is parsed come from a bump arena emptied
 * before the next event, so that a tree of a dozen nodes costs no malloc.  Outside such a parse
 * the hooks are plain malloc and free: other cJSON users in the process are unaffected. */
#ifndef TPROF_ANALYZE_CHROME_ARENA_H
#define TPROF_ANALYZE_CHROME_ARENA_H

#include <stddef.h>

struct chrome_arena;

/* The first call installs the cJSON hooks (cJSON_InitHooks), which send allocations to the
 * arena entered on the calling thread, if any, and to malloc otherwise. */
struct chrome_arena *chrome_arena_new(void);
/* Forgets everything allocated from it (keeping a block for the next event). */
void chrome_arena_reset(struct chrome_arena *a);
/* Between enter and leave, cJSON on this thread allocates from a and frees nothing: a tree
 * parsed then must never be given to cJSON_Delete. */
void chrome_arena_enter(struct chrome_arena *a);
void chrome_arena_leave(void);
void *chrome_arena_alloc(struct chrome_arena *a, size_t n);
void chrome_arena_free(struct chrome_arena *a);

#endif
