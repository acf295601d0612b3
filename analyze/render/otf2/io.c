/* render/otf2/io.c — parallel I/O as OTF2's I/O records, the way Score-P writes MPI-IO: the
 * paradigm "MPI-IO", a regular file per name, a handle per file a process opened (named
 * after its file, over the communicator it was opened on); IoCreateHandle where the open
 * returns, IoDestroyHandle where the close returns, and for each read or write
 * IoOperationBegin after its Enter with the bytes asked for, then IoOperationComplete before
 * its Leave with the bytes done, or for a nonblocking one IoOperationIssued there and
 * IoOperationComplete where its request completed (render/otf2/mpi.c holds the request).
 * Handles and files get their refs as the events name them; the definitions are written at
 * the end (render/otf2/globaldefs.c).  Under --parallel the first analysis process makes
 * every other's handles its own (render/otf2/unify.c), whose locations then carry the
 * mapping; files are named, so each is one file in the archive whoever opened it. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"
#include "state.h"

struct io_handle {
	int proc;                        /* the process that opened it, and its number there */
	uint32_t number;
	uint32_t file;                   /* its file's ref */
	uint32_t name;                   /* the file's name, a trace string id */
	OTF2_CommRef comm;
};

struct otf2_io {
	struct io_handle *handles;       /* by ref */
	size_t nhandles, caphandles;
	uint32_t *files;                 /* names (trace string ids) by file ref */
	size_t nfiles, capfiles;
	struct u64map handle_of;         /* (process, file number) -> ref + 1 */
	struct u64map file_of;           /* name -> ref + 1 */
};

static struct otf2_io *io(struct otf2 *o)
{
	if (!o->io)
		o->io = xcalloc(1, sizeof(*o->io));
	return o->io;
}

OTF2_IoHandleRef otf2_io_handle(struct otf2 *o, int proc, uint32_t number, uint32_t name,
				OTF2_CommRef comm)
{
	struct otf2_io *x = io(o);
	uint64_t key = (uint64_t)(uint32_t)proc << 32 | number;
	uint32_t *h = u64map_get(&x->handle_of, key);
	if (h)
		return *h - 1;
	uint32_t *f = u64map_get(&x->file_of, name);
	if (!f) {
		x->files = util_grow(x->files, &x->capfiles, x->nfiles, sizeof(*x->files), 16);
		x->files[x->nfiles++] = name;
		f = u64map_put(&x->file_of, name, (uint32_t)x->nfiles);
	}
	x->handles = util_grow(x->handles, &x->caphandles, x->nhandles, sizeof(*x->handles), 16);
	x->handles[x->nhandles++] = (struct io_handle){ proc, number, *f - 1, name, comm };
	u64map_put(&x->handle_of, key, (uint32_t)x->nhandles);
	return (OTF2_IoHandleRef)(x->nhandles - 1);
}

void otf2_io_pack(const struct otf2 *o, struct pack *b)
{
	const struct otf2_io *x = o->io;
	size_t n = x ? x->nhandles : 0;
	pack_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		const struct io_handle *h = &x->handles[i];
		pack_i64(b, h->proc);
		pack_u64(b, h->number);
		pack_name(b, h->name);
		pack_u64(b, h->comm);   /* communicators' refs are the same everywhere */
	}
}

void otf2_io_replay(struct otf2 *o, struct unpack *u, struct otf2_idmaps *m)
{
	size_t n = unpack_count(u, 4 * sizeof(uint64_t));
	m->n[OTF2_IDMAP_IO_HANDLE] = n;
	m->v[OTF2_IDMAP_IO_HANDLE] = xcalloc(n ? n : 1, sizeof(uint32_t));
	for (size_t i = 0; i < n && !u->short_read; i++) {
		int proc = (int)unpack_i64(u);
		uint32_t number = (uint32_t)unpack_u64(u);
		uint32_t name = unpack_name(u);
		OTF2_CommRef comm = (OTF2_CommRef)unpack_u64(u);
		m->v[OTF2_IDMAP_IO_HANDLE][i] = otf2_io_handle(o, proc, number, name, comm);
	}
}

void otf2_io_write_defs(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct otf2_io *x = o->io;
	if (!x || !x->nhandles)
		return;
	otf2_check(o, OTF2_GlobalDefWriter_WriteIoParadigm(
			      gw, 0, otf2_str(o->defs, "MPI-IO"), otf2_str(o->defs, "MPI I/O"),
			      OTF2_IO_PARADIGM_CLASS_PARALLEL, OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL,
			      NULL, NULL));
	for (size_t i = 0; i < x->nfiles; i++) {
		OTF2_StringRef name = x->files[i] ? otf2_tstr(o->defs, x->files[i])
						  : otf2_str(o->defs, "(a file not seen opened)");
		otf2_check(o, OTF2_GlobalDefWriter_WriteIoRegularFile(gw, (OTF2_IoFileRef)i, name,
								      0));
	}
	for (size_t i = 0; i < x->nhandles; i++) {
		const struct io_handle *h = &x->handles[i];
		OTF2_StringRef name = h->name ? otf2_tstr(o->defs, h->name) : otf2_str(o->defs, "");
		otf2_check(o, OTF2_GlobalDefWriter_WriteIoHandle(
				      gw, (OTF2_IoHandleRef)i, name, h->file, 0,
				      OTF2_IO_HANDLE_FLAG_NONE, h->comm, OTF2_UNDEFINED_IO_HANDLE));
	}
}

void otf2_io_free(struct otf2 *o)
{
	struct otf2_io *x = o->io;
	if (!x)
		return;
	free(x->handles);
	free(x->files);
	u64map_free(&x->handle_of);
	u64map_free(&x->file_of);
	free(x);
	o->io = NULL;
}

OTF2_ErrorCode otf2_io_put(OTF2_EvtWriter *w, OTF2_TimeStamp ts, const struct mrec *m)
{
	switch (m->kind) {
	case MR_IO_CREATE:
		return OTF2_EvtWriter_IoCreateHandle(w, NULL, ts, m->peer,
						     OTF2_IO_ACCESS_MODE_READ_WRITE,
						     OTF2_IO_CREATION_FLAG_NONE,
						     OTF2_IO_STATUS_FLAG_NONE);
	case MR_IO_DESTROY:
		return OTF2_EvtWriter_IoDestroyHandle(w, NULL, ts, m->peer);
	case MR_IO_BEGIN:
		return OTF2_EvtWriter_IoOperationBegin(w, NULL, ts, m->peer, m->op, m->tag, m->bytes,
						       m->req);
	case MR_IO_ISSUED:
		return OTF2_EvtWriter_IoOperationIssued(w, NULL, ts, m->peer, m->req);
	case MR_IO_DONE:
		return OTF2_EvtWriter_IoOperationComplete(w, NULL, ts, m->peer, m->bytes,
							  m->req);
	}
	return OTF2_SUCCESS;
}
