/* import-image.c — the PROPs of an imported image (import-image.h): role "import" gives the
 * process its struct import_image; source, pid_name, process_name, sort_index, import_rank,
 * time, base_ns and gpu_stream fill it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "import-image.h"

static struct import_image *image(struct proc *p)
{
	if (!p->imp) {
		p->imp = xcalloc(1, sizeof(*p->imp));
		p->imp->sort_index = INT64_MIN;
		p->imp->rank = -1;
	}
	return p->imp;
}

int impimage_prop(struct proc *p, const char *key, const struct tprof_rec *r)
{
	if (r->flags & TPROF_PROP_INT) {
		if (!p->imp)
			return 0;
		if (!strcmp(key, "sort_index"))
			p->imp->sort_index = (int64_t)r->arg;
		else if (!strcmp(key, "import_rank"))
			p->imp->rank = (int64_t)r->arg;
		else if (!strcmp(key, "base_ns"))
			p->imp->base_ns = (int64_t)r->arg;
		else
			return 0;
		return 1;
	}
	uint32_t val = proc_string(p, (uint32_t)r->arg);
	if (!strcmp(key, "role")) {
		if (!val || strcmp(strings_get(val), "import"))
			return 0;
		image(p);
		return 1;
	}
	if (!p->imp)
		return 0;
	if (!strcmp(key, "source"))
		p->imp->source = val;
	else if (!strcmp(key, "pid_name"))
		p->imp->pid_name = val;
	else if (!strcmp(key, "process_name"))
		p->imp->process_name = val;
	else if (!strcmp(key, "time"))
		p->imp->time = val;
	else if (!strcmp(key, "gpu_stream")) {
		struct imp_gpu g;
		unsigned long long dstream;
		if (!val || sscanf(strings_get(val), "%u %u %llu", &g.stream, &g.device,
				   &dstream) != 3)
			return 1;
		g.dstream = dstream;
		struct import_image *im = p->imp;
		im->gpu = xreallocarray(im->gpu, im->ngpu + 1, sizeof(*im->gpu));
		im->gpu[im->ngpu++] = g;
	} else
		return 0;
	return 1;
}

const struct imp_gpu *impimage_gpu(const struct import_image *im, uint32_t stream)
{
	for (size_t i = 0; im && i < im->ngpu; i++)
		if (im->gpu[i].stream == stream)
			return &im->gpu[i];
	return NULL;
}
