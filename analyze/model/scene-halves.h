/* model/scene-halves.h — arrows between processes that different analysis processes of the
 * parallel analyzer read (scene-halves.c): the end this one draws is drawn at once, the other
 * is sent, at the scene's end, to the one that reads its process, which draws it there (on
 * a thread's call track, or a device stream's).  Both
 * halves carry the arrow's id, key and arguments, so that the parts together hold the arrow
 * the serial analyzer draws.  Only the scene (scene.c) uses it. */
#ifndef TPROF_ANALYZE_SCENE_HALVES_H
#define TPROF_ANALYZE_SCENE_HALVES_H

#include "scene.h"

struct halves;

/* Keeps the half `end` (SF_FROM or SF_TO) of f, at e, for analysis process `reader` (made
 * on first use in *h). */
void halves_add(struct halves **h, int reader, int end, const struct flow_end *e,
		const struct scene_flow *f);
/* Every analysis process calls it once, at the end: the halves kept go to their readers,
 * and those that came here are drawn on r (tracks in tk).  Frees h. */
void halves_exchange(struct halves *h, const struct trace *tr, struct tracks *tk,
		     struct scene_renderer r);

#endif
