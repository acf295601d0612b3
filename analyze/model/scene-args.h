/* scene-args.h — the generic arguments of the scene's slices (scene-args.c): what every API
 * call recorded (correlation, return value, the argument shapes of common/events.h, launch
 * dimensions, a run of polls, a call stack) and what a device operation did. */
#ifndef TPROF_ANALYZE_SCENE_ARGS_H
#define TPROF_ANALYZE_SCENE_ARGS_H

#include "args.h"
#include "output.h"

/* Correlation, return value, shaped arguments and launch dimensions: before the runtime's. */
void scene_call_args(struct scene_args *a, const struct event *ev);
/* Poll counts, call stack and flags: after the runtime's. */
void scene_call_tail_args(struct scene_args *a, const struct event *ev);
/* A device operation's: device, stream, correlation, dimensions, bytes, caller, flags. */
void scene_device_args(struct scene_args *a, const struct event *ev);
/* Launch dimensions as "grid", "block" arrays and "shmem". */
void scene_dims_args(struct scene_args *a, const struct tprof_launch_dims *d);

#endif
