/* render/html/matrix.h — the report's communication matrix: the point-to-point transfers
 * between ranks that the runtimes say of their events (MPI messages, NCCL sends and
 * receives) summed by sender and receiver (matrix.c). */
#ifndef TPROF_ANALYZE_HTML_MATRIX_H
#define TPROF_ANALYZE_HTML_MATRIX_H

#include <stdio.h>

struct event;
struct matrix;
struct runtime_set;

struct matrix *matrix_new(const struct runtime_set *rts);
void matrix_event(struct matrix *m, const struct event *ev);
/* Collective under --parallel: every analysis process's sums to the first. */
void matrix_gather(struct matrix *m);
/* As JSON ("null": no transfer): {"ranks_a_block": K, "blocks": N, "pairs": [[SRC, DST,
 * TRANSFERS, BYTES, NS], ...]}, SRC and DST blocks of K ranks (K = 1: ranks), in order. */
void matrix_write(FILE *f, struct matrix *m);
void matrix_free(struct matrix *m);

#endif
