/* render/otf2/defs.c — the registry of the definitions that records refer to: strings,
 * regions (one per name and kind; a kind is a scene category, with the description, role and
 * paradigm OTF2 gives its regions), attributes (one per name and type), the step parameter,
 * metrics (one per counter name) and communicators' refs.  Refs are handed out while items
 * are written, in order of first use; at the end the registry writes the definitions it
 * holds, when render/otf2/globaldefs.c asks for each kind: the strings known so far first,
 * and from then on a string named for the first time just before the definition that names
 * it.  Below everything that writes records or definitions; it calls only the error
 * reporting and the collective operations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/domains.h"
#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/pack.h"
#include "../../parallel/par.h"
#include "state.h"
#include "../../util/u64map.h"

struct rdef {
	uint32_t name;
	int cat;                         /* index in cats */
	unsigned coll;                   /* enum msgpass_coll of its calls */
};

/* A kind of region: the scene's category, and what OTF2 says of its regions. */
struct cat {
	const char *cat;                 /* the category as the scene names it */
	const char *desc;
	OTF2_RegionRole role;
	OTF2_Paradigm par;
	int where;                       /* enum loc_kind of an unknown category's slices */
};

/* The model's categories (model/scene.c); any other is described by its name, or by where
 * its slices are. */
static const struct cat known_cats[] = {
	{ "range", "range", OTF2_REGION_ROLE_CODE, OTF2_PARADIGM_USER, 0 },
	{ "roctx", "roctx range", OTF2_REGION_ROLE_CODE, OTF2_PARADIGM_USER, 0 },
	{ "mark", "mark", OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_USER, 0 },
	{ "step", "training step", OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_USER, 0 },
	{ "call", "API call", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, 0 },
	/* each domain's calls (common/domains.h) */
#define DOMAIN_CAT(name, value, key, title, json, desc, paradigm, ...)                      \
	{ key, desc, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_##paradigm, 0 },
	TPROF_DOMAINS(DOMAIN_CAT)
#undef DOMAIN_CAT
	/* device work is recorded through HIP today */
	{ "device", "device work", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_HIP, 0 },
	{ "kernel", "GPU kernel", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_HIP, 0 },
	{ "copy", "GPU copy", OTF2_REGION_ROLE_DATA_TRANSFER, OTF2_PARADIGM_HIP, 0 },
	{ "memset", "GPU memset", OTF2_REGION_ROLE_DATA_TRANSFER, OTF2_PARADIGM_HIP, 0 },
	{ "graph", "GPU graph", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_HIP, 0 },
	{ "collective", "device collective", OTF2_REGION_ROLE_COLL_OTHER, OTF2_PARADIGM_HIP, 0 },
	/* the functions of CPU samples' stacks (render/otf2/contexts.c) */
	{ "sampled", "sampled function", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING, 0 },
	{ "sampled kernel", "sampled kernel function", OTF2_REGION_ROLE_FUNCTION,
	  OTF2_PARADIGM_SAMPLING, 0 },
};
#define NKNOWN (sizeof(known_cats) / sizeof(known_cats[0]))
#define MAX_CATS 128

struct adef {
	uint32_t name, desc;             /* trace string ids */
	OTF2_Type type;
};

struct otf2_defs {
	const struct trace *tr;
	struct otf2 *o;                  /* while definitions are written */
	OTF2_GlobalDefWriter *gw;
	uint32_t *tmap;                  /* trace string id -> OTF2 string ref + 1 */
	size_t ntmap;
	uint32_t *sids;                  /* OTF2 string ref -> trace string id */
	size_t nsids, capsids;
	struct rdef *regions;
	size_t nregions, capregions;
	struct u64map region_of;         /* (name, category) -> region */
	uint64_t recent_key[256];        /* a cache of region_of, by a hash of the key */
	OTF2_RegionRef recent[256];
	uint32_t *metrics;               /* metric -> counter name */
	size_t nmetrics, capmetrics;
	struct u64map metric_of;         /* counter name -> metric */
	uint64_t *recorders;             /* (metric, location) pairs */
	size_t nrecorders, caprecorders;
	struct u64map recorder_set;
	struct cat cats[MAX_CATS];       /* the known ones, then others in order of use */
	const char *cat_key[MAX_CATS];   /* the address each was last asked by */
	int ncats;
	struct adef *attrs;              /* attribute ref -> its name and type */
	size_t nattrs, capattrs;
	struct u64map attr_of;           /* (name, type) -> attribute */
	int step_param_used;
	uint32_t step_name;
	struct u64map comm_of;           /* struct mpi_comm address -> comm */
	const struct mpi_comm **comm_at; /* comm -> its communicator (NULL: world or self
					  * without COMM records, and self) */
	OTF2_CommRef ncomms, world, self;
	int world_synthetic, self_synthetic;
};

static void comm_assign(struct otf2_defs *d, const struct mpi_comm *c, OTF2_CommRef ref)
{
	u64map_put(&d->comm_of, (uint64_t)(uintptr_t)c, ref);
	d->comm_at[ref] = c;
}

/* Refs in the order the definitions will be written, which readers want dense and rising:
 * MPI_COMM_WORLD, MPI_COMM_SELF (every rank's is one), then each communicator after its
 * parent. */
static void comms_order(struct otf2_defs *d)
{
	const struct trace *tr = d->tr;
	int64_t ranked = 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		ranked |= tr->procs[i]->rank >= 0;
	par_max_i64(&ranked, 1);         /* the same refs in every analysis process */
	if (!tr->ncomms && !ranked)
		return;
	d->comm_at = xcalloc(tr->ncomms + 2, sizeof(*d->comm_at));
	d->world = d->ncomms++;
	d->self = d->ncomms++;
	d->world_synthetic = d->self_synthetic = 1;
	for (size_t i = 0; i < tr->ncomms; i++) {
		const struct mpi_comm *c = tr->comms[i];
		if (c->kind == TPROF_COMMK_SELF || c->id == TPROF_COMM_SELF) {
			u64map_put(&d->comm_of, (uint64_t)(uintptr_t)c, d->self);
			d->self_synthetic = 0;
		} else if (c->id == TPROF_COMM_WORLD && d->world_synthetic) {
			comm_assign(d, c, d->world);
			d->world_synthetic = 0;
		}
	}
	for (size_t pass = 0, left = 1; left; pass++) {
		left = 0;
		for (size_t i = 0; i < tr->ncomms; i++) {
			const struct mpi_comm *c = tr->comms[i];
			if (u64map_get(&d->comm_of, (uint64_t)(uintptr_t)c))
				continue;
			const struct mpi_comm *pc = c->parent && c->parent != c->id ?
				trace_comm(tr, c->parent, c->self_rank) : NULL;
			/* after its parent, unless that never comes (a cycle, a lost record) */
			if (pc && !u64map_get(&d->comm_of, (uint64_t)(uintptr_t)pc) && pass < tr->ncomms) {
				left = 1;
				continue;
			}
			comm_assign(d, c, d->ncomms++);
		}
	}
}

struct otf2_defs *otf2_defs_new(const struct trace *tr)
{
	struct otf2_defs *d = xcalloc(1, sizeof(*d));
	d->tr = tr;
	d->step_name = strings_add("step", 4);
	d->world = d->self = OTF2_UNDEFINED_COMM;
	comms_order(d);
	memcpy(d->cats, known_cats, sizeof(known_cats));
	d->ncats = NKNOWN;
	return d;
}

void otf2_defs_free(struct otf2_defs *d)
{
	if (!d)
		return;
	free(d->tmap);
	free(d->sids);
	free(d->regions);
	u64map_free(&d->region_of);
	free(d->metrics);
	u64map_free(&d->metric_of);
	free(d->recorders);
	u64map_free(&d->recorder_set);
	free(d->attrs);
	u64map_free(&d->attr_of);
	for (int i = NKNOWN; i < d->ncats; i++)
		free((char *)d->cats[i].cat);
	u64map_free(&d->comm_of);
	free(d->comm_at);
	free(d);
}

/* ---- refs --------------------------------------------------------------------------------- */

OTF2_StringRef otf2_tstr(struct otf2_defs *d, uint32_t id)
{
	if (id >= d->ntmap) {
		size_t n = d->ntmap ? d->ntmap : 1024;
		while (n <= id)
			n *= 2;
		d->tmap = xreallocarray(d->tmap, n, sizeof(*d->tmap));
		memset(d->tmap + d->ntmap, 0, (n - d->ntmap) * sizeof(*d->tmap));
		d->ntmap = n;
	}
	if (!d->tmap[id]) {
		d->sids = util_grow(d->sids, &d->capsids, d->nsids, sizeof(*d->sids), 1024);
		d->sids[d->nsids] = id;
		d->tmap[id] = (uint32_t)++d->nsids;
		if (d->gw)
			otf2_check(d->o, OTF2_GlobalDefWriter_WriteString(d->gw, d->tmap[id] - 1,
									  strings_get(id)));
	}
	return d->tmap[id] - 1;
}

/* Any text: interned in the trace's string table, so each is defined once. */
OTF2_StringRef otf2_str(struct otf2_defs *d, const char *s)
{
	return otf2_tstr(d, strings_add(s, strlen(s)));
}

/* A category (known, or another's for slices on `where`), `cat` its address. */
static int same_cat(const struct otf2_defs *d, int i, const char *cat, int where)
{
	return d->cat_key[i] == cat && (i < (int)NKNOWN || d->cats[i].where == where);
}

static int category(struct otf2_defs *d, const char *cat, int where)
{
	for (int i = 0; i < d->ncats; i++)
		if (same_cat(d, i, cat, where))
			return i;
	for (int i = 0; i < d->ncats; i++) {
		if (strcmp(d->cats[i].cat, cat) || (i >= (int)NKNOWN && d->cats[i].where != where))
			continue;
		d->cat_key[i] = cat;
		return i;
	}
	if (d->ncats == MAX_CATS)
		return 4;                /* "call": a generic function */
	/* a runtime's own: named by itself, or by where its work is */
	struct cat *c = &d->cats[d->ncats];
	*c = (struct cat){ xstrdup(cat), cat, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, where };
	c->desc = where == LOC_NEURONCORE ? "work on a NeuronCore" :
		  where == LOC_DEVICE ? "device work" : c->cat;
	d->cat_key[d->ncats] = cat;
	return d->ncats++;
}

int otf2_category(struct otf2_defs *d, const char *cat, enum loc_kind where)
{
	return category(d, cat, (int)where);
}

int otf2_category_mark(struct otf2_defs *d)
{
	(void)d;
	return 2;
}

int otf2_category_step(struct otf2_defs *d)
{
	(void)d;
	return 3;
}

OTF2_RegionRef otf2_region(struct otf2_defs *d, uint32_t name, int cat)
{
	if (cat == otf2_category_step(d))
		name = d->step_name;
	uint64_t key = ((uint64_t)name << 8 | (uint64_t)cat) + 1;
	/* a region per item: the ones used lately answer from a small cache first */
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 56);
	if (d->recent_key[h] == key)
		return d->recent[h];
	uint32_t *v = u64map_get(&d->region_of, key);
	if (v) {
		d->recent_key[h] = key;
		return d->recent[h] = *v;
	}
	d->regions = util_grow(d->regions, &d->capregions, d->nregions, sizeof(*d->regions), 256);
	d->regions[d->nregions] = (struct rdef){ name, cat, MPC_NONE };
	u64map_put(&d->region_of, key, (uint32_t)d->nregions);
	return (OTF2_RegionRef)d->nregions++;
}

void otf2_region_coll(struct otf2_defs *d, OTF2_RegionRef r, unsigned coll)
{
	d->regions[r].coll = coll;
}

OTF2_AttributeRef otf2_attr(struct otf2_defs *d, const char *name, const char *desc,
			    OTF2_Type type)
{
	uint32_t id = strings_add(name, strlen(name));
	uint64_t key = ((uint64_t)id << 8 | type) + 1;
	uint32_t *v = u64map_get(&d->attr_of, key);
	if (v)
		return *v;
	d->attrs = util_grow(d->attrs, &d->capattrs, d->nattrs, sizeof(*d->attrs), 32);
	d->attrs[d->nattrs] = (struct adef){ id, strings_add(desc, strlen(desc)), type };
	u64map_put(&d->attr_of, key, (uint32_t)d->nattrs);
	return (OTF2_AttributeRef)d->nattrs++;
}

OTF2_AttributeRef otf2_attr_again(struct otf2_defs *d, OTF2_AttributeRef ref, unsigned k)
{
	const struct adef *a = &d->attrs[ref];
	char name[512];
	snprintf(name, sizeof(name), "%s (%u)", strings_get(a->name), k);
	return otf2_attr(d, name, strings_get(a->desc), a->type);
}

OTF2_ParameterRef otf2_step_param(struct otf2_defs *d)
{
	d->step_param_used = 1;
	return 0;
}

OTF2_MetricRef otf2_metric(struct otf2_defs *d, uint32_t name, uint64_t recorder)
{
	uint32_t *v = u64map_get(&d->metric_of, (uint64_t)name + 1);
	OTF2_MetricRef m;
	if (v) {
		m = *v;
	} else {
		d->metrics = util_grow(d->metrics, &d->capmetrics, d->nmetrics, sizeof(*d->metrics), 16);
		d->metrics[d->nmetrics] = name;
		m = (OTF2_MetricRef)d->nmetrics++;
		u64map_put(&d->metric_of, (uint64_t)name + 1, m);
	}
	uint64_t pair = ((uint64_t)m << 40 | recorder) + 1;
	if (!u64map_get(&d->recorder_set, pair)) {
		u64map_put(&d->recorder_set, pair, 1);
		d->recorders = util_grow(d->recorders, &d->caprecorders, d->nrecorders,
					 sizeof(*d->recorders), 16);
		d->recorders[d->nrecorders++] = pair - 1;
	}
	return m;
}

OTF2_CommRef otf2_comm(struct otf2_defs *d, const struct mpi_comm *c, uint64_t id)
{
	if (c) {
		uint32_t *v = u64map_get(&d->comm_of, (uint64_t)(uintptr_t)c);
		return v ? *v : OTF2_UNDEFINED_COMM;
	}
	if (id == TPROF_COMM_WORLD)
		return d->world;
	if (id == TPROF_COMM_SELF)
		return d->self;
	return OTF2_UNDEFINED_COMM;
}

OTF2_CommRef otf2_comm_count(const struct otf2_defs *d)
{
	return d->ncomms;
}

const struct mpi_comm *otf2_comm_at(const struct otf2_defs *d, OTF2_CommRef ref, int *world, int *self)
{
	*world = ref == d->world;
	*self = ref == d->self;
	return d->comm_at ? d->comm_at[ref] : NULL;
}

/* ---- writing ------------------------------------------------------------------------------ */

#define WRITE(call) otf2_check(o, (call))

/* The strings named so far; from here on until otf2_defs_write_done, a string named for
 * the first time is written at once, so that it comes before the definition naming it. */
void otf2_defs_write_strings(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct otf2_defs *d = o->defs;
	for (size_t i = 0; i < d->nsids; i++)
		otf2_check(o, OTF2_GlobalDefWriter_WriteString(gw, (OTF2_StringRef)i,
							       strings_get(d->sids[i])));
	d->o = o;
	d->gw = gw;
}

void otf2_defs_write_done(struct otf2 *o)
{
	o->defs->gw = NULL;
}

/* The attributes, ref by ref: in the order of their first use. */
void otf2_defs_write_attributes(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct otf2_defs *d = o->defs;
	for (size_t i = 0; i < d->nattrs; i++)
		WRITE(OTF2_GlobalDefWriter_WriteAttribute(gw, (OTF2_AttributeRef)i,
							  otf2_tstr(d, d->attrs[i].name),
							  otf2_tstr(d, d->attrs[i].desc),
							  d->attrs[i].type));
}

/* The role of a call: collectives by their shape, the rest plain functions. */
static OTF2_RegionRole call_role(unsigned coll)
{
	switch (otf2_coll_op(coll)) {
	case OTF2_COLLECTIVE_OP_BARRIER:
		return OTF2_REGION_ROLE_BARRIER;
	case OTF2_COLLECTIVE_OP_BCAST:
	case OTF2_COLLECTIVE_OP_SCATTER:
	case OTF2_COLLECTIVE_OP_SCATTERV:
		return OTF2_REGION_ROLE_COLL_ONE2ALL;
	case OTF2_COLLECTIVE_OP_GATHER:
	case OTF2_COLLECTIVE_OP_GATHERV:
	case OTF2_COLLECTIVE_OP_REDUCE:
		return OTF2_REGION_ROLE_COLL_ALL2ONE;
	case OTF2_COLLECTIVE_OP_SCAN:
	case OTF2_COLLECTIVE_OP_EXSCAN:
		return OTF2_REGION_ROLE_COLL_OTHER;
	case -1:
		return OTF2_REGION_ROLE_FUNCTION;
	default:
		return OTF2_REGION_ROLE_COLL_ALL2ALL;
	}
}

static void region_kind(const struct otf2_defs *d, const struct rdef *r, OTF2_RegionRole *role,
			OTF2_Paradigm *par, const char **desc)
{
	const struct cat *c = &d->cats[r->cat];
	*role = c->role;
	*par = c->par;
	*desc = c->desc;
	if (c->role == OTF2_REGION_ROLE_FUNCTION && r->coll)
		*role = call_role(r->coll);
}

/* The regions, and the step parameter when steps used it. */
void otf2_defs_write_regions(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct otf2_defs *d = o->defs;
	for (size_t i = 0; i < d->nregions; i++) {
		OTF2_RegionRole role;
		OTF2_Paradigm par;
		const char *desc;
		region_kind(d, &d->regions[i], &role, &par, &desc);
		OTF2_StringRef name = otf2_tstr(d, d->regions[i].name);
		WRITE(OTF2_GlobalDefWriter_WriteRegion(gw, (OTF2_RegionRef)i, name, name,
						       otf2_str(d, desc), role, par,
						       OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING,
						       0, 0));
	}
	if (d->step_param_used)
		WRITE(OTF2_GlobalDefWriter_WriteParameter(gw, 0, otf2_tstr(d, d->step_name),
							  OTF2_PARAMETER_TYPE_UINT64));
}

/* The metric classes and their members, one per counter name, and which location
 * recorded each. */
void otf2_defs_write_metrics(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct otf2_defs *d = o->defs;
	for (size_t i = 0; i < d->nmetrics; i++) {
		OTF2_MetricMemberRef member = (OTF2_MetricMemberRef)i;
		WRITE(OTF2_GlobalDefWriter_WriteMetricMember(gw, member, otf2_tstr(d, d->metrics[i]),
							     otf2_str(d, "counter"),
							     OTF2_METRIC_TYPE_USER,
							     OTF2_METRIC_ABSOLUTE_POINT,
							     OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0,
							     otf2_str(d, "")));
		WRITE(OTF2_GlobalDefWriter_WriteMetricClass(gw, (OTF2_MetricRef)i, 1, &member,
							    OTF2_METRIC_ASYNCHRONOUS,
							    OTF2_RECORDER_KIND_ABSTRACT));
	}
	for (size_t i = 0; i < d->nrecorders; i++)
		WRITE(OTF2_GlobalDefWriter_WriteMetricClassRecorder(
			gw, (OTF2_MetricRef)(d->recorders[i] >> 40),
			(OTF2_LocationRef)(d->recorders[i] & ((1ull << 40) - 1))));
}

/* ---- the analysis processes' definitions, made one ------------------------------------------ */

/* A category found by its name, without keeping the address it was asked by (a replayed
 * name lives in a buffer freed after). */
static int category_named(struct otf2_defs *d, const char *cat, int where)
{
	for (int i = 0; i < d->ncats; i++)
		if (!strcmp(d->cats[i].cat, cat) && (i < (int)NKNOWN || d->cats[i].where == where))
			return i;
	int i = category(d, cat, where);
	d->cat_key[i] = NULL;
	return i;
}

void otf2_defs_pack(const struct otf2_defs *d, struct pack *b)
{
	pack_u64(b, d->nsids);
	for (size_t i = 0; i < d->nsids; i++)
		pack_name(b, d->sids[i]);
	pack_u64(b, d->nattrs);
	for (size_t i = 0; i < d->nattrs; i++) {
		pack_name(b, d->attrs[i].name);
		pack_name(b, d->attrs[i].desc);
		pack_u64(b, d->attrs[i].type);
	}
	pack_u64(b, d->nregions);
	for (size_t i = 0; i < d->nregions; i++) {
		const struct cat *c = &d->cats[d->regions[i].cat];
		pack_name(b, d->regions[i].name);
		pack_str(b, c->cat);
		pack_u64(b, (uint64_t)c->where);
		pack_u64(b, d->regions[i].coll);
	}
	pack_u64(b, d->nrecorders);
	for (size_t i = 0; i < d->nrecorders; i++) {
		pack_name(b, d->metrics[d->recorders[i] >> 40]);
		pack_u64(b, d->recorders[i] & ((1ull << 40) - 1));
	}
	pack_u64(b, (uint64_t)d->step_param_used);
}

/* Each kind's refs, read back as this registry's. */
static uint32_t *replay_kind(struct unpack *u, size_t min, size_t *n)
{
	*n = unpack_count(u, min);
	return xcalloc(*n ? *n : 1, sizeof(uint32_t));
}

void otf2_defs_replay(struct otf2_defs *d, struct unpack *u, struct otf2_idmaps *m)
{
	size_t len;
	m->v[OTF2_IDMAP_STRING] = replay_kind(u, sizeof(uint64_t), &m->n[OTF2_IDMAP_STRING]);
	for (size_t i = 0; i < m->n[OTF2_IDMAP_STRING]; i++)
		m->v[OTF2_IDMAP_STRING][i] = otf2_tstr(d, unpack_name(u));
	m->v[OTF2_IDMAP_ATTRIBUTE] = replay_kind(u, 3 * sizeof(uint64_t), &m->n[OTF2_IDMAP_ATTRIBUTE]);
	for (size_t i = 0; i < m->n[OTF2_IDMAP_ATTRIBUTE]; i++) {
		char *name = unpack_strdup(u), *desc = unpack_strdup(u);
		OTF2_Type type = (OTF2_Type)unpack_u64(u);
		m->v[OTF2_IDMAP_ATTRIBUTE][i] = otf2_attr(d, name, desc, type);
		free(name);
		free(desc);
	}
	m->v[OTF2_IDMAP_REGION] = replay_kind(u, 4 * sizeof(uint64_t), &m->n[OTF2_IDMAP_REGION]);
	for (size_t i = 0; i < m->n[OTF2_IDMAP_REGION]; i++) {
		uint32_t name = unpack_name(u);
		const char *s = unpack_str(u, &len);
		char *cat = xstrndup(s, len);
		int where = (int)unpack_u64(u);
		unsigned coll = (unsigned)unpack_u64(u);
		OTF2_RegionRef r = otf2_region(d, name, category_named(d, cat, where));
		if (coll != MPC_NONE)
			d->regions[r].coll = coll;
		m->v[OTF2_IDMAP_REGION][i] = r;
		free(cat);
	}
	size_t nrec = unpack_count(u, 2 * sizeof(uint64_t)), nmetrics = 0;
	m->v[OTF2_IDMAP_METRIC] = xcalloc(nrec ? nrec : 1, sizeof(uint32_t));
	struct u64map seen = { 0 };
	for (size_t i = 0; i < nrec; i++) {
		uint32_t name = unpack_name(u);
		OTF2_MetricRef g = otf2_metric(d, name, unpack_u64(u));
		if (!u64map_get(&seen, (uint64_t)name + 1)) {
			u64map_put(&seen, (uint64_t)name + 1, 1);
			m->v[OTF2_IDMAP_METRIC][nmetrics++] = g;
		}
	}
	m->n[OTF2_IDMAP_METRIC] = nmetrics;
	u64map_free(&seen);
	if (unpack_u64(u))
		d->step_param_used = 1;
}
