/* render/html/matrix.h — the report's communication matrix: the messages between ranks summed
 * by sender and receiver (matrix.c). */
#ifndef TPROF_ANALYZE_HTML_MATRIX_H
#define TPROF_ANALYZE_HTML_MATRIX_H

#include <stdio.h>

struct event;
struct matrix;

struct matrix *matrix_new(void);
void matrix_event(struct matrix *m, const struct event *ev);
/* Collective under --parallel: every analysis process's sums to the first. */
void matrix_gather(struct matrix *m);
/* As JSON ("null": no message): {"ranks_a_block": K, "blocks": N, "pairs": [[SRC, DST,
 * MESSAGES, BYTES, NS], ...]}, SRC and DST blocks of K ranks (K = 1: ranks), in order. */
void matrix_write(FILE *f, struct matrix *m);
void matrix_free(struct matrix *m);

#endif
