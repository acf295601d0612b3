/* render/otf2/globaldefs.c — the archive's definitions, written once the event writers are closed
 * and every location's count of events is known: an empty file of local definitions per location,
 * then the global definitions in the order readers want them, each kind in rising, gapless ids: the
 * clock properties, the strings known so far, the paradigms, the attributes, the system tree with
 * the location groups and locations, the regions, the CPU samples' interrupt generator and calling
 * contexts, the metrics, the MPI groups and communicators, and the I/O paradigm, files and handles
 * (render/otf2/io.c).  Under --parallel every analysis process's definitions are made one
 * first (render/otf2/unify.c) and the first analysis process writes them.  It asks the
 * definitions registry (render/otf2/defs.c, contexts.c), the
 * system writer (render/otf2/system.c) and the communicator writer (render/otf2/comms.c) for each
 * kind in turn. */
#include "../../parallel/par.h"
#include "state.h"

#define WRITE(call) otf2_check(o, (call))

static void write_paradigms(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	static const struct {
		OTF2_Paradigm p;
		const char *name;
		OTF2_ParadigmClass cls;
	} ps[] = {
		{ OTF2_PARADIGM_USER, "user", OTF2_PARADIGM_CLASS_PROCESS },
		{ OTF2_PARADIGM_MPI, "MPI", OTF2_PARADIGM_CLASS_PROCESS },
		{ OTF2_PARADIGM_HIP, "HIP", OTF2_PARADIGM_CLASS_ACCELERATOR },
		{ OTF2_PARADIGM_CUDA, "CUDA", OTF2_PARADIGM_CLASS_ACCELERATOR },
	};
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		WRITE(OTF2_GlobalDefWriter_WriteParadigm(gw, ps[i].p, otf2_str(o->defs, ps[i].name),
							 ps[i].cls));
	if (o->callsites.n)
		WRITE(OTF2_GlobalDefWriter_WriteParadigm(gw, OTF2_PARADIGM_SAMPLING,
							 otf2_str(o->defs, "sampling"),
							 OTF2_PARADIGM_CLASS_PROCESS));
	if (o->mpi) {
		OTF2_AttributeValue v = { .stringRef = otf2_str(o->defs, "MPI_Comm ${id}") };
		WRITE(OTF2_GlobalDefWriter_WriteParadigmProperty(gw, OTF2_PARADIGM_MPI,
								 OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
								 OTF2_TYPE_STRING, v));
	}
}

void otf2_globaldefs_write(struct otf2 *o)
{
	const struct trace *tr = o->tr;
	/* what every analysis process does: its refs made the archive's, its locations' local
	 * definitions, its processes described to the first, which writes the rest */
	otf2_unify(o);
	otf2_local_defs_write(o);
	otf2_system_gather(o);
	int64_t max_t = o->max_t;
	par_max_i64(&max_t, 1);
	if (par_rank() != 0)
		return;
	OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(o->ar);
	if (!gw) {
		otf2_check(o, OTF2_ERROR_INVALID);
		return;
	}
	/* Times are nanoseconds of CLOCK_REALTIME: the offset is the trace's start. */
	int64_t len = max_t;
	if (tr->end_ns - tr->start_ns > len)
		len = tr->end_ns - tr->start_ns;
	uint64_t start = tr->start_ns > 0 ? (uint64_t)tr->start_ns : 0;
	otf2_check(o, OTF2_GlobalDefWriter_WriteClockProperties(gw, 1000000000ull, start,
								(uint64_t)len + 1, start));
	otf2_defs_write_strings(o, gw);
	write_paradigms(o, gw);
	otf2_defs_write_attributes(o, gw);
	otf2_system_write(o, gw);
	otf2_defs_write_regions(o, gw);
	otf2_contexts_write(o, gw);
	otf2_defs_write_metrics(o, gw);
	otf2_comms_write(o, gw);
	otf2_io_write_defs(o, gw);
	otf2_rma_write_defs(o, gw);
	otf2_defs_write_done(o);
	otf2_check(o, OTF2_Archive_CloseGlobalDefWriter(o->ar, gw));
}
