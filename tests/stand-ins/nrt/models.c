/* models.c — NEFF files and models: reading the stand-in's NEFF (the real 1024-byte header,
 * then key=value text), loading a model onto a range of NeuronCores, unloading it, and the
 * model queries (NeuronCores, tensor information, model info).
 *
 * The header fields read (offsets as in the real header): header_size (8, must be 1024),
 * data_size (16), neff_version_major (24, 1 or 2), neff_build_version (40, 128 bytes of
 * text), name (220, 256 bytes), requested_tpb_count (476: NeuronCores one instance needs, 0
 * meaning 1).  The text of neff_build_version, then the data_size bytes after the header, are
 * whitespace-separated tokens: "standin" (a marker, ignored) and
 *   exec_us=N        an execution runs N microseconds (STANDIN_NRT_EXEC_US overrides)
 *   add=F            outputs = F + the sum of the inputs, elementwise, as float32
 *   in=NAME:BYTES    an input tensor (repeatable, up to 16)
 *   out=NAME:BYTES   an output tensor (repeatable, up to 16)
 *   status=N         the status every execution returns once it has run (error tests)
 * A model that declares no tensors has one input "input" and one output "output" of 4096
 * bytes. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static nrt_model_t *loaded;      /* every loaded model, under sn_lock */

static uint64_t u64_at(const unsigned char *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

static uint32_t u32_at(const unsigned char *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

static int add_io(struct sn_io *io, int *n, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(io->name) || *n >= SN_MAX_IO)
		return -1;
	unsigned long long bytes = strtoull(colon + 1, &end, 10);
	if (*end || end == colon + 1 || !bytes)
		return -1;
	memcpy(io[*n].name, spec, (size_t)(colon - spec));
	io[*n].name[colon - spec] = '\0';
	io[*n].bytes = (size_t)bytes;
	(*n)++;
	return 0;
}

/* Applies the tokens of text[0..len) to m; -1 on a token it does not know. */
static int parse_tokens(nrt_model_t *m, const char *text, size_t len, int64_t *exec_ns)
{
	char *copy = strndup(text, len), *save = NULL, *tok;
	int rc = 0;
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, " \t\r\n", &save); tok && !rc; tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '='), *end = NULL;
		if (!strcmp(tok, "standin"))
			continue;
		if (!eq) {
			rc = -1;
			break;
		}
		*eq++ = '\0';
		if (!strcmp(tok, "exec_us")) {
			double us = strtod(eq, &end);
			*exec_ns = (int64_t)(us * 1e3 + 0.5);
			rc = *end || end == eq || us < 0 ? -1 : 0;
		} else if (!strcmp(tok, "add")) {
			m->add = strtof(eq, &end);
			rc = *end || end == eq ? -1 : 0;
		} else if (!strcmp(tok, "status")) {
			m->status = (NRT_STATUS)strtol(eq, &end, 10);
			rc = *end || end == eq ? -1 : 0;
		} else if (!strcmp(tok, "in")) {
			rc = add_io(m->in, &m->nin, eq);
		} else if (!strcmp(tok, "out")) {
			rc = add_io(m->out, &m->nout, eq);
		} else {
			rc = -1;
		}
		if (rc)
			sn_fail(NRT_INVALID, "NEFF: bad token %s=%s", tok, eq);
	}
	free(copy);
	return rc;
}

/* A model from NEFF bytes, or NULL with *rc saying why. */
static nrt_model_t *parse_neff(const void *neff, size_t size, NRT_STATUS *rc)
{
	const unsigned char *p = neff;
	*rc = NRT_INVALID;
	if (!neff || size < SN_NEFF_HEADER) {
		sn_fail(NRT_INVALID, "nrt_load: %zu bytes are no NEFF", neff ? size : 0);
		return NULL;
	}
	uint64_t header = u64_at(p, 8), data = u64_at(p, 16), major = u64_at(p, 24);
	if (header != SN_NEFF_HEADER || data > size - SN_NEFF_HEADER) {
		sn_fail(NRT_INVALID, "nrt_load: NEFF header_size %llu, data_size %llu in %zu bytes",
			(unsigned long long)header, (unsigned long long)data, size);
		return NULL;
	}
	if (major != 1 && major != 2) {
		*rc = sn_fail(NRT_UNSUPPORTED_NEFF_VERSION, "nrt_load: NEFF version %llu",
			      (unsigned long long)major);
		return NULL;
	}
	nrt_model_t *m = calloc(1, sizeof(*m));
	if (!m) {
		*rc = NRT_RESOURCE;
		return NULL;
	}
	memcpy(m->name, p + 220, 256);
	m->name[256] = '\0';
	m->need = (int)u32_at(p, 476);
	if (m->need < 1)
		m->need = 1;
	m->add = 1.0f;
	int64_t exec_ns = 100000;
	const char *build = (const char *)p + 40;
	if (parse_tokens(m, build, strnlen(build, 128), &exec_ns) < 0 ||
	    parse_tokens(m, (const char *)p + SN_NEFF_HEADER, strnlen((const char *)p + SN_NEFF_HEADER, data),
			 &exec_ns) < 0) {
		free(m);
		return NULL;
	}
	m->exec_ns = sn_exec_ns(m->name, exec_ns);
	if (!m->nin && !m->nout) {
		add_io(m->in, &m->nin, "input:4096");
		add_io(m->out, &m->nout, "output:4096");
	}
	*rc = NRT_SUCCESS;
	return m;
}

static NRT_STATUS load(const char *what, const void *neff, size_t size, int32_t vnc, int32_t vnc_count,
		       nrt_model_t **model)
{
	NRT_STATUS rc;
	sn_config_once();
	if (!model)
		return sn_fail(NRT_INVALID, "%s: no model pointer", what);
	nrt_model_t *m = parse_neff(neff, size, &rc);
	if (!m)
		return rc;
	pthread_mutex_lock(&sn_lock);
	rc = sn_ready();
	int count = vnc_count < 0 ? m->need : vnc_count;
	if (rc == NRT_SUCCESS && (count < m->need || count == 0 || count > sn.nvisible))
		rc = sn_fail(NRT_LOAD_NOT_ENOUGH_NC, "%s: %s needs %d NeuronCores, %d asked for, %d visible",
			     what, m->name, m->need, vnc_count, sn.nvisible);
	if (rc == NRT_SUCCESS && vnc < 0) {
		/* The runtime decides: the first range whose cores hold the fewest models. */
		int best = -1, best_load = 0;
		for (int c = 0; c + count <= sn.nvisible; c++) {
			int l = 0;
			for (int k = c; k < c + count; k++)
				l += sn.models_on[k];
			if (best < 0 || l < best_load) {
				best = c;
				best_load = l;
			}
		}
		vnc = best;
	}
	if (rc == NRT_SUCCESS && (vnc < 0 || vnc + count > sn.nvisible))
		rc = sn_fail(NRT_LOAD_NOT_ENOUGH_NC, "%s: NeuronCores %d..%d of %d visible", what, vnc,
			     vnc + count - 1, sn.nvisible);
	if (rc == NRT_SUCCESS && sn_handle_add(m, SN_MODEL) < 0)
		rc = NRT_RESOURCE;
	if (rc == NRT_SUCCESS) {
		m->vnc = vnc;
		m->count = count;
		m->next = loaded;
		loaded = m;
		for (int k = vnc; k < vnc + count; k++)
			sn.models_on[k]++;
		*model = m;
		char name[600];
		sn_trace("{\"event\":\"load\",\"pid\":%d,\"model\":%s,\"nc\":%d,\"ncs\":%d,\"exec_ns\":%lld,"
			 "\"bytes\":%zu}", (int)getpid(), sn_json_str(m->name, name, sizeof(name)), vnc,
			 count, (long long)m->exec_ns, size);
	} else {
		free(m);
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_load(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count,
			      nrt_model_t **model)
{
	return load("nrt_load", neff_bytes, size, vnc, vnc_count, model);
}

SN_EXPORT NRT_STATUS nrt_load_collectives(const void *neff_bytes, size_t size, int32_t vnc,
					  int32_t vnc_count, uint32_t ctx_device_id,
					  uint32_t ctx_device_count, nrt_model_t **model)
{
	if (!ctx_device_count || ctx_device_id >= ctx_device_count)
		return sn_fail(NRT_INVALID, "nrt_load_collectives: device %u of %u", ctx_device_id,
			       ctx_device_count);
	return load("nrt_load_collectives", neff_bytes, size, vnc, vnc_count, model);
}

/* Under sn_lock. */
static void drop(nrt_model_t *m)
{
	for (nrt_model_t **pp = &loaded; *pp; pp = &(*pp)->next)
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	for (int k = m->vnc; k < m->vnc + m->count; k++)
		sn.models_on[k]--;
	sn_handle_del(m);
	free(m);
}

SN_EXPORT NRT_STATUS nrt_unload(nrt_model_t *model)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	if (rc == NRT_SUCCESS && !sn_handle_is(model, SN_MODEL))
		rc = sn_fail(NRT_INVALID_HANDLE, "nrt_unload: %p is no model", (void *)model);
	if (rc == NRT_SUCCESS) {
		char name[600];
		sn_trace("{\"event\":\"unload\",\"pid\":%d,\"model\":%s,\"nc\":%d}", (int)getpid(),
			 sn_json_str(model->name, name, sizeof(name)), model->vnc);
		drop(model);
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

/* The models still loaded at nrt_close are unloaded with it.  Under sn_lock. */
void sn_models_close(void)
{
	while (loaded)
		drop(loaded);
}

/* ---- queries ---------------------------------------------------------------------------- */

/* Runs `body` under sn_lock when `model` is a live model of an initialised runtime. */
#define WITH_MODEL(what, model, body)                                                      \
	do {                                                                               \
		pthread_mutex_lock(&sn_lock);                                              \
		NRT_STATUS rc_ = sn_ready();                                               \
		if (rc_ == NRT_SUCCESS && !sn_handle_is(model, SN_MODEL))                  \
			rc_ = sn_fail(NRT_INVALID_HANDLE, what ": %p is no model", (const void *)model); \
		if (rc_ == NRT_SUCCESS) {                                                  \
			body;                                                              \
		}                                                                          \
		pthread_mutex_unlock(&sn_lock);                                            \
		return rc_;                                                                \
	} while (0)

SN_EXPORT NRT_STATUS nrt_get_model_nc_count(const nrt_model_t *model, uint32_t *vnc_count)
{
	if (!vnc_count)
		return NRT_INVALID;
	WITH_MODEL("nrt_get_model_nc_count", model, *vnc_count = (uint32_t)model->count);
}

SN_EXPORT NRT_STATUS nrt_get_model_vnc_count(const nrt_model_t *model, uint32_t *vnc_count)
{
	if (!vnc_count)
		return NRT_INVALID;
	WITH_MODEL("nrt_get_model_vnc_count", model, *vnc_count = (uint32_t)model->count);
}

SN_EXPORT NRT_STATUS nrt_get_model_instance_count(nrt_model_t *model, uint32_t *instance_count)
{
	if (!instance_count)
		return NRT_INVALID;
	WITH_MODEL("nrt_get_model_instance_count", model,
		   *instance_count = (uint32_t)(model->count / model->need));
}

SN_EXPORT NRT_STATUS nrt_get_model_info(const nrt_model_t *model, nrt_model_info_t *info,
					size_t info_size_in, size_t *info_size_out)
{
	if (!info || info_size_in < sizeof(uint32_t))
		return NRT_INVALID;
	WITH_MODEL("nrt_get_model_info", model, {
		nrt_model_info_t mi = { (uint32_t)model->vnc };
		memcpy(info, &mi, info_size_in < sizeof(mi) ? info_size_in : sizeof(mi));
		if (info_size_out)
			*info_size_out = sizeof(mi);
	});
}

static NRT_STATUS make_tensor_info(const nrt_model_t *m, nrt_tensor_info_array_t **out)
{
	size_t n = (size_t)(m->nin + m->nout);
	nrt_tensor_info_array_t *a = calloc(1, sizeof(*a) + n * sizeof(a->tensor_array[0]));
	if (!a)
		return NRT_RESOURCE;
	a->tensor_count = n;
	for (size_t i = 0; i < n; i++) {
		const struct sn_io *io = i < (size_t)m->nin ? &m->in[i] : &m->out[i - (size_t)m->nin];
		nrt_tensor_info_t *t = &a->tensor_array[i];
		snprintf(t->name, sizeof(t->name), "%s", io->name);
		t->usage = i < (size_t)m->nin ? NRT_TENSOR_USAGE_INPUT : NRT_TENSOR_USAGE_OUTPUT;
		t->size = io->bytes;
		t->dtype = NRT_DTYPE_FLOAT32;
		t->ndim = 1;
		t->shape = malloc(sizeof(uint32_t));
		if (t->shape)
			t->shape[0] = (uint32_t)(io->bytes / sizeof(float));
	}
	*out = a;
	return NRT_SUCCESS;
}

SN_EXPORT NRT_STATUS nrt_get_model_tensor_info(nrt_model_t *model, nrt_tensor_info_array_t **tensor_info)
{
	if (!tensor_info)
		return NRT_INVALID;
	WITH_MODEL("nrt_get_model_tensor_info", model, rc_ = make_tensor_info(model, tensor_info));
}

SN_EXPORT NRT_STATUS nrt_free_model_tensor_info(nrt_tensor_info_array_t *tensor_info)
{
	if (!tensor_info)
		return NRT_INVALID;
	for (uint64_t i = 0; i < tensor_info->tensor_count; i++)
		free(tensor_info->tensor_array[i].shape);
	free(tensor_info);
	return NRT_SUCCESS;
}
