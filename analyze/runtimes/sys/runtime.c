/* runtimes/sys/runtime.c — the system profile in the registry: the records of the system
 * images (SAMPLE, SCHED, SYSCTR) in the pipeline (pipe.c), samples and thread states in the
 * scene (scene.c), and its summary tables after the steps (summary.c). */
#include "../registry.h"
#include "sys.h"

const struct runtime runtime_sys = {
	.name = "sys",
	.domain = -1,
	.records = (1ull << TPROF_K_SAMPLE) | (1ull << TPROF_K_SCHED) | (1ull << TPROF_K_SYSCTR),
	.pipe_record = sys_pipe_record,
	.pipe_finish = sys_pipe_finish,
	.events = RT_KIND(EV_SAMPLE) | RT_KIND(EV_STATE),
	.scene_event = sys_scene_event,
	.sum_new = sys_sum_new,
	.sum_events = RT_KIND(EV_SAMPLE) | RT_KIND(EV_STATE) | RT_KIND(EV_COUNTER),
	.sum_event = sys_sum_event,
	.sum_at = SUM_AFTER_STEPS,
	.sum_end = sys_sum_end,
	.sum_pack = sys_sum_pack,
	.sum_merge = sys_sum_merge,
};
