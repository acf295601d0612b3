/* hook-nrt.c — the Neuron runtime (libnrt.so.1): the hook table, the generated wrappers of
 * queries, and the life of the runtime and its models: nrt_init (then the runtime's version
 * and the instance it runs on, as properties of the process), nrt_close (the trace written out
 * before the runtime goes), loading (the model's name from its NEFF header, the NeuronCores it
 * was given), executions (their span is the execution: nrt_execute blocks until the outputs
 * are written) and the collectives across devices.  Tensors and tensor sets are wrapped in
 * hook-nrt-tensors.c. */
#include <stdio.h>

#include "../../common/hash.h"
#include "hook-nrt.h"

#define NRT_REAL(kind, ret, name, params, args) TPROF_REAL_DEFINE(name)
NRT_API(NRT_REAL)
#undef NRT_REAL

/* ---- generated wrappers ----------------------------------------------------------------- */

/* A wrapper of its own for each NRT function the list names: `more` fills what the call
 * gives beyond its name (its model for QM). */
#define NRT_GEN_BODY(name, params, args, more)                                             \
	TPROF_EXPORT NRT_STATUS name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(NRT_UNPAREN args) : NRT_NO_RUNTIME;             \
		struct nrt_call c_, *c = &c_;                                              \
		nrt_begin(c, t, NRT_HOOK(name), 1, TPROF_NRT_OTHER);                       \
		more;                                                                      \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real args);                              \
	}
#define NRT_GEN_Q(name, params, args) NRT_GEN_BODY(name, params, args, (void)0)
#define NRT_GEN_QM(name, params, args)                                                    \
	NRT_GEN_BODY(name, params, args, nrt_model_args(c, model))
#define NRT_GEN_H(name, params, args)
#define NRT_UNPAREN(...) __VA_ARGS__
#define NRT_GENERATE(kind, ret, name, params, args) NRT_GEN_##kind(name, params, args)
NRT_API(NRT_GENERATE)
#undef NRT_GENERATE

/* ---- the runtime ------------------------------------------------------------------------- */

static const char *family_name(uint32_t family)
{
	static const char *const names[] = { NULL, "inf1", "trn1", "trn1n", "inf2", "trn2" };
	if (family < sizeof(names) / sizeof(names[0]))
		return names[family];
	return family == 14 ? "trn3" : NULL;
}

/* The image the runtime's properties were last recorded in (0: none). */
static uint32_t props_gen;

/* The runtime's version and the instance it runs on, as PROP records (nrt_version,
 * nrt_instance...), from the real functions; once per process image that uses the runtime. */
static void record_props(struct tprof_thread *t)
{
	if (__atomic_load_n(&props_gen, __ATOMIC_ACQUIRE) == tprof_g.generation || tprof_thread_enter(t) < 0)
		return;
	__atomic_store_n(&props_gen, tprof_g.generation, __ATOMIC_RELEASE);
	char buf[192];
	t->guard++;
	nrt_version_t v;
	memset(&v, 0, sizeof(v));
	if (get_nrt_get_version() && real_nrt_get_version(&v, sizeof(v)) == NRT_SUCCESS) {
		snprintf(buf, sizeof(buf), "%llu.%llu.%llu.%llu", (unsigned long long)v.rt_major,
			 (unsigned long long)v.rt_minor, (unsigned long long)v.rt_patch,
			 (unsigned long long)v.rt_maintenance);
		tprof_proc_prop_str("nrt_version", buf);
		v.rt_detail[sizeof(v.rt_detail) - 1] = '\0';
		if (v.rt_detail[0])
			tprof_proc_prop_str("nrt_version_detail", v.rt_detail);
	}
	nrt_instance_info_t ii;
	memset(&ii, 0, sizeof(ii));
	if (get_nrt_get_instance_info() && real_nrt_get_instance_info(&ii, sizeof(ii)) == NRT_SUCCESS) {
		const char *fam = family_name(ii.family);
		char unknown[32];
		snprintf(unknown, sizeof(unknown), "family %u", ii.family);
		tprof_proc_prop_str("nrt_instance", fam ? fam : unknown);
		tprof_proc_prop_int("nrt_instance_family", ii.family);
		tprof_proc_prop_int("nrt_instance_size", ii.size);
		snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(ii.arch_name), ii.arch_name);
		if (buf[0])
			tprof_proc_prop_str("nrt_arch", buf);
		snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(ii.device_revision), ii.device_revision);
		if (buf[0])
			tprof_proc_prop_str("nrt_device_revision", buf);
	}
	uint32_t n = 0;
	if (get_nrt_get_visible_nc_count() && real_nrt_get_visible_nc_count(&n) == NRT_SUCCESS)
		tprof_proc_prop_int("nrt_nc_count", n);
	t->guard--;
}

TPROF_EXPORT NRT_STATUS nrt_init(int framework, const char *fw_version, const char *fal_version)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_init_fn real = get_nrt_init();
	if (!tprof_wrapper_records(t, real))
		return real ? real(framework, fw_version, fal_version) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_init), 1, TPROF_NRT_INIT);
	c->a->extra = (uint32_t)framework;
	c->a->name = nrt_str(c, fw_version);
	tprof_call_enter(&c->call);
	NRT_STATUS rc = tprof_call_leave(&c->call, real(framework, fw_version, fal_version));
	if (rc == NRT_SUCCESS) {
		__atomic_store_n(&props_gen, 0, __ATOMIC_RELEASE);
		record_props(t);
	}
	return rc;
}

/* The trace so far goes into the chunk file before the runtime closes (it may be the last
 * thing a job does before it is torn down). */
TPROF_EXPORT void nrt_close(void)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_close_fn real = get_nrt_close();
	if (!tprof_wrapper_records(t, real)) {
		if (real)
			real();
		return;
	}
	struct nrt_call c_, *c = &c_;
	t->guard++;
	tprof_image_flush();
	t->guard--;
	nrt_begin(c, t, NRT_HOOK(nrt_close), 1, TPROF_NRT_CLOSE);
	tprof_call_enter(&c->call);
	real();
	tprof_call_leave(&c->call, 0);
}

TPROF_EXPORT const char *nrt_get_status_as_str(NRT_STATUS status)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_get_status_as_str_fn real = get_nrt_get_status_as_str();
	if (TPROF_UNLIKELY(!real))
		return "NRT runtime not found";
	if (!tprof_should_record(t))
		return real(status);
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_get_status_as_str), 1, TPROF_NRT_OTHER);
	tprof_call_enter(&c->call);
	const char *s = real(status);
	tprof_call_leave(&c->call, 0);
	return s;
}

TPROF_EXPORT NRT_STATUS nrt_get_vnc_memory_stats(uint32_t vnc, nrt_vnc_memory_stats_t *stats,
						 size_t in, size_t *out)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_get_vnc_memory_stats_fn real = get_nrt_get_vnc_memory_stats();
	if (!tprof_wrapper_records(t, real))
		return real ? real(vnc, stats, in, out) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_get_vnc_memory_stats), 1, TPROF_NRT_OTHER);
	c->a->nc = (int32_t)vnc;
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(vnc, stats, in, out));
}

/* ---- models ------------------------------------------------------------------------------ */

/* The model's name: the NEFF header's, else "neff-" and a hash of its first bytes. */
static void neff_name(const void *neff, size_t size, char *out, size_t len)
{
	size_t n = 0;
	if (neff && size >= NRT_NEFF_HEADER) {
		const char *s = (const char *)neff + NRT_NEFF_NAME_AT;
		n = strnlen(s, NRT_NEFF_NAME_LEN);
		if (n >= len)
			n = len - 1;
		memcpy(out, s, n);
	}
	out[n] = '\0';
	if (!n) {
		size_t k = neff ? (size < 65536 ? size : 65536) : 0;
		snprintf(out, len, "neff-%016llx",
			 (unsigned long long)(tprof_hash_bytes(neff, k) ^ (uint64_t)size));
	}
}

/* After a successful load (the guard raised): where the runtime put the model, from the real
 * functions, and the model in the table. */
static void loaded(struct nrt_call *c, nrt_model_t *m, const char *name, int32_t vnc, int32_t vnc_count)
{
	nrt_model_info_t info = { (uint32_t)-1 };
	size_t out = 0;
	int32_t nc = vnc;
	uint32_t count = vnc_count > 0 ? (uint32_t)vnc_count : 0, n = 0;
	if (get_nrt_get_model_info() &&
	    real_nrt_get_model_info(m, &info, sizeof(info), &out) == NRT_SUCCESS)
		nc = (int32_t)info.vnc;
	if ((get_nrt_get_model_vnc_count() && real_nrt_get_model_vnc_count(m, &n) == NRT_SUCCESS) ||
	    (get_nrt_get_model_nc_count() && real_nrt_get_model_nc_count(m, &n) == NRT_SUCCESS))
		count = n;
	struct tprof_nrt_model *e = tprof_nrt_model_add(m, name, nc, count);
	c->a->handle = (uint64_t)(uintptr_t)m;
	c->a->nc = nc;
	if (vnc_count < 0)
		c->a->extra = count;
	record_props(c->call.t);
	/* Its name gets its string id here, not at its first execution. */
	if (e && tprof_thread_enter(c->call.t) == 0)
		tprof_nrt_name(&e->id, e->name);
}

#define NRT_LOAD_BODY(fn, ...)                                                           \
	struct tprof_thread *t = &tprof_tls;                                             \
	fn##_fn real = get_##fn();                                                       \
	if (!tprof_wrapper_records(t, real))                                             \
		return real ? real(__VA_ARGS__) : NRT_NO_RUNTIME;                        \
	struct nrt_call c_, *c = &c_;                                                    \
	char mname[NRT_NEFF_NAME_LEN + 1];                                                 \
	neff_name(neff, size, mname, sizeof(mname));                                       \
	nrt_begin(c, t, NRT_HOOK(fn), 1, TPROF_NRT_LOAD);                                \
	c->a->bytes = size;                                                                \
	c->a->nc = vnc;                                                                    \
	c->a->extra = (uint32_t)vnc_count;                                                 \
	c->a->name = c->call.r ? tprof_intern(mname, strlen(mname)) : 0;                  \
	tprof_call_enter(&c->call);                                                       \
	NRT_STATUS rc = real(__VA_ARGS__);                                                 \
	if (rc == NRT_SUCCESS && model && *model)                                          \
		loaded(c, *model, mname, vnc, vnc_count);                                  \
	return tprof_call_leave(&c->call, rc)

TPROF_EXPORT NRT_STATUS nrt_load(const void *neff, size_t size, int32_t vnc, int32_t vnc_count,
				 nrt_model_t **model)
{
	NRT_LOAD_BODY(nrt_load, neff, size, vnc, vnc_count, model);
}

TPROF_EXPORT NRT_STATUS nrt_load_collectives(const void *neff, size_t size, int32_t vnc,
					     int32_t vnc_count, uint32_t device_id,
					     uint32_t device_count, nrt_model_t **model)
{
	NRT_LOAD_BODY(nrt_load_collectives, neff, size, vnc, vnc_count, device_id, device_count, model);
}

TPROF_EXPORT NRT_STATUS nrt_unload(nrt_model_t *model)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_unload_fn real = get_nrt_unload();
	if (!tprof_wrapper_records(t, real))
		return real ? real(model) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_unload), 1, TPROF_NRT_UNLOAD);
	struct tprof_nrt_model *m = nrt_model_args(c, model);
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(model);
	if (rc == NRT_SUCCESS)
		tprof_nrt_model_remove(m);
	return tprof_call_leave(&c->call, rc);
}

/* ---- executions: the hot path ------------------------------------------------------------- */

/* The CALL of an execution (NULL when not recorded): the model, its NeuronCores, and the
 * bytes and tensors of both sets, from the tables; no lock, no allocation.  Raises the
 * thread's guard (before the record is published) for the call. */
static inline struct tprof_rec *exec_begin(struct tprof_thread *t, struct tprof_hook *h,
					   const void *model, const void *in, const void *out,
					   uint32_t repeat)
{
	struct tprof_rec *r = tprof_call_reserve(t, h, 2);
	if (TPROF_UNLIKELY(r == NULL)) {
		t->guard++;
		return NULL;
	}
	struct tprof_nrt_args *a = (struct tprof_nrt_args *)(r + 1);
	struct tprof_nrt_exec *x = (struct tprof_nrt_exec *)(r + 2);
	struct tprof_nrt_model *m = tprof_nrt_model_find(model);
	struct tprof_nrt_set *si = tprof_nrt_set_find(in), *so = tprof_nrt_set_find(out);
	a->handle = (uint64_t)(uintptr_t)model;
	a->op = TPROF_NRT_EXECUTE;
	a->extra = repeat;
	a->nc = -1;
	if (TPROF_LIKELY(m != NULL)) {
		a->nc = m->nc;
		a->name = tprof_nrt_name(&m->id, m->name);
		x->model_nc_count = m->nc_count;
	}
	if (TPROF_LIKELY(si != NULL)) {
		x->in_bytes = __atomic_load_n(&si->bytes, __ATOMIC_RELAXED);
		x->in_tensors = __atomic_load_n(&si->count, __ATOMIC_RELAXED);
	}
	if (TPROF_LIKELY(so != NULL)) {
		x->out_bytes = __atomic_load_n(&so->bytes, __ATOMIC_RELAXED);
		x->out_tensors = __atomic_load_n(&so->count, __ATOMIC_RELAXED);
	}
	a->bytes = x->in_bytes + x->out_bytes;
	t->guard++;
	tprof_call_start(r, h, 2, 0);
	return r;
}

TPROF_EXPORT NRT_STATUS nrt_execute(nrt_model_t *model, const nrt_tensor_set_t *in,
				    nrt_tensor_set_t *out)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_execute_fn real = get_nrt_execute();
	if (TPROF_UNLIKELY(!real))
		return NRT_NO_RUNTIME;
	if (!tprof_should_record(t))
		return real(model, in, out);
	struct tprof_rec *r = exec_begin(t, NRT_HOOK(nrt_execute), model, in, out, 0);
	NRT_STATUS rc = real(model, in, out);
	tprof_call_finish(r, rc);
	t->guard--;
	return rc;
}

TPROF_EXPORT NRT_STATUS nrt_execute_repeat(nrt_model_t *model, const nrt_tensor_set_t *in,
					   nrt_tensor_set_t *out, int repeat)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_execute_repeat_fn real = get_nrt_execute_repeat();
	if (TPROF_UNLIKELY(!real))
		return NRT_NO_RUNTIME;
	if (!tprof_should_record(t))
		return real(model, in, out, repeat);
	struct tprof_rec *r = exec_begin(t, NRT_HOOK(nrt_execute_repeat), model, in, out,
					 repeat > 0 ? (uint32_t)repeat : 0);
	NRT_STATUS rc = real(model, in, out, repeat);
	tprof_call_finish(r, rc);
	t->guard--;
	return rc;
}

/* ---- collectives across devices ------------------------------------------------------------
 * handle = this device's id in the group (g_device_id), extra = the group's size. */

#define NRT_COLL(name, bytes_expr, params, ...)                                  \
	TPROF_EXPORT NRT_STATUS name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(__VA_ARGS__) : NRT_NO_RUNTIME;                  \
		struct nrt_call c_, *c = &c_;                                              \
		nrt_begin(c, t, NRT_HOOK(name), 1, TPROF_NRT_COLLECTIVE);                  \
		c->a->nc = (int32_t)vnc;                                                   \
		c->a->handle = device_id;                                                  \
		c->a->extra = device_count;                                                \
		c->a->bytes = (bytes_expr);                                                \
		tprof_call_enter(&c->call);                                               \
		return tprof_call_leave(&c->call, real(__VA_ARGS__));                     \
	}

NRT_COLL(nrt_barrier, 0, (int32_t vnc, uint32_t device_id, uint32_t device_count),
	 vnc, device_id, device_count)
NRT_COLL(nrt_all_gather, (uint64_t)rank_input_size * device_count,
	 (int32_t vnc, uint32_t device_id, uint32_t device_count, uint32_t rank_input_size,
	  void *input, void *output), vnc, device_id, device_count, rank_input_size, input, output)
NRT_COLL(nrt_build_global_comm, 0, (int32_t vnc, uint32_t device_id, uint32_t device_count),
	 vnc, device_id, device_count)
NRT_COLL(nrt_cc_global_comm_init, 0,
	 (uint32_t vnc, uint32_t device_id, uint32_t device_count), vnc, device_id, device_count)

/* ---- the table --------------------------------------------------------------------------- */

#define NRT_ENTRY(kind, ret, name, params, args)                                          \
	[NRTH_##name] = { .domain = TPROF_DOM_NRT, .record = 1 },
struct tprof_hook tprof_nrt_hooks[NRTH_COUNT] = {
	NRT_API(NRT_ENTRY)
};

#define NRT_FILL(kind, ret, name, params, args)                                           \
	tprof_hook_set(&tprof_nrt_hooks[NRTH_##name], #name, NULL, (void *)name,          \
		       (void **)&real_##name);
static void tprof_nrt_hooks_fill(void)
{
	NRT_API(NRT_FILL)
}
TPROF_HOOK_TABLE(nrt, tprof_nrt_hooks, NRTH_COUNT, tprof_nrt_hooks_fill, TPROF_DOM_NRT);
