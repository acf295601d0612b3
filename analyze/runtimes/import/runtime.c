/* runtimes/import/runtime.c — imported traces in the registry: the records of the imported
 * images in the pipeline (pipe.c), their slices, instants, async ranges and flows in the scene
 * with their categories and arguments (scene.c), and the "Framework ops" table (summary.c). */
#include "../registry.h"
#include "import.h"

const struct runtime runtime_import = {
	.name = "import",
	.domain = -1,
	.records = (1ull << TPROF_K_IBEGIN) | (1ull << TPROF_K_IEND) | (1ull << TPROF_K_IMARK) |
		   (1ull << TPROF_K_ICOUNTER) | (1ull << TPROF_K_IASYNC) | (1ull << TPROF_K_IFLOW),
	.pipe_record = imp_pipe_record,
	.pipe_finish = imp_pipe_finish,
	.events = RT_KIND(EV_BEGIN) | RT_KIND(EV_RANGE) | RT_KIND(EV_MARK) | RT_KIND(EV_ASYNC) |
		  RT_KIND(EV_FLOW) | RT_KIND(EV_COUNTER),
	.scene_event = imp_scene_event,
	.scene_end = imp_scene_end,
	.sum_new = imp_sum_new,
	.sum_events = RT_KIND(EV_RANGE),
	.sum_event = imp_sum_event,
	.sum_at = SUM_AFTER_STEPS,
	.sum_end = imp_sum_end,
	.sum_pack = imp_sum_pack,
	.sum_merge = imp_sum_merge,
};
