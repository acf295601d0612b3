/* hook-mpi-io.c — MPI-IO (op IO): MPI_File_open, which names the file and keeps it in the
 * table of open files (mpi-file.h), MPI_File_close and MPI_File_delete; the reads and writes,
 * each with its file and its bytes (TPROF_MPIF_READ or _WRITE): a blocking one as done,
 * from the status it returns (the program's, or one of its own where the program ignores
 * it); a nonblocking one as asked for, its request completing in an MPIREQ that has them as
 * done; a split collective's as asked for at its _begin.  The other calls on a file are
 * generated from the list (QF: recorded with their file). */
#include <string.h>

#include "hook-mpi.h"

/* The start of every wrapper here: a CALL of op IO, with room for `follow` units more. */
#define MPI_IO_BEGIN_CALL(name, follow, args) MPI_WRAPPER_BEGIN(name, 2, TPROF_MPI_IO, follow, args)

TPROF_EXPORT int MPI_File_open(MComm comm, const char *filename, int amode, MInfo info,
			       MFile *fh)
{
	MPI_IO_BEGIN_CALL(MPI_File_open, 0, (comm, filename, amode, info, fh));
	c->a->comm = mpi_comm_id(comm);
	if (c->call.r && filename)
		c->b->file = tprof_intern(filename, strnlen(filename, 4096));
	tprof_call_enter(&c->call);
	int rc = real(comm, filename, amode, info, fh);
	if (rc == TMPI_SUCCESS && fh)
		c->a->seq = tprof_mpi_file_opened(*fh, c->a->comm, c->b->file);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_File_close(MFile *fh)
{
	MPI_IO_BEGIN_CALL(MPI_File_close, 0, (fh));
	MFile h = fh ? *fh : NULL;
	mpi_io_file(c, h);
	tprof_call_enter(&c->call);
	int rc = real(fh);
	if (rc == TMPI_SUCCESS)
		tprof_mpi_file_closed(h);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_File_delete(const char *filename, MInfo info)
{
	MPI_IO_BEGIN_CALL(MPI_File_delete, 0, (filename, info));
	if (c->call.r && filename)
		c->b->file = tprof_intern(filename, strnlen(filename, 4096));
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(filename, info));
}

/* A blocking read or write (rw: TPROF_MPIF_READ or _WRITE), at an explicit offset or not: the
 * bytes asked for in args2.bytes, those done in args.bytes. */
#define MPI_IO_BLOCKING(name, rw, bufq, ...)                                               \
	TPROF_EXPORT int name(MFile fh, MPI_IO_OFFSET_PARAM(__VA_ARGS__) bufq void *buf,    \
			      int count, MType type, MStatus *status)                      \
	{                                                                                  \
		MPI_IO_BEGIN_CALL(name, 0, (fh, __VA_ARGS__ buf, count, type, status));    \
		MStatus own;                                                               \
		MStatus *st = MPI_STATUS_OR(status, &own);                                 \
		mpi_io_file(c, fh);                                                        \
		c->a->flags = rw;                                                          \
		c->b->bytes = mpi_bytes(count, type);                                      \
		tprof_call_enter(&c->call);                                                \
		int rc = real(fh, __VA_ARGS__ buf, count, type, st);                       \
		if (rc == TMPI_SUCCESS)                                                    \
			c->a->bytes = MPI_STATUS_BYTES(st);                                \
		return tprof_call_leave(&c->call, rc);                                     \
	}
/* `offset,` for the _at calls, nothing for the others: the parameter it stands for. */
#define MPI_IO_OFFSET_PARAM(...) MPI_IO_OFFSET_P_(__VA_ARGS__ MPI_IO_NO_OFFSET)
#define MPI_IO_OFFSET_P_(...) MPI_IO_OFFSET_SEL(__VA_ARGS__)
#define MPI_IO_OFFSET_SEL(first, ...) MPI_IO_OFFSET_##first
#define MPI_IO_OFFSET_offset MOffset offset,
#define MPI_IO_OFFSET_MPI_IO_NO_OFFSET

MPI_IO_BLOCKING(MPI_File_read, TPROF_MPIF_READ, , )
MPI_IO_BLOCKING(MPI_File_read_all, TPROF_MPIF_READ, , )
MPI_IO_BLOCKING(MPI_File_read_at, TPROF_MPIF_READ, , offset, )
MPI_IO_BLOCKING(MPI_File_read_at_all, TPROF_MPIF_READ, , offset, )
MPI_IO_BLOCKING(MPI_File_read_shared, TPROF_MPIF_READ, , )
MPI_IO_BLOCKING(MPI_File_read_ordered, TPROF_MPIF_READ, , )
MPI_IO_BLOCKING(MPI_File_write, TPROF_MPIF_WRITE, const, )
MPI_IO_BLOCKING(MPI_File_write_all, TPROF_MPIF_WRITE, const, )
MPI_IO_BLOCKING(MPI_File_write_at, TPROF_MPIF_WRITE, const, offset, )
MPI_IO_BLOCKING(MPI_File_write_at_all, TPROF_MPIF_WRITE, const, offset, )
MPI_IO_BLOCKING(MPI_File_write_shared, TPROF_MPIF_WRITE, const, )
MPI_IO_BLOCKING(MPI_File_write_ordered, TPROF_MPIF_WRITE, const, )

/* A nonblocking read or write: the bytes asked for; its request completes in an MPIREQ. */
#define MPI_IO_NONBLOCKING(name, rw, bufq, ...)                                            \
	TPROF_EXPORT int name(MFile fh, MPI_IO_OFFSET_PARAM(__VA_ARGS__) bufq void *buf,    \
			      int count, MType type, MReq *req)                            \
	{                                                                                  \
		MPI_IO_BEGIN_CALL(name, MPI_REQ_UNITS(1),                                  \
				  (fh, __VA_ARGS__ buf, count, type, req));                \
		mpi_io_file(c, fh);                                                        \
		c->a->flags = rw | TPROF_MPIF_NONBLOCKING;                                 \
		tprof_call_enter(&c->call);                                                \
		int rc = real(fh, __VA_ARGS__ buf, count, type, req);                      \
		if (rc == TMPI_SUCCESS && req) {                                           \
			c->a->bytes = mpi_bytes(count, type);                              \
			c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);                    \
			mpi_track(c, *req, TPROF_MPI_IO, 0, NULL);                         \
		}                                                                          \
		return tprof_call_leave(&c->call, rc);                                     \
	}

MPI_IO_NONBLOCKING(MPI_File_iread, TPROF_MPIF_READ, , )
MPI_IO_NONBLOCKING(MPI_File_iread_all, TPROF_MPIF_READ, , )
MPI_IO_NONBLOCKING(MPI_File_iread_at, TPROF_MPIF_READ, , offset, )
MPI_IO_NONBLOCKING(MPI_File_iread_at_all, TPROF_MPIF_READ, , offset, )
MPI_IO_NONBLOCKING(MPI_File_iread_shared, TPROF_MPIF_READ, , )
MPI_IO_NONBLOCKING(MPI_File_iwrite, TPROF_MPIF_WRITE, const, )
MPI_IO_NONBLOCKING(MPI_File_iwrite_all, TPROF_MPIF_WRITE, const, )
MPI_IO_NONBLOCKING(MPI_File_iwrite_at, TPROF_MPIF_WRITE, const, offset, )
MPI_IO_NONBLOCKING(MPI_File_iwrite_at_all, TPROF_MPIF_WRITE, const, offset, )
MPI_IO_NONBLOCKING(MPI_File_iwrite_shared, TPROF_MPIF_WRITE, const, )

/* The first half of a split collective: the bytes asked for (its _end records the file). */
#define MPI_IO_SPLIT(name, rw, bufq, ...)                                                  \
	TPROF_EXPORT int name(MFile fh, MPI_IO_OFFSET_PARAM(__VA_ARGS__) bufq void *buf,    \
			      int count, MType type)                                       \
	{                                                                                  \
		MPI_IO_BEGIN_CALL(name, 0, (fh, __VA_ARGS__ buf, count, type));            \
		mpi_io_file(c, fh);                                                        \
		c->a->flags = rw;                                                          \
		tprof_call_enter(&c->call);                                                \
		int rc = real(fh, __VA_ARGS__ buf, count, type);                           \
		if (rc == TMPI_SUCCESS)                                                    \
			c->a->bytes = mpi_bytes(count, type);                              \
		return tprof_call_leave(&c->call, rc);                                     \
	}

MPI_IO_SPLIT(MPI_File_read_all_begin, TPROF_MPIF_READ, , )
MPI_IO_SPLIT(MPI_File_read_at_all_begin, TPROF_MPIF_READ, , offset, )
MPI_IO_SPLIT(MPI_File_read_ordered_begin, TPROF_MPIF_READ, , )
MPI_IO_SPLIT(MPI_File_write_all_begin, TPROF_MPIF_WRITE, const, )
MPI_IO_SPLIT(MPI_File_write_at_all_begin, TPROF_MPIF_WRITE, const, offset, )
MPI_IO_SPLIT(MPI_File_write_ordered_begin, TPROF_MPIF_WRITE, const, )

/* The rest: generated (QF), here for C; the Fortran entries record them around the real
 * binding (fortran/entries.c). */
#ifndef TPROF_MPI_FORTRAN_SIDE
MPI_IO_API(MPI_GENERATE)
#endif
