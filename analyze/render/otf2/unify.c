/* render/otf2/unify.c — one archive from the analysis processes of `mpirun -np K
 * tprof-analyze --parallel`, as Score-P's measurement makes one from its ranks: each analysis
 * process wrote its locations' events with refs of its own (strings, attributes, regions,
 * metrics, one-sided windows, I/O handles, calling contexts in the order it met them); the
 * first replays every other's definitions through its registry (render/otf2/defs.c), process
 * by process, so that the archive's definitions are its registry's, and sends each the refs
 * its own became.  Each then writes, in the
 * local definitions of each of its locations, the mapping tables that readers apply to the
 * location's events.  The first analysis process's refs are the archive's: its locations
 * need no table, and one process alone writes what the serial analyzer writes. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../parallel/mail.h"
#include "../../parallel/par.h"
#include "../../util/pack.h"
#include "state.h"

static const OTF2_MappingType mapping_of[OTF2_IDMAP_KINDS] = {
	[OTF2_IDMAP_STRING] = OTF2_MAPPING_STRING,
	[OTF2_IDMAP_ATTRIBUTE] = OTF2_MAPPING_ATTRIBUTE,
	[OTF2_IDMAP_REGION] = OTF2_MAPPING_REGION,
	[OTF2_IDMAP_METRIC] = OTF2_MAPPING_METRIC,
	[OTF2_IDMAP_RMA_WIN] = OTF2_MAPPING_RMA_WIN,
	[OTF2_IDMAP_IO_HANDLE] = OTF2_MAPPING_IO_HANDLE,
	[OTF2_IDMAP_CALLING_CONTEXT] = OTF2_MAPPING_CALLING_CONTEXT,
};

static void maps_free(struct otf2_idmaps *m)
{
	for (int k = 0; k < OTF2_IDMAP_KINDS; k++)
		free(m->v[k]);
	memset(m, 0, sizeof(*m));
}

static void pack_maps(struct pack *b, const struct otf2_idmaps *m)
{
	for (int k = 0; k < OTF2_IDMAP_KINDS; k++) {
		pack_u64(b, m->n[k]);
		pack_bytes(b, m->v[k], m->n[k] * sizeof(uint32_t));
	}
}

static void unpack_maps(struct unpack *u, struct otf2_idmaps *m)
{
	for (int k = 0; k < OTF2_IDMAP_KINDS; k++) {
		m->n[k] = unpack_count(u, sizeof(uint32_t));
		m->v[k] = xcalloc(m->n[k] ? m->n[k] : 1, sizeof(uint32_t));
		unpack_bytes(u, m->v[k], m->n[k] * sizeof(uint32_t));
	}
}

void otf2_unify(struct otf2 *o)
{
	int k = par_size();
	if (k < 2)
		return;
	struct pack mine = { 0 };
	otf2_defs_pack(o->defs, &mine);
	otf2_rma_pack(o, &mine);
	otf2_io_pack(o, &mine);
	otf2_contexts_pack(o, &mine);
	size_t *len_of = NULL;
	char *all = par_gather(mine.v, mine.n, 0, &len_of);
	pack_free(&mine);
	/* the first: every other's refs, each process's after the one before */
	struct mail *back = mail_new();
	if (all) {
		size_t at = len_of[0];
		for (int p = 1; p < k; p++) {
			struct unpack u = unpack_of(all + at, len_of[p]);
			struct otf2_idmaps m = { 0 };
			otf2_defs_replay(o->defs, &u, &m);
			otf2_rma_replay(o, &u, &m);
			otf2_io_replay(o, &u, &m);
			otf2_contexts_replay(o, &u, &m);
			pack_maps(&back->to[p], &m);
			maps_free(&m);
			at += len_of[p];
		}
	}
	mail_exchange(back);
	if (par_rank() != 0) {
		struct unpack u = mail_from(back, 0);
		o->maps = xcalloc(1, sizeof(*o->maps));
		unpack_maps(&u, o->maps);
	}
	mail_free(back);
	free(all);
	free(len_of);
}

static int identity(const uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] != i)
			return 0;
	return 1;
}

/* The tables of the kinds whose refs are not the archive's already (NULL: none). */
static void tables_make(struct otf2 *o, OTF2_IdMap **t)
{
	for (int k = 0; k < OTF2_IDMAP_KINDS; k++) {
		t[k] = NULL;
		if (!o->maps || identity(o->maps->v[k], o->maps->n[k]))
			continue;
		if (!(t[k] = OTF2_IdMap_CreateFromUint32Array(o->maps->n[k], o->maps->v[k], true)))
			xalloc_failed("an OTF2 mapping table");
	}
}

void otf2_local_defs_write(struct otf2 *o)
{
	OTF2_IdMap *t[OTF2_IDMAP_KINDS];
	tables_make(o, t);
	otf2_check(o, OTF2_Archive_OpenDefFiles(o->ar));
	for (size_t i = 0; i < o->nlocs && !o->failed; i++) {
		if (!otf2_loc_defined(o->locs[i]))
			continue;
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->ar, o->locs[i]->ref);
		if (!dw)
			continue;
		for (int k = 0; k < OTF2_IDMAP_KINDS; k++)
			if (t[k])
				otf2_check(o, OTF2_DefWriter_WriteMappingTable(dw, mapping_of[k], t[k]));
		otf2_check(o, OTF2_Archive_CloseDefWriter(o->ar, dw));
	}
	otf2_check(o, OTF2_Archive_CloseDefFiles(o->ar));
	for (int k = 0; k < OTF2_IDMAP_KINDS; k++)
		if (t[k])
			OTF2_IdMap_Free(t[k]);
}

void otf2_unify_free(struct otf2 *o)
{
	if (o->maps) {
		maps_free(o->maps);
		free(o->maps);
		o->maps = NULL;
	}
}
