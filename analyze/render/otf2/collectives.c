/* render/otf2/collectives.c — libotf2's collective operations over the analysis processes of
 * `mpirun -np K tprof-analyze --parallel` (parallel/par.h): with them every analysis process
 * opens one archive and writes its own locations' files into it, and libotf2 agrees on the
 * archive's layout between them, as Score-P's measurement does over its MPI job.  The
 * analyzer links no MPI: the operations go through the library par.c loaded.  One context
 * stands for all the analysis processes; libotf2 asks for local ones only to share files
 * (SIONlib), which tprof's archives do not. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "state.h"

/* The context libotf2 hands back: all the analysis processes. */
struct OTF2_CollectiveContext {
	int all;
};

static OTF2_CollectiveContext everyone = { 1 };

static size_t type_size(OTF2_Type t)
{
	switch (t) {
	case OTF2_TYPE_UINT8:
	case OTF2_TYPE_INT8:
		return 1;
	case OTF2_TYPE_UINT16:
	case OTF2_TYPE_INT16:
		return 2;
	case OTF2_TYPE_UINT32:
	case OTF2_TYPE_INT32:
	case OTF2_TYPE_FLOAT:
		return 4;
	case OTF2_TYPE_UINT64:
	case OTF2_TYPE_INT64:
	case OTF2_TYPE_DOUBLE:
		return 8;
	default:
		return 0;
	}
}

static OTF2_CallbackCode get_size(void *user, OTF2_CollectiveContext *c, uint32_t *size)
{
	(void)user, (void)c;
	*size = (uint32_t)par_size();
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode get_rank(void *user, OTF2_CollectiveContext *c, uint32_t *rank)
{
	(void)user, (void)c;
	*rank = (uint32_t)par_rank();
	return OTF2_CALLBACK_SUCCESS;
}

/* Files are never shared: no local contexts. */
static OTF2_CallbackCode create_local(void *user, OTF2_CollectiveContext **local,
				      OTF2_CollectiveContext *global, uint32_t global_rank,
				      uint32_t global_size, uint32_t local_rank, uint32_t local_size,
				      uint32_t file_number, uint32_t number_of_files)
{
	(void)user, (void)global, (void)global_rank, (void)global_size, (void)local_rank;
	(void)local_size, (void)file_number, (void)number_of_files;
	*local = NULL;
	return OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode free_local(void *user, OTF2_CollectiveContext *local)
{
	(void)user, (void)local;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode barrier(void *user, OTF2_CollectiveContext *c)
{
	(void)user, (void)c;
	par_barrier();
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode bcast(void *user, OTF2_CollectiveContext *c, void *data, uint32_t n,
			       OTF2_Type type, uint32_t root)
{
	(void)user, (void)c;
	par_bcast(data, (size_t)n * type_size(type), (int)root);
	return OTF2_CALLBACK_SUCCESS;
}

/* Every process's `len` bytes to root's `out`, in process order. */
static void gather_to(const void *in, size_t len, void *out, uint32_t root)
{
	size_t *len_of;
	void *all = par_gather(in, len, (int)root, &len_of);
	if (all) {
		size_t total = 0;
		for (int p = 0; p < par_size(); p++)
			total += len_of[p];
		memcpy(out, all, total);
	}
	free(all);
	free(len_of);
}

static OTF2_CallbackCode gather(void *user, OTF2_CollectiveContext *c, const void *in, void *out,
				uint32_t n, OTF2_Type type, uint32_t root)
{
	(void)user, (void)c;
	gather_to(in, (size_t)n * type_size(type), out, root);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode gatherv(void *user, OTF2_CollectiveContext *c, const void *in,
				 uint32_t n_in, void *out, const uint32_t *n_out, OTF2_Type type,
				 uint32_t root)
{
	(void)user, (void)c, (void)n_out;
	gather_to(in, (size_t)n_in * type_size(type), out, root);
	return OTF2_CALLBACK_SUCCESS;
}

/* Root's n_of[p] elements (n each when n_of is NULL) to each process p, into `out`. */
static void scatter_from(const void *in, const uint32_t *n_of, uint32_t n, OTF2_Type type,
			 void *out, uint32_t root)
{
	size_t k = (size_t)par_size(), es = type_size(type);
	size_t *send = xcalloc(k, sizeof(*send)), *got = xcalloc(k, sizeof(*got));
	if ((uint32_t)par_rank() == root)
		for (size_t p = 0; p < k; p++)
			send[p] = (size_t)(n_of ? n_of[p] : n) * es;
	void *mine = par_exchange(in, send, got);
	memcpy(out, mine, got[root]);
	free(mine);
	free(send);
	free(got);
}

static OTF2_CallbackCode scatter(void *user, OTF2_CollectiveContext *c, const void *in,
				 void *out, uint32_t n, OTF2_Type type, uint32_t root)
{
	(void)user, (void)c;
	scatter_from(in, NULL, n, type, out, root);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode scatterv(void *user, OTF2_CollectiveContext *c, const void *in,
				  const uint32_t *n_in, void *out, uint32_t n_out, OTF2_Type type,
				  uint32_t root)
{
	(void)user, (void)c, (void)n_out;
	scatter_from(in, n_in, 0, type, out, root);
	return OTF2_CALLBACK_SUCCESS;
}

static void release(void *user, OTF2_CollectiveContext *global, OTF2_CollectiveContext *local)
{
	(void)user, (void)global, (void)local;
}

static const OTF2_CollectiveCallbacks callbacks = {
	.otf2_release = release,
	.otf2_get_size = get_size,
	.otf2_get_rank = get_rank,
	.otf2_create_local_comm = create_local,
	.otf2_free_local_comm = free_local,
	.otf2_barrier = barrier,
	.otf2_bcast = bcast,
	.otf2_gather = gather,
	.otf2_gatherv = gatherv,
	.otf2_scatter = scatter,
	.otf2_scatterv = scatterv,
};

OTF2_ErrorCode otf2_collectives_set(OTF2_Archive *ar)
{
	if (par_size() < 2)
		return OTF2_Archive_SetSerialCollectiveCallbacks(ar);
	return OTF2_Archive_SetCollectiveCallbacks(ar, &callbacks, NULL, &everyone, NULL);
}
