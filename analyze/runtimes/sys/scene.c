/* runtimes/sys/scene.c — the system profile in the scene: a CPU sample is an SI_SAMPLE on its
 * thread's track (struct scene_stack: its frames, named by the innermost); a scheduling
 * state is a slice on the thread's state track ("<thread> state", right after the thread's
 * own), coloured as Chrome colours thread states.  Counters are the scene's own. */
#include "sys.h"

static const char *state_color(unsigned state)
{
	switch (state) {
	case TPROF_SCHED_RUNNING:
		return "thread_state_running";
	case TPROF_SCHED_RUNNABLE:
		return "thread_state_runnable";
	case TPROF_SCHED_SLEEPING:
		return "thread_state_sleeping";
	case TPROF_SCHED_BLOCKED:
		return "thread_state_iowait";
	default:
		return "thread_state_unknown";
	}
}

static void draw_sample(struct scene *s, const struct event *ev)
{
	const struct sample_info *si = ev->sample;
	struct scene_stack st = { .frames = si->frames, .n = si->n, .nkernel = si->nkernel,
				  .cpu = si->cpu };
	struct scene_args a;
	a.n = 0;
	sa_u64(&a, "cpu", si->cpu);
	if (si->user_trunc)
		sa_bool(&a, "truncated", 1);
	struct scene_item it = { .kind = SI_SAMPLE, .cat = "sample", .name = ev->name,
				 .track = tracks_thread(scene_tracks(s), ev->thread, 0),
				 .proc = ev->proc, .t0 = ev->t0, .t1 = ev->t0,
				 .ranges_open = (uint32_t)ev->thread->depth, .args = &a,
				 .stack = &st, .ev = ev };
	scene_item(s, &it);
}

static void draw_state(struct scene *s, const struct event *ev)
{
	struct scene_args a;
	a.n = 0;
	if (ev->state == TPROF_SCHED_RUNNING && ev->cpu != UINT32_MAX)
		sa_u64(&a, "cpu", ev->cpu);
	scene_args_flags(&a, ev->flags);
	struct scene_item it = { .kind = SI_SLICE, .cat = "state", .name = ev->name,
				 .color = state_color(ev->state),
				 .track = tracks_thread_state(scene_tracks(s), ev->thread),
				 .proc = ev->proc, .t0 = ev->t0, .t1 = ev->t1, .args = &a, .ev = ev };
	scene_item(s, &it);
}

int sys_scene_event(struct scene *s, const struct event *ev, unsigned self)
{
	(void)self;
	if (ev->kind == EV_SAMPLE)
		draw_sample(s, ev);
	else if (ev->kind == EV_STATE)
		draw_state(s, ev);
	else
		return 0;
	return 1;
}
