/* hook-mpi.h — the MPI functions tprof wraps, listed once as data, and what their wrappers
 * share: the CALL record of an MPI call (struct tprof_mpi_args, and struct tprof_mpi_args2 for
 * a second side or a request), ranks and tags as the records store them, byte counts.
 *
 * An entry is X(kind, C name, Fortran name, the same in upper case, a (KIND, name) pair per
 * parameter).  The pairs' kinds (mpi-kinds.h) give the C prototype (Open MPI 4.1's, with the
 * handle types of mpi-abi.h) and the Fortran binding (mpi-fortran.h).  Q entries get a
 * generated wrapper with no arguments worth recording, QC ones record the communicator they
 * are given first; H entries are written by hand, and so are P entries, the calls that poll
 * (their unsuccessful calls are folded into runs, poll.h): hook-mpi-init.c (init, finalize),
 * hook-mpi-p2p.c (blocking point-to-point, probes), hook-mpi-req.c (nonblocking and
 * persistent requests, the Wait and Test families), hook-mpi-coll.c (collectives) and
 * hook-mpi-comm.c (communicators). */
#ifndef TPROF_HOOK_MPI_H
#define TPROF_HOOK_MPI_H

#include <string.h>

#include "../events/api.h"
#include "../events/callstack.h"
#include "mpi-abi.h"
#include "mpi-comm.h"
#include "mpi-file.h"
#include "mpi-win.h"
#include "mpi-kinds.h"
#include "mpi-runtime.h"
#include "../events/poll.h"
#include "../core/resolve.h"

#define MPI_MAIN_API(X)                                                                        \
	/* init, finalize, queries */                                                          \
	X(H, MPI_Init, mpi_init, MPI_INIT, (ARGC, argc), (ARGV, argv))                         \
	X(H, MPI_Init_thread, mpi_init_thread, MPI_INIT_THREAD, (ARGC, argc), (ARGV, argv),    \
	  (INT, required), (IOUT, provided))                                                   \
	X(H, MPI_Finalize, mpi_finalize, MPI_FINALIZE, (VOID, _))                              \
	X(Q, MPI_Initialized, mpi_initialized, MPI_INITIALIZED, (FLAG, flag))                  \
	X(Q, MPI_Finalized, mpi_finalized, MPI_FINALIZED, (FLAG, flag))                        \
	X(Q, MPI_Query_thread, mpi_query_thread, MPI_QUERY_THREAD, (IOUT, provided))           \
	X(Q, MPI_Get_processor_name, mpi_get_processor_name, MPI_GET_PROCESSOR_NAME,           \
	  (STR_OUT, name), (IOUT, len))                                                        \
	X(Q, MPI_Get_version, mpi_get_version, MPI_GET_VERSION, (IOUT, version),               \
	  (IOUT, subversion))                                                                  \
	X(QC, MPI_Abort, mpi_abort, MPI_ABORT, (COMM, comm), (INT, code))                      \
	X(QC, MPI_Comm_rank, mpi_comm_rank, MPI_COMM_RANK, (COMM, comm), (IOUT, rank))         \
	X(QC, MPI_Comm_size, mpi_comm_size, MPI_COMM_SIZE, (COMM, comm), (IOUT, size))         \
	X(QC, MPI_Comm_remote_size, mpi_comm_remote_size, MPI_COMM_REMOTE_SIZE, (COMM, comm),  \
	  (IOUT, size))                                                                        \
	/* blocking point-to-point */                                                          \
	X(H, MPI_Send, mpi_send, MPI_SEND, (CBUF, buf), (INT, count), (TYPE, type),            \
	  (INT, dest), (INT, tag), (COMM, comm))                                               \
	X(H, MPI_Ssend, mpi_ssend, MPI_SSEND, (CBUF, buf), (INT, count), (TYPE, type),         \
	  (INT, dest), (INT, tag), (COMM, comm))                                               \
	X(H, MPI_Bsend, mpi_bsend, MPI_BSEND, (CBUF, buf), (INT, count), (TYPE, type),         \
	  (INT, dest), (INT, tag), (COMM, comm))                                               \
	X(H, MPI_Rsend, mpi_rsend, MPI_RSEND, (CBUF, buf), (INT, count), (TYPE, type),         \
	  (INT, dest), (INT, tag), (COMM, comm))                                               \
	X(H, MPI_Recv, mpi_recv, MPI_RECV, (BUF, buf), (INT, count), (TYPE, type),             \
	  (INT, source), (INT, tag), (COMM, comm), (STATUS, status))                           \
	X(H, MPI_Sendrecv, mpi_sendrecv, MPI_SENDRECV, (CBUF, sbuf), (INT, scount),            \
	  (TYPE, stype), (INT, dest), (INT, stag), (BUF, rbuf), (INT, rcount), (TYPE, rtype),  \
	  (INT, source), (INT, rtag), (COMM, comm), (STATUS, status))                          \
	X(H, MPI_Sendrecv_replace, mpi_sendrecv_replace, MPI_SENDRECV_REPLACE, (BUF, buf),     \
	  (INT, count), (TYPE, type), (INT, dest), (INT, stag), (INT, source), (INT, rtag),    \
	  (COMM, comm), (STATUS, status))                                                      \
	X(H, MPI_Probe, mpi_probe, MPI_PROBE, (INT, source), (INT, tag), (COMM, comm),         \
	  (STATUS, status))                                                                    \
	X(P, MPI_Iprobe, mpi_iprobe, MPI_IPROBE, (INT, source), (INT, tag), (COMM, comm),      \
	  (FLAG, flag), (STATUS, status))                                                      \
	X(H, MPI_Mprobe, mpi_mprobe, MPI_MPROBE, (INT, source), (INT, tag), (COMM, comm),      \
	  (MSG_OUT, msg), (STATUS, status))                                                    \
	X(P, MPI_Improbe, mpi_improbe, MPI_IMPROBE, (INT, source), (INT, tag), (COMM, comm),   \
	  (FLAG, flag), (MSG_OUT, msg), (STATUS, status))                                      \
	X(H, MPI_Mrecv, mpi_mrecv, MPI_MRECV, (BUF, buf), (INT, count), (TYPE, type),          \
	  (MSG_INOUT, msg), (STATUS, status))                                                  \
	/* nonblocking and persistent point-to-point */                                        \
	X(H, MPI_Isend, mpi_isend, MPI_ISEND, (CBUF, buf), (INT, count), (TYPE, type),         \
	  (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                               \
	X(H, MPI_Issend, mpi_issend, MPI_ISSEND, (CBUF, buf), (INT, count), (TYPE, type),      \
	  (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                               \
	X(H, MPI_Ibsend, mpi_ibsend, MPI_IBSEND, (CBUF, buf), (INT, count), (TYPE, type),      \
	  (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                               \
	X(H, MPI_Irsend, mpi_irsend, MPI_IRSEND, (CBUF, buf), (INT, count), (TYPE, type),      \
	  (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                               \
	X(H, MPI_Irecv, mpi_irecv, MPI_IRECV, (BUF, buf), (INT, count), (TYPE, type),          \
	  (INT, source), (INT, tag), (COMM, comm), (REQ_OUT, req))                             \
	X(H, MPI_Imrecv, mpi_imrecv, MPI_IMRECV, (BUF, buf), (INT, count), (TYPE, type),       \
	  (MSG_INOUT, msg), (REQ_OUT, req))                                                    \
	X(H, MPI_Send_init, mpi_send_init, MPI_SEND_INIT, (CBUF, buf), (INT, count),           \
	  (TYPE, type), (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                 \
	X(H, MPI_Ssend_init, mpi_ssend_init, MPI_SSEND_INIT, (CBUF, buf), (INT, count),        \
	  (TYPE, type), (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                 \
	X(H, MPI_Bsend_init, mpi_bsend_init, MPI_BSEND_INIT, (CBUF, buf), (INT, count),        \
	  (TYPE, type), (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                 \
	X(H, MPI_Rsend_init, mpi_rsend_init, MPI_RSEND_INIT, (CBUF, buf), (INT, count),        \
	  (TYPE, type), (INT, dest), (INT, tag), (COMM, comm), (REQ_OUT, req))                 \
	X(H, MPI_Recv_init, mpi_recv_init, MPI_RECV_INIT, (BUF, buf), (INT, count),            \
	  (TYPE, type), (INT, source), (INT, tag), (COMM, comm), (REQ_OUT, req))               \
	X(H, MPI_Psend_init, mpi_psend_init, MPI_PSEND_INIT, (CBUF, buf), (INT, partitions),   \
	  (COUNT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm), (INFO, info),   \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Precv_init, mpi_precv_init, MPI_PRECV_INIT, (BUF, buf), (INT, partitions),    \
	  (COUNT, count), (TYPE, type), (INT, source), (INT, tag), (COMM, comm), (INFO, info), \
	  (REQ_OUT, req))                                                                      \
	X(Q, MPI_Pready, mpi_pready, MPI_PREADY, (INT, partition), (REQ, req))                 \
	X(Q, MPI_Pready_range, mpi_pready_range, MPI_PREADY_RANGE, (INT, partition_low),       \
	  (INT, partition_high), (REQ, req))                                                   \
	X(Q, MPI_Pready_list, mpi_pready_list, MPI_PREADY_LIST, (INT, length),                 \
	  (INTS_OUT, partitions), (REQ, req))                                                  \
	X(Q, MPI_Parrived, mpi_parrived, MPI_PARRIVED, (REQ, req), (INT, partition),           \
	  (IOUT, flag))                                                                        \
	X(H, MPI_Start, mpi_start, MPI_START, (REQ_INOUT, req))                                \
	X(H, MPI_Startall, mpi_startall, MPI_STARTALL, (INT, count), (REQS, reqs))             \
	X(H, MPI_Request_free, mpi_request_free, MPI_REQUEST_FREE, (REQ_INOUT, req))           \
	X(H, MPI_Cancel, mpi_cancel, MPI_CANCEL, (REQ_INOUT, req))                             \
	/* completion */                                                                       \
	X(H, MPI_Wait, mpi_wait, MPI_WAIT, (REQ_INOUT, req), (STATUS, status))                 \
	X(H, MPI_Waitall, mpi_waitall, MPI_WAITALL, (INT, count), (REQS, reqs),                \
	  (STATUSES, statuses))                                                                \
	X(H, MPI_Waitany, mpi_waitany, MPI_WAITANY, (INT, count), (REQS, reqs),                \
	  (INDEX, index), (STATUS, status))                                                    \
	X(H, MPI_Waitsome, mpi_waitsome, MPI_WAITSOME, (INT, count), (REQS, reqs),             \
	  (IOUT, outcount), (INDICES, indices), (STATUSES, statuses))                          \
	X(P, MPI_Test, mpi_test, MPI_TEST, (REQ_INOUT, req), (FLAG, flag), (STATUS, status))   \
	X(P, MPI_Testall, mpi_testall, MPI_TESTALL, (INT, count), (REQS, reqs), (FLAG, flag),  \
	  (STATUSES, statuses))                                                                \
	X(P, MPI_Testany, mpi_testany, MPI_TESTANY, (INT, count), (REQS, reqs),                \
	  (INDEX, index), (FLAG, flag), (STATUS, status))                                      \
	X(P, MPI_Testsome, mpi_testsome, MPI_TESTSOME, (INT, count), (REQS, reqs),             \
	  (IOUT, outcount), (INDICES, indices), (STATUSES, statuses))                          \
	/* collectives */                                                                      \
	MPI_COLL_API(X)                                                                        \
	/* communicators */                                                                    \
	X(H, MPI_Comm_split, mpi_comm_split, MPI_COMM_SPLIT, (COMM, comm), (INT, color),       \
	  (INT, key), (COMM_OUT, out))                                                         \
	X(H, MPI_Comm_split_type, mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, (COMM, comm),      \
	  (INT, type), (INT, key), (INFO, info), (COMM_OUT, out))                              \
	X(H, MPI_Comm_dup, mpi_comm_dup, MPI_COMM_DUP, (COMM, comm), (COMM_OUT, out))          \
	X(H, MPI_Comm_dup_with_info, mpi_comm_dup_with_info, MPI_COMM_DUP_WITH_INFO,           \
	  (COMM, comm), (INFO, info), (COMM_OUT, out))                                         \
	X(H, MPI_Comm_idup, mpi_comm_idup, MPI_COMM_IDUP, (COMM, comm), (COMM_OUT, out),       \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Comm_create, mpi_comm_create, MPI_COMM_CREATE, (COMM, comm), (GROUP, group),  \
	  (COMM_OUT, out))                                                                     \
	X(H, MPI_Comm_create_group, mpi_comm_create_group, MPI_COMM_CREATE_GROUP,              \
	  (COMM, comm), (GROUP, group), (INT, tag), (COMM_OUT, out))                           \
	X(H, MPI_Intercomm_create, mpi_intercomm_create, MPI_INTERCOMM_CREATE, (COMM, comm),   \
	  (INT, local_leader), (COMM, bridge), (INT, remote_leader), (INT, tag),               \
	  (COMM_OUT, out))                                                                     \
	X(H, MPI_Intercomm_merge, mpi_intercomm_merge, MPI_INTERCOMM_MERGE, (COMM, comm),      \
	  (INT, high), (COMM_OUT, out))                                                        \
	X(H, MPI_Cart_create, mpi_cart_create, MPI_CART_CREATE, (COMM, comm), (INT, ndims),    \
	  (INTS, dims), (INTS, periods), (INT, reorder), (COMM_OUT, out))                      \
	X(H, MPI_Cart_sub, mpi_cart_sub, MPI_CART_SUB, (COMM, comm), (INTS, remain),           \
	  (COMM_OUT, out))                                                                     \
	X(H, MPI_Graph_create, mpi_graph_create, MPI_GRAPH_CREATE, (COMM, comm),               \
	  (INT, nnodes), (INTS, index), (INTS, edges), (INT, reorder), (COMM_OUT, out))        \
	X(H, MPI_Dist_graph_create, mpi_dist_graph_create, MPI_DIST_GRAPH_CREATE,              \
	  (COMM, comm), (INT, n), (INTS, nodes), (INTS, degrees), (INTS, targets),             \
	  (INTS, weights), (INFO, info), (INT, reorder), (COMM_OUT, out))                      \
	X(H, MPI_Dist_graph_create_adjacent, mpi_dist_graph_create_adjacent,                     \
	  MPI_DIST_GRAPH_CREATE_ADJACENT,                                                      \
	  (COMM, comm), (INT, indeg), (INTS, sources), (INTS, sweights), (INT, outdeg),        \
	  (INTS, dests), (INTS, dweights), (INFO, info), (INT, reorder), (COMM_OUT, out))      \
	X(H, MPI_Comm_free, mpi_comm_free, MPI_COMM_FREE, (COMM_INOUT, comm))                  \
	X(H, MPI_Comm_set_name, mpi_comm_set_name, MPI_COMM_SET_NAME, (COMM, comm),            \
	  (STR, name))

/* Every call: the calls above, MPI-IO (MPI_IO_API, below), one-sided communication
 * (MPI_RMA_API), then the rest (datatypes, groups, topologies, attributes, info, errors, names,
 * ports), each generated in a file of its own (hook-mpi-query.c, hook-mpi-io.c,
 * hook-mpi-rma.c, hook-mpi-other.c), so that the compiler inlines the
 * recording into each wrapper as it does in the hand-written ones. */
#define MPI_API(X) MPI_MAIN_API(X) MPI_IO_API(X) MPI_RMA_API(X) MPI_OTHER_API(X)

/* Calls recorded by name (Q), or with the communicator they are given first (QC): generated
 * from Open MPI 4.1's mpi.h. */
#define MPI_OTHER_API(X)                                                                       \
	X(Q, MPI_Add_error_class, mpi_add_error_class, MPI_ADD_ERROR_CLASS,                    \
	  (IOUT, errorclass))                                                                  \
	X(Q, MPI_Add_error_code, mpi_add_error_code, MPI_ADD_ERROR_CODE, (INT, errorclass),    \
	  (IOUT, errorcode))                                                                   \
	X(Q, MPI_Add_error_string, mpi_add_error_string, MPI_ADD_ERROR_STRING,                 \
	  (INT, errorcode), (STR, string))                                                     \
	X(Q, MPI_Alloc_mem, mpi_alloc_mem, MPI_ALLOC_MEM, (AINT, size), (INFO, info),          \
	  (BUF, baseptr))                                                                      \
	X(QC, MPI_Attr_delete, mpi_attr_delete, MPI_ATTR_DELETE, (COMM, comm), (INT, keyval))  \
	X(QC, MPI_Attr_get, mpi_attr_get, MPI_ATTR_GET, (COMM, comm), (INT, keyval),           \
	  (BUF, attribute_val), (IOUT, flag))                                                  \
	X(QC, MPI_Attr_put, mpi_attr_put, MPI_ATTR_PUT, (COMM, comm), (INT, keyval),           \
	  (BUF, attribute_val))                                                                \
	X(Q, MPI_Buffer_attach, mpi_buffer_attach, MPI_BUFFER_ATTACH, (BUF, buffer),           \
	  (INT, size))                                                                         \
	X(Q, MPI_Buffer_detach, mpi_buffer_detach, MPI_BUFFER_DETACH, (BUF, buffer),           \
	  (IOUT, size))                                                                        \
	X(QC, MPI_Cart_coords, mpi_cart_coords, MPI_CART_COORDS, (COMM, comm), (INT, rank),    \
	  (INT, maxdims), (INTS_OUT, coords))                                                  \
	X(QC, MPI_Cart_get, mpi_cart_get, MPI_CART_GET, (COMM, comm), (INT, maxdims),          \
	  (INTS_OUT, dims), (INTS_OUT, periods), (INTS_OUT, coords))                           \
	X(QC, MPI_Cart_map, mpi_cart_map, MPI_CART_MAP, (COMM, comm), (INT, ndims),            \
	  (INTS, dims), (INTS, periods), (IOUT, newrank))                                      \
	X(QC, MPI_Cart_rank, mpi_cart_rank, MPI_CART_RANK, (COMM, comm), (INTS, coords),       \
	  (IOUT, rank))                                                                        \
	X(QC, MPI_Cart_shift, mpi_cart_shift, MPI_CART_SHIFT, (COMM, comm), (INT, direction),  \
	  (INT, disp), (IOUT, rank_source), (IOUT, rank_dest))                                 \
	X(QC, MPI_Cartdim_get, mpi_cartdim_get, MPI_CARTDIM_GET, (COMM, comm), (IOUT, ndims))  \
	X(Q, MPI_Close_port, mpi_close_port, MPI_CLOSE_PORT, (STR, port_name))                 \
	X(Q, MPI_Comm_accept, mpi_comm_accept, MPI_COMM_ACCEPT, (STR, port_name),              \
	  (INFO, info), (INT, root), (COMM, comm), (COMM_OUT, newcomm))                        \
	X(QC, MPI_Comm_call_errhandler, mpi_comm_call_errhandler, MPI_COMM_CALL_ERRHANDLER,    \
	  (COMM, comm), (INT, errorcode))                                                      \
	X(QC, MPI_Comm_compare, mpi_comm_compare, MPI_COMM_COMPARE, (COMM, comm),              \
	  (COMM, comm2), (IOUT, result))                                                       \
	X(Q, MPI_Comm_connect, mpi_comm_connect, MPI_COMM_CONNECT, (STR, port_name),           \
	  (INFO, info), (INT, root), (COMM, comm), (COMM_OUT, newcomm))                        \
	X(Q, MPI_Comm_create_errhandler, mpi_comm_create_errhandler,                           \
	  MPI_COMM_CREATE_ERRHANDLER, (FUNC, function), (ERRH_OUT, errhandler))                \
	X(Q, MPI_Comm_create_keyval, mpi_comm_create_keyval, MPI_COMM_CREATE_KEYVAL,           \
	  (FUNC, comm_copy_attr_fn), (FUNC, comm_delete_attr_fn), (IOUT, comm_keyval),         \
	  (BUF, extra_state))                                                                  \
	X(QC, MPI_Comm_delete_attr, mpi_comm_delete_attr, MPI_COMM_DELETE_ATTR, (COMM, comm),  \
	  (INT, comm_keyval))                                                                  \
	X(Q, MPI_Comm_disconnect, mpi_comm_disconnect, MPI_COMM_DISCONNECT,                    \
	  (COMM_INOUT, comm))                                                                  \
	X(Q, MPI_Comm_free_keyval, mpi_comm_free_keyval, MPI_COMM_FREE_KEYVAL,                 \
	  (IOUT, comm_keyval))                                                                 \
	X(QC, MPI_Comm_get_attr, mpi_comm_get_attr, MPI_COMM_GET_ATTR, (COMM, comm),           \
	  (INT, comm_keyval), (BUF, attribute_val), (IOUT, flag))                              \
	X(QC, MPI_Comm_get_errhandler, mpi_comm_get_errhandler, MPI_COMM_GET_ERRHANDLER,       \
	  (COMM, comm), (ERRH_OUT, erhandler))                                                 \
	X(QC, MPI_Comm_get_info, mpi_comm_get_info, MPI_COMM_GET_INFO, (COMM, comm),           \
	  (INFO_OUT, info_used))                                                               \
	X(QC, MPI_Comm_get_name, mpi_comm_get_name, MPI_COMM_GET_NAME, (COMM, comm),           \
	  (STR_OUT, comm_name), (IOUT, resultlen))                                             \
	X(Q, MPI_Comm_get_parent, mpi_comm_get_parent, MPI_COMM_GET_PARENT,                    \
	  (COMM_OUT, parent))                                                                  \
	X(QC, MPI_Comm_group, mpi_comm_group, MPI_COMM_GROUP, (COMM, comm),                    \
	  (GROUP_OUT, group))                                                                  \
	X(Q, MPI_Comm_join, mpi_comm_join, MPI_COMM_JOIN, (INT, fd), (COMM_OUT, intercomm))    \
	X(QC, MPI_Comm_spawn, mpi_comm_spawn, MPI_COMM_SPAWN, (STR, command), (STRS, argv),     \
	  (INT, maxprocs), (INFO, info), (INT, root), (COMM, comm), (COMM_OUT, intercomm),     \
	  (INTS_OUT, errcodes))                                                                \
	X(QC, MPI_Comm_spawn_multiple, mpi_comm_spawn_multiple, MPI_COMM_SPAWN_MULTIPLE,       \
	  (INT, count), (STRS, commands), (STRSS, argvs), (INTS, maxprocs), (INFOS, infos),    \
	  (INT, root), (COMM, comm), (COMM_OUT, intercomm), (INTS_OUT, errcodes))              \
	X(QC, MPI_Comm_remote_group, mpi_comm_remote_group, MPI_COMM_REMOTE_GROUP,             \
	  (COMM, comm), (GROUP_OUT, group))                                                    \
	X(QC, MPI_Comm_set_attr, mpi_comm_set_attr, MPI_COMM_SET_ATTR, (COMM, comm),           \
	  (INT, comm_keyval), (BUF, attribute_val))                                            \
	X(QC, MPI_Comm_set_errhandler, mpi_comm_set_errhandler, MPI_COMM_SET_ERRHANDLER,       \
	  (COMM, comm), (ERRH, errhandler))                                                    \
	X(QC, MPI_Comm_set_info, mpi_comm_set_info, MPI_COMM_SET_INFO, (COMM, comm),           \
	  (INFO, info))                                                                        \
	X(QC, MPI_Comm_test_inter, mpi_comm_test_inter, MPI_COMM_TEST_INTER, (COMM, comm),     \
	  (IOUT, flag))                                                                        \
	X(Q, MPI_Dims_create, mpi_dims_create, MPI_DIMS_CREATE, (INT, nnodes), (INT, ndims),   \
	  (INTS_OUT, dims))                                                                    \
	X(QC, MPI_Dist_graph_neighbors, mpi_dist_graph_neighbors, MPI_DIST_GRAPH_NEIGHBORS,    \
	  (COMM, comm), (INT, maxindegree), (INTS_OUT, sources), (INTS_OUT, sourceweights),    \
	  (INT, maxoutdegree), (INTS_OUT, destinations), (INTS_OUT, destweights))              \
	X(QC, MPI_Dist_graph_neighbors_count, mpi_dist_graph_neighbors_count,                  \
	  MPI_DIST_GRAPH_NEIGHBORS_COUNT, (COMM, comm), (IOUT, inneighbors),                   \
	  (IOUT, outneighbors), (IOUT, weighted))                                              \
	X(Q, MPI_Errhandler_free, mpi_errhandler_free, MPI_ERRHANDLER_FREE,                    \
	  (ERRH_INOUT, errhandler))                                                            \
	X(Q, MPI_Error_class, mpi_error_class, MPI_ERROR_CLASS, (INT, errorcode),              \
	  (IOUT, errorclass))                                                                  \
	X(Q, MPI_Error_string, mpi_error_string, MPI_ERROR_STRING, (INT, errorcode),           \
	  (STR_OUT, string), (IOUT, resultlen))                                                \
	X(Q, MPI_Free_mem, mpi_free_mem, MPI_FREE_MEM, (BUF, base))                            \
	X(Q, MPI_Get_address, mpi_get_address, MPI_GET_ADDRESS, (CBUF, location),              \
	  (AINT_OUT, address))                                                                 \
	X(Q, MPI_Get_count, mpi_get_count, MPI_GET_COUNT, (STATUS_IN, status),                 \
	  (TYPE, datatype), (IOUT, count))                                                     \
	X(Q, MPI_Get_elements, mpi_get_elements, MPI_GET_ELEMENTS, (STATUS_IN, status),        \
	  (TYPE, datatype), (IOUT, count))                                                     \
	X(Q, MPI_Get_elements_x, mpi_get_elements_x, MPI_GET_ELEMENTS_X, (STATUS_IN, status),  \
	  (TYPE, datatype), (COUNT_OUT, count))                                                \
	X(Q, MPI_Get_library_version, mpi_get_library_version, MPI_GET_LIBRARY_VERSION,        \
	  (STR_OUT, version), (IOUT, resultlen))                                               \
	X(QC, MPI_Graph_get, mpi_graph_get, MPI_GRAPH_GET, (COMM, comm), (INT, maxindex),      \
	  (INT, maxedges), (INTS_OUT, index), (INTS_OUT, edges))                               \
	X(QC, MPI_Graph_map, mpi_graph_map, MPI_GRAPH_MAP, (COMM, comm), (INT, nnodes),        \
	  (INTS, index), (INTS, edges), (IOUT, newrank))                                       \
	X(QC, MPI_Graph_neighbors, mpi_graph_neighbors, MPI_GRAPH_NEIGHBORS, (COMM, comm),     \
	  (INT, rank), (INT, maxneighbors), (INTS_OUT, neighbors))                             \
	X(QC, MPI_Graph_neighbors_count, mpi_graph_neighbors_count,                            \
	  MPI_GRAPH_NEIGHBORS_COUNT, (COMM, comm), (INT, rank), (IOUT, nneighbors))            \
	X(QC, MPI_Graphdims_get, mpi_graphdims_get, MPI_GRAPHDIMS_GET, (COMM, comm),           \
	  (IOUT, nnodes), (IOUT, nedges))                                                      \
	X(Q, MPI_Grequest_complete, mpi_grequest_complete, MPI_GREQUEST_COMPLETE,              \
	  (REQ, request))                                                                      \
	X(Q, MPI_Grequest_start, mpi_grequest_start, MPI_GREQUEST_START, (FUNC, query_fn),     \
	  (FUNC, free_fn), (FUNC, cancel_fn), (BUF, extra_state), (REQ_OUT, request))          \
	X(Q, MPI_Group_compare, mpi_group_compare, MPI_GROUP_COMPARE, (GROUP, group1),         \
	  (GROUP, group2), (IOUT, result))                                                     \
	X(Q, MPI_Group_difference, mpi_group_difference, MPI_GROUP_DIFFERENCE,                 \
	  (GROUP, group1), (GROUP, group2), (GROUP_OUT, newgroup))                             \
	X(Q, MPI_Group_excl, mpi_group_excl, MPI_GROUP_EXCL, (GROUP, group), (INT, n),         \
	  (INTS, ranks), (GROUP_OUT, newgroup))                                                \
	X(Q, MPI_Group_free, mpi_group_free, MPI_GROUP_FREE, (GROUP_INOUT, group))             \
	X(Q, MPI_Group_incl, mpi_group_incl, MPI_GROUP_INCL, (GROUP, group), (INT, n),         \
	  (INTS, ranks), (GROUP_OUT, newgroup))                                                \
	X(Q, MPI_Group_intersection, mpi_group_intersection, MPI_GROUP_INTERSECTION,           \
	  (GROUP, group1), (GROUP, group2), (GROUP_OUT, newgroup))                             \
	X(Q, MPI_Group_range_excl, mpi_group_range_excl, MPI_GROUP_RANGE_EXCL,                 \
	  (GROUP, group), (INT, n), (RANGES, ranges), (GROUP_OUT, newgroup))                   \
	X(Q, MPI_Group_range_incl, mpi_group_range_incl, MPI_GROUP_RANGE_INCL,                 \
	  (GROUP, group), (INT, n), (RANGES, ranges), (GROUP_OUT, newgroup))                   \
	X(Q, MPI_Group_rank, mpi_group_rank, MPI_GROUP_RANK, (GROUP, group), (IOUT, rank))     \
	X(Q, MPI_Group_size, mpi_group_size, MPI_GROUP_SIZE, (GROUP, group), (IOUT, size))     \
	X(Q, MPI_Group_translate_ranks, mpi_group_translate_ranks, MPI_GROUP_TRANSLATE_RANKS,  \
	  (GROUP, group1), (INT, n), (INTS, ranks1), (GROUP, group2), (INTS_OUT, ranks2))      \
	X(Q, MPI_Group_union, mpi_group_union, MPI_GROUP_UNION, (GROUP, group1),               \
	  (GROUP, group2), (GROUP_OUT, newgroup))                                              \
	X(Q, MPI_Info_create, mpi_info_create, MPI_INFO_CREATE, (INFO_OUT, info))              \
	X(Q, MPI_Info_delete, mpi_info_delete, MPI_INFO_DELETE, (INFO, info), (STR, key))      \
	X(Q, MPI_Info_dup, mpi_info_dup, MPI_INFO_DUP, (INFO, info), (INFO_OUT, newinfo))      \
	X(Q, MPI_Info_free, mpi_info_free, MPI_INFO_FREE, (INFO_INOUT, info))                  \
	X(Q, MPI_Info_get, mpi_info_get, MPI_INFO_GET, (INFO, info), (STR, key),               \
	  (INT, valuelen), (STR_OUT, value), (IOUT, flag))                                     \
	X(Q, MPI_Info_get_nkeys, mpi_info_get_nkeys, MPI_INFO_GET_NKEYS, (INFO, info),         \
	  (IOUT, nkeys))                                                                       \
	X(Q, MPI_Info_get_nthkey, mpi_info_get_nthkey, MPI_INFO_GET_NTHKEY, (INFO, info),      \
	  (INT, n), (STR_OUT, key))                                                            \
	X(Q, MPI_Info_get_valuelen, mpi_info_get_valuelen, MPI_INFO_GET_VALUELEN,              \
	  (INFO, info), (STR, key), (IOUT, valuelen), (IOUT, flag))                            \
	X(Q, MPI_Info_set, mpi_info_set, MPI_INFO_SET, (INFO, info), (STR, key),               \
	  (STR, value))                                                                        \
	X(Q, MPI_Is_thread_main, mpi_is_thread_main, MPI_IS_THREAD_MAIN, (IOUT, flag))         \
	X(Q, MPI_Keyval_create, mpi_keyval_create, MPI_KEYVAL_CREATE, (FUNC, copy_fn),         \
	  (FUNC, delete_fn), (IOUT, keyval), (BUF, extra_state))                               \
	X(Q, MPI_Keyval_free, mpi_keyval_free, MPI_KEYVAL_FREE, (IOUT, keyval))                \
	X(Q, MPI_Lookup_name, mpi_lookup_name, MPI_LOOKUP_NAME, (STR, service_name),           \
	  (INFO, info), (STR_OUT, port_name))                                                  \
	X(Q, MPI_Op_commutative, mpi_op_commutative, MPI_OP_COMMUTATIVE, (OP, op),             \
	  (IOUT, commute))                                                                     \
	X(Q, MPI_Op_create, mpi_op_create, MPI_OP_CREATE, (FUNC, function), (INT, commute),    \
	  (OP_OUT, op))                                                                        \
	X(Q, MPI_Op_free, mpi_op_free, MPI_OP_FREE, (OP_INOUT, op))                            \
	X(Q, MPI_Open_port, mpi_open_port, MPI_OPEN_PORT, (INFO, info), (STR_OUT, port_name))  \
	X(Q, MPI_Pack, mpi_pack, MPI_PACK, (CBUF, inbuf), (INT, incount), (TYPE, datatype),    \
	  (BUF, outbuf), (INT, outsize), (IOUT, position), (COMM, comm))                       \
	X(Q, MPI_Pack_external, mpi_pack_external, MPI_PACK_EXTERNAL, (STR, datarep),          \
	  (CBUF, inbuf), (INT, incount), (TYPE, datatype), (BUF, outbuf), (AINT, outsize),     \
	  (AINT_OUT, position))                                                                \
	X(Q, MPI_Pack_external_size, mpi_pack_external_size, MPI_PACK_EXTERNAL_SIZE,           \
	  (STR, datarep), (INT, incount), (TYPE, datatype), (AINT_OUT, size))                  \
	X(Q, MPI_Pack_size, mpi_pack_size, MPI_PACK_SIZE, (INT, incount), (TYPE, datatype),    \
	  (COMM, comm), (IOUT, size))                                                          \
	X(Q, MPI_Publish_name, mpi_publish_name, MPI_PUBLISH_NAME, (STR, service_name),        \
	  (INFO, info), (STR, port_name))                                                      \
	X(Q, MPI_Reduce_local, mpi_reduce_local, MPI_REDUCE_LOCAL, (CBUF, inbuf),              \
	  (BUF, inoutbuf), (INT, count), (TYPE, datatype), (OP, op))                           \
	X(Q, MPI_Request_get_status, mpi_request_get_status, MPI_REQUEST_GET_STATUS,           \
	  (REQ, request), (IOUT, flag), (STATUS, status))                                      \
	X(Q, MPI_Status_set_cancelled, mpi_status_set_cancelled, MPI_STATUS_SET_CANCELLED,     \
	  (STATUS_INOUT, status), (INT, flag))                                                 \
	X(Q, MPI_Status_set_elements, mpi_status_set_elements, MPI_STATUS_SET_ELEMENTS,        \
	  (STATUS_INOUT, status), (TYPE, datatype), (INT, count))                              \
	X(Q, MPI_Status_set_elements_x, mpi_status_set_elements_x, MPI_STATUS_SET_ELEMENTS_X,  \
	  (STATUS_INOUT, status), (TYPE, datatype), (COUNT, count))                            \
	X(Q, MPI_Test_cancelled, mpi_test_cancelled, MPI_TEST_CANCELLED, (STATUS_IN, status),  \
	  (IOUT, flag))                                                                        \
	X(QC, MPI_Topo_test, mpi_topo_test, MPI_TOPO_TEST, (COMM, comm), (IOUT, status))       \
	X(Q, MPI_Type_commit, mpi_type_commit, MPI_TYPE_COMMIT, (TYPE_INOUT, type))            \
	X(Q, MPI_Type_contiguous, mpi_type_contiguous, MPI_TYPE_CONTIGUOUS, (INT, count),      \
	  (TYPE, oldtype), (TYPE_OUT, newtype))                                                \
	X(Q, MPI_Type_create_darray, mpi_type_create_darray, MPI_TYPE_CREATE_DARRAY,           \
	  (INT, size), (INT, rank), (INT, ndims), (INTS, gsize_array), (INTS, distrib_array),  \
	  (INTS, darg_array), (INTS, psize_array), (INT, order), (TYPE, oldtype),              \
	  (TYPE_OUT, newtype))                                                                 \
	X(Q, MPI_Type_create_f90_complex, mpi_type_create_f90_complex,                         \
	  MPI_TYPE_CREATE_F90_COMPLEX, (INT, p), (INT, r), (TYPE_OUT, newtype))                \
	X(Q, MPI_Type_create_f90_integer, mpi_type_create_f90_integer,                         \
	  MPI_TYPE_CREATE_F90_INTEGER, (INT, r), (TYPE_OUT, newtype))                          \
	X(Q, MPI_Type_create_f90_real, mpi_type_create_f90_real, MPI_TYPE_CREATE_F90_REAL,     \
	  (INT, p), (INT, r), (TYPE_OUT, newtype))                                             \
	X(Q, MPI_Type_create_hindexed, mpi_type_create_hindexed, MPI_TYPE_CREATE_HINDEXED,     \
	  (INT, count), (INTS, array_of_blocklengths), (AINTS, array_of_displacements),        \
	  (TYPE, oldtype), (TYPE_OUT, newtype))                                                \
	X(Q, MPI_Type_create_hindexed_block, mpi_type_create_hindexed_block,                   \
	  MPI_TYPE_CREATE_HINDEXED_BLOCK, (INT, count), (INT, blocklength),                    \
	  (AINTS, array_of_displacements), (TYPE, oldtype), (TYPE_OUT, newtype))               \
	X(Q, MPI_Type_create_hvector, mpi_type_create_hvector, MPI_TYPE_CREATE_HVECTOR,        \
	  (INT, count), (INT, blocklength), (AINT, stride), (TYPE, oldtype),                   \
	  (TYPE_OUT, newtype))                                                                 \
	X(Q, MPI_Type_create_indexed_block, mpi_type_create_indexed_block,                     \
	  MPI_TYPE_CREATE_INDEXED_BLOCK, (INT, count), (INT, blocklength),                     \
	  (INTS, array_of_displacements), (TYPE, oldtype), (TYPE_OUT, newtype))                \
	X(Q, MPI_Type_create_keyval, mpi_type_create_keyval, MPI_TYPE_CREATE_KEYVAL,           \
	  (FUNC, type_copy_attr_fn), (FUNC, type_delete_attr_fn), (IOUT, type_keyval),         \
	  (BUF, extra_state))                                                                  \
	X(Q, MPI_Type_create_resized, mpi_type_create_resized, MPI_TYPE_CREATE_RESIZED,        \
	  (TYPE, oldtype), (AINT, lb), (AINT, extent), (TYPE_OUT, newtype))                    \
	X(Q, MPI_Type_create_struct, mpi_type_create_struct, MPI_TYPE_CREATE_STRUCT,           \
	  (INT, count), (INTS, array_of_block_lengths), (AINTS, array_of_displacements),       \
	  (TYPES, array_of_types), (TYPE_OUT, newtype))                                        \
	X(Q, MPI_Type_create_subarray, mpi_type_create_subarray, MPI_TYPE_CREATE_SUBARRAY,     \
	  (INT, ndims), (INTS, size_array), (INTS, subsize_array), (INTS, start_array),        \
	  (INT, order), (TYPE, oldtype), (TYPE_OUT, newtype))                                  \
	X(Q, MPI_Type_delete_attr, mpi_type_delete_attr, MPI_TYPE_DELETE_ATTR, (TYPE, type),   \
	  (INT, type_keyval))                                                                  \
	X(Q, MPI_Type_dup, mpi_type_dup, MPI_TYPE_DUP, (TYPE, type), (TYPE_OUT, newtype))      \
	X(Q, MPI_Type_free, mpi_type_free, MPI_TYPE_FREE, (TYPE_INOUT, type))                  \
	X(Q, MPI_Type_free_keyval, mpi_type_free_keyval, MPI_TYPE_FREE_KEYVAL,                 \
	  (IOUT, type_keyval))                                                                 \
	X(Q, MPI_Type_get_attr, mpi_type_get_attr, MPI_TYPE_GET_ATTR, (TYPE, type),            \
	  (INT, type_keyval), (BUF, attribute_val), (IOUT, flag))                              \
	X(Q, MPI_Type_get_contents, mpi_type_get_contents, MPI_TYPE_GET_CONTENTS,              \
	  (TYPE, mtype), (INT, max_integers), (INT, max_addresses), (INT, max_datatypes),      \
	  (INTS_OUT, array_of_integers), (AINTS_OUT, array_of_addresses),                      \
	  (TYPES_OUT, array_of_datatypes))                                                     \
	X(Q, MPI_Type_get_envelope, mpi_type_get_envelope, MPI_TYPE_GET_ENVELOPE,              \
	  (TYPE, type), (IOUT, num_integers), (IOUT, num_addresses), (IOUT, num_datatypes),    \
	  (IOUT, combiner))                                                                    \
	X(Q, MPI_Type_get_extent, mpi_type_get_extent, MPI_TYPE_GET_EXTENT, (TYPE, type),      \
	  (AINT_OUT, lb), (AINT_OUT, extent))                                                  \
	X(Q, MPI_Type_get_extent_x, mpi_type_get_extent_x, MPI_TYPE_GET_EXTENT_X,              \
	  (TYPE, type), (COUNT_OUT, lb), (COUNT_OUT, extent))                                  \
	X(Q, MPI_Type_get_name, mpi_type_get_name, MPI_TYPE_GET_NAME, (TYPE, type),            \
	  (STR_OUT, type_name), (IOUT, resultlen))                                             \
	X(Q, MPI_Type_get_true_extent, mpi_type_get_true_extent, MPI_TYPE_GET_TRUE_EXTENT,     \
	  (TYPE, datatype), (AINT_OUT, true_lb), (AINT_OUT, true_extent))                      \
	X(Q, MPI_Type_get_true_extent_x, mpi_type_get_true_extent_x,                           \
	  MPI_TYPE_GET_TRUE_EXTENT_X, (TYPE, datatype), (COUNT_OUT, true_lb),                  \
	  (COUNT_OUT, true_extent))                                                            \
	X(Q, MPI_Type_indexed, mpi_type_indexed, MPI_TYPE_INDEXED, (INT, count),               \
	  (INTS, array_of_blocklengths), (INTS, array_of_displacements), (TYPE, oldtype),      \
	  (TYPE_OUT, newtype))                                                                 \
	X(Q, MPI_Type_match_size, mpi_type_match_size, MPI_TYPE_MATCH_SIZE, (INT, typeclass),  \
	  (INT, size), (TYPE_OUT, type))                                                       \
	X(Q, MPI_Type_set_attr, mpi_type_set_attr, MPI_TYPE_SET_ATTR, (TYPE, type),            \
	  (INT, type_keyval), (BUF, attr_val))                                                 \
	X(Q, MPI_Type_set_name, mpi_type_set_name, MPI_TYPE_SET_NAME, (TYPE, type),            \
	  (STR, type_name))                                                                    \
	X(Q, MPI_Type_size, mpi_type_size, MPI_TYPE_SIZE, (TYPE, type), (IOUT, size))          \
	X(Q, MPI_Type_size_x, mpi_type_size_x, MPI_TYPE_SIZE_X, (TYPE, type),                  \
	  (COUNT_OUT, size))                                                                   \
	X(Q, MPI_Type_vector, mpi_type_vector, MPI_TYPE_VECTOR, (INT, count),                  \
	  (INT, blocklength), (INT, stride), (TYPE, oldtype), (TYPE_OUT, newtype))             \
	X(Q, MPI_Unpack, mpi_unpack, MPI_UNPACK, (CBUF, inbuf), (INT, insize),                 \
	  (IOUT, position), (BUF, outbuf), (INT, outcount), (TYPE, datatype), (COMM, comm))    \
	X(Q, MPI_Unpack_external, mpi_unpack_external, MPI_UNPACK_EXTERNAL, (STR, datarep),    \
	  (CBUF, inbuf), (AINT, insize), (AINT_OUT, position), (BUF, outbuf),                  \
	  (INT, outcount), (TYPE, datatype))                                                   \
	X(Q, MPI_Unpublish_name, mpi_unpublish_name, MPI_UNPUBLISH_NAME, (STR, service_name),  \
	  (INFO, info), (STR, port_name))

/* The collectives, blocking then nonblocking (the same arguments and a request). */
#define MPI_COLL_API(X)                                                                        \
	X(H, MPI_Barrier, mpi_barrier, MPI_BARRIER, (COMM, comm))                              \
	X(H, MPI_Bcast, mpi_bcast, MPI_BCAST, (BUF, buf), (INT, count), (TYPE, type),          \
	  (INT, root), (COMM, comm))                                                           \
	X(H, MPI_Reduce, mpi_reduce, MPI_REDUCE, (CBUF, sbuf), (BUF, rbuf), (INT, count),      \
	  (TYPE, type), (OP, op), (INT, root), (COMM, comm))                                   \
	X(H, MPI_Allreduce, mpi_allreduce, MPI_ALLREDUCE, (CBUF, sbuf), (BUF, rbuf),           \
	  (INT, count), (TYPE, type), (OP, op), (COMM, comm))                                  \
	X(H, MPI_Gather, mpi_gather, MPI_GATHER, (CBUF, sbuf), (INT, scount), (TYPE, stype),   \
	  (BUF, rbuf), (INT, rcount), (TYPE, rtype), (INT, root), (COMM, comm))                \
	X(H, MPI_Gatherv, mpi_gatherv, MPI_GATHERV, (CBUF, sbuf), (INT, scount),               \
	  (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, displs), (TYPE, rtype),          \
	  (INT, root), (COMM, comm))                                                           \
	X(H, MPI_Scatter, mpi_scatter, MPI_SCATTER, (CBUF, sbuf), (INT, scount),               \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (INT, root), (COMM, comm)) \
	X(H, MPI_Scatterv, mpi_scatterv, MPI_SCATTERV, (CBUF, sbuf), (INTS, scounts),          \
	  (INTS, displs), (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype),            \
	  (INT, root), (COMM, comm))                                                           \
	X(H, MPI_Allgather, mpi_allgather, MPI_ALLGATHER, (CBUF, sbuf), (INT, scount),         \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (COMM, comm))              \
	X(H, MPI_Allgatherv, mpi_allgatherv, MPI_ALLGATHERV, (CBUF, sbuf), (INT, scount),      \
	  (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, displs), (TYPE, rtype),          \
	  (COMM, comm))                                                                        \
	X(H, MPI_Alltoall, mpi_alltoall, MPI_ALLTOALL, (CBUF, sbuf), (INT, scount),            \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (COMM, comm))              \
	X(H, MPI_Alltoallv, mpi_alltoallv, MPI_ALLTOALLV, (CBUF, sbuf), (INTS, scounts),       \
	  (INTS, sdispls), (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, rdispls),       \
	  (TYPE, rtype), (COMM, comm))                                                         \
	X(H, MPI_Alltoallw, mpi_alltoallw, MPI_ALLTOALLW, (CBUF, sbuf), (INTS, scounts),       \
	  (INTS, sdispls), (TYPES, stypes), (BUF, rbuf), (INTS, rcounts), (INTS, rdispls),     \
	  (TYPES, rtypes), (COMM, comm))                                                       \
	X(H, MPI_Reduce_scatter, mpi_reduce_scatter, MPI_REDUCE_SCATTER, (CBUF, sbuf),         \
	  (BUF, rbuf), (INTS, rcounts), (TYPE, type), (OP, op), (COMM, comm))                  \
	X(H, MPI_Reduce_scatter_block, mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK,     \
	  (CBUF, sbuf), (BUF, rbuf), (INT, rcount), (TYPE, type), (OP, op), (COMM, comm))      \
	X(H, MPI_Scan, mpi_scan, MPI_SCAN, (CBUF, sbuf), (BUF, rbuf), (INT, count),            \
	  (TYPE, type), (OP, op), (COMM, comm))                                                \
	X(H, MPI_Exscan, mpi_exscan, MPI_EXSCAN, (CBUF, sbuf), (BUF, rbuf), (INT, count),      \
	  (TYPE, type), (OP, op), (COMM, comm))                                                \
	X(H, MPI_Ibarrier, mpi_ibarrier, MPI_IBARRIER, (COMM, comm), (REQ_OUT, req))           \
	X(H, MPI_Ibcast, mpi_ibcast, MPI_IBCAST, (BUF, buf), (INT, count), (TYPE, type),       \
	  (INT, root), (COMM, comm), (REQ_OUT, req))                                           \
	X(H, MPI_Ireduce, mpi_ireduce, MPI_IREDUCE, (CBUF, sbuf), (BUF, rbuf), (INT, count),   \
	  (TYPE, type), (OP, op), (INT, root), (COMM, comm), (REQ_OUT, req))                   \
	X(H, MPI_Iallreduce, mpi_iallreduce, MPI_IALLREDUCE, (CBUF, sbuf), (BUF, rbuf),        \
	  (INT, count), (TYPE, type), (OP, op), (COMM, comm), (REQ_OUT, req))                  \
	X(H, MPI_Igather, mpi_igather, MPI_IGATHER, (CBUF, sbuf), (INT, scount),               \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (INT, root), (COMM, comm), \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Igatherv, mpi_igatherv, MPI_IGATHERV, (CBUF, sbuf), (INT, scount),            \
	  (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, displs), (TYPE, rtype),          \
	  (INT, root), (COMM, comm), (REQ_OUT, req))                                           \
	X(H, MPI_Iscatter, mpi_iscatter, MPI_ISCATTER, (CBUF, sbuf), (INT, scount),            \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (INT, root), (COMM, comm), \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Iscatterv, mpi_iscatterv, MPI_ISCATTERV, (CBUF, sbuf), (INTS, scounts),       \
	  (INTS, displs), (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype),            \
	  (INT, root), (COMM, comm), (REQ_OUT, req))                                           \
	X(H, MPI_Iallgather, mpi_iallgather, MPI_IALLGATHER, (CBUF, sbuf), (INT, scount),      \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (COMM, comm),              \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Iallgatherv, mpi_iallgatherv, MPI_IALLGATHERV, (CBUF, sbuf), (INT, scount),   \
	  (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, displs), (TYPE, rtype),          \
	  (COMM, comm), (REQ_OUT, req))                                                        \
	X(H, MPI_Ialltoall, mpi_ialltoall, MPI_IALLTOALL, (CBUF, sbuf), (INT, scount),         \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (COMM, comm),              \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Ialltoallv, mpi_ialltoallv, MPI_IALLTOALLV, (CBUF, sbuf), (INTS, scounts),    \
	  (INTS, sdispls), (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, rdispls),       \
	  (TYPE, rtype), (COMM, comm), (REQ_OUT, req))                                         \
	X(H, MPI_Ialltoallw, mpi_ialltoallw, MPI_IALLTOALLW, (CBUF, sbuf), (INTS, scounts),    \
	  (INTS, sdispls), (TYPES, stypes), (BUF, rbuf), (INTS, rcounts), (INTS, rdispls),     \
	  (TYPES, rtypes), (COMM, comm), (REQ_OUT, req))                                       \
	X(H, MPI_Ireduce_scatter, mpi_ireduce_scatter, MPI_IREDUCE_SCATTER, (CBUF, sbuf),      \
	  (BUF, rbuf), (INTS, rcounts), (TYPE, type), (OP, op), (COMM, comm), (REQ_OUT, req))  \
	X(H, MPI_Ireduce_scatter_block, mpi_ireduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK,  \
	  (CBUF, sbuf), (BUF, rbuf), (INT, rcount), (TYPE, type), (OP, op), (COMM, comm),      \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Iscan, mpi_iscan, MPI_ISCAN, (CBUF, sbuf), (BUF, rbuf), (INT, count),         \
	  (TYPE, type), (OP, op), (COMM, comm), (REQ_OUT, req))                                \
	X(H, MPI_Iexscan, mpi_iexscan, MPI_IEXSCAN, (CBUF, sbuf), (BUF, rbuf), (INT, count),   \
	  (TYPE, type), (OP, op), (COMM, comm), (REQ_OUT, req))                                \
	MPI_NEIGHBOR_API(X)                                                                    \
	MPI_PCOLL_API(X)

/* The persistent collectives (MPI-4): made once, each MPI_Start one instance. */
#define MPI_PCOLL_API(X)                                                                       \
	X(H, MPI_Barrier_init, mpi_barrier_init, MPI_BARRIER_INIT, (COMM, comm), (INFO, info), \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Bcast_init, mpi_bcast_init, MPI_BCAST_INIT, (BUF, buf), (INT, count),         \
	  (TYPE, type), (INT, root), (COMM, comm), (INFO, info), (REQ_OUT, req))               \
	X(H, MPI_Reduce_init, mpi_reduce_init, MPI_REDUCE_INIT, (CBUF, sbuf), (BUF, rbuf),     \
	  (INT, count), (TYPE, type), (OP, op), (INT, root), (COMM, comm), (INFO, info),       \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Allreduce_init, mpi_allreduce_init, MPI_ALLREDUCE_INIT, (CBUF, sbuf),         \
	  (BUF, rbuf), (INT, count), (TYPE, type), (OP, op), (COMM, comm), (INFO, info),       \
	  (REQ_OUT, req))                                                                      \
	X(H, MPI_Scan_init, mpi_scan_init, MPI_SCAN_INIT, (CBUF, sbuf), (BUF, rbuf),           \
	  (INT, count), (TYPE, type), (OP, op), (COMM, comm), (INFO, info), (REQ_OUT, req))    \
	X(H, MPI_Exscan_init, mpi_exscan_init, MPI_EXSCAN_INIT, (CBUF, sbuf), (BUF, rbuf),     \
	  (INT, count), (TYPE, type), (OP, op), (COMM, comm), (INFO, info), (REQ_OUT, req))    \
	X(H, MPI_Gather_init, mpi_gather_init, MPI_GATHER_INIT, (CBUF, sbuf), (INT, scount),   \
	  (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype), (INT, root),               \
	  (COMM, comm), (INFO, info), (REQ_OUT, req))                                          \
	X(H, MPI_Scatter_init, mpi_scatter_init, MPI_SCATTER_INIT, (CBUF, sbuf),               \
	  (INT, scount), (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype),             \
	  (INT, root), (COMM, comm), (INFO, info), (REQ_OUT, req))                             \
	X(H, MPI_Allgather_init, mpi_allgather_init, MPI_ALLGATHER_INIT, (CBUF, sbuf),         \
	  (INT, scount), (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype),             \
	  (COMM, comm), (INFO, info), (REQ_OUT, req))                                          \
	X(H, MPI_Alltoall_init, mpi_alltoall_init, MPI_ALLTOALL_INIT, (CBUF, sbuf),            \
	  (INT, scount), (TYPE, stype), (BUF, rbuf), (INT, rcount), (TYPE, rtype),             \
	  (COMM, comm), (INFO, info), (REQ_OUT, req))                                          \
	X(H, MPI_Reduce_scatter_block_init, mpi_reduce_scatter_block_init,                     \
	  MPI_REDUCE_SCATTER_BLOCK_INIT, (CBUF, sbuf), (BUF, rbuf), (INT, rcount),             \
	  (TYPE, type), (OP, op), (COMM, comm), (INFO, info), (REQ_OUT, req))                  \
	X(H, MPI_Reduce_scatter_init, mpi_reduce_scatter_init, MPI_REDUCE_SCATTER_INIT,        \
	  (CBUF, sbuf), (BUF, rbuf), (INTS, rcounts), (TYPE, type), (OP, op), (COMM, comm),    \
	  (INFO, info), (REQ_OUT, req))                                                        \
	X(H, MPI_Gatherv_init, mpi_gatherv_init, MPI_GATHERV_INIT, (CBUF, sbuf),               \
	  (INT, scount), (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, displs),          \
	  (TYPE, rtype), (INT, root), (COMM, comm), (INFO, info), (REQ_OUT, req))              \
	X(H, MPI_Scatterv_init, mpi_scatterv_init, MPI_SCATTERV_INIT, (CBUF, sbuf),            \
	  (INTS, scounts), (INTS, displs), (TYPE, stype), (BUF, rbuf), (INT, rcount),          \
	  (TYPE, rtype), (INT, root), (COMM, comm), (INFO, info), (REQ_OUT, req))              \
	X(H, MPI_Allgatherv_init, mpi_allgatherv_init, MPI_ALLGATHERV_INIT, (CBUF, sbuf),      \
	  (INT, scount), (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, displs),          \
	  (TYPE, rtype), (COMM, comm), (INFO, info), (REQ_OUT, req))                           \
	X(H, MPI_Alltoallv_init, mpi_alltoallv_init, MPI_ALLTOALLV_INIT, (CBUF, sbuf),         \
	  (INTS, scounts), (INTS, sdispls), (TYPE, stype), (BUF, rbuf), (INTS, rcounts),       \
	  (INTS, rdispls), (TYPE, rtype), (COMM, comm), (INFO, info), (REQ_OUT, req))          \
	X(H, MPI_Alltoallw_init, mpi_alltoallw_init, MPI_ALLTOALLW_INIT, (CBUF, sbuf),         \
	  (INTS, scounts), (INTS, sdispls), (TYPES, stypes), (BUF, rbuf), (INTS, rcounts),     \
	  (INTS, rdispls), (TYPES, rtypes), (COMM, comm), (INFO, info), (REQ_OUT, req))        \
	MPI_NB_GATHER(X, MPI_Neighbor_allgather_init, mpi_neighbor_allgather_init,             \
		      MPI_NEIGHBOR_ALLGATHER_INIT, (COMM, comm), (INFO, info), (REQ_OUT, req)) \
	MPI_NB_GATHERV(X, MPI_Neighbor_allgatherv_init, mpi_neighbor_allgatherv_init,          \
		       MPI_NEIGHBOR_ALLGATHERV_INIT, (COMM, comm), (INFO, info),               \
		       (REQ_OUT, req))                                                         \
	MPI_NB_GATHER(X, MPI_Neighbor_alltoall_init, mpi_neighbor_alltoall_init,               \
		      MPI_NEIGHBOR_ALLTOALL_INIT, (COMM, comm), (INFO, info), (REQ_OUT, req))  \
	MPI_NB_ALLTOALLV(X, MPI_Neighbor_alltoallv_init, mpi_neighbor_alltoallv_init,          \
			 MPI_NEIGHBOR_ALLTOALLV_INIT, (COMM, comm), (INFO, info),              \
			 (REQ_OUT, req))                                                       \
	MPI_NB_ALLTOALLW(X, MPI_Neighbor_alltoallw_init, mpi_neighbor_alltoallw_init,          \
			 MPI_NEIGHBOR_ALLTOALLW_INIT, (COMM, comm), (INFO, info),              \
			 (REQ_OUT, req))

/* The neighbourhood collectives, blocking then nonblocking: over the sources and destinations
 * of their communicator's topology. */
#define MPI_NEIGHBOR_API(X)                                                                    \
	MPI_NB_GATHER(X, MPI_Neighbor_allgather, mpi_neighbor_allgather,                       \
		      MPI_NEIGHBOR_ALLGATHER, (COMM, comm))                                    \
	MPI_NB_GATHERV(X, MPI_Neighbor_allgatherv, mpi_neighbor_allgatherv,                    \
		       MPI_NEIGHBOR_ALLGATHERV, (COMM, comm))                                  \
	MPI_NB_GATHER(X, MPI_Neighbor_alltoall, mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL,  \
		      (COMM, comm))                                                            \
	MPI_NB_ALLTOALLV(X, MPI_Neighbor_alltoallv, mpi_neighbor_alltoallv,                    \
			 MPI_NEIGHBOR_ALLTOALLV, (COMM, comm))                                 \
	MPI_NB_ALLTOALLW(X, MPI_Neighbor_alltoallw, mpi_neighbor_alltoallw,                    \
			 MPI_NEIGHBOR_ALLTOALLW, (COMM, comm))                                 \
	MPI_NB_GATHER(X, MPI_Ineighbor_allgather, mpi_ineighbor_allgather,                     \
		      MPI_INEIGHBOR_ALLGATHER, (COMM, comm), (REQ_OUT, req))                   \
	MPI_NB_GATHERV(X, MPI_Ineighbor_allgatherv, mpi_ineighbor_allgatherv,                  \
		       MPI_INEIGHBOR_ALLGATHERV, (COMM, comm), (REQ_OUT, req))                 \
	MPI_NB_GATHER(X, MPI_Ineighbor_alltoall, mpi_ineighbor_alltoall,                       \
		      MPI_INEIGHBOR_ALLTOALL, (COMM, comm), (REQ_OUT, req))                    \
	MPI_NB_ALLTOALLV(X, MPI_Ineighbor_alltoallv, mpi_ineighbor_alltoallv,                  \
			 MPI_INEIGHBOR_ALLTOALLV, (COMM, comm), (REQ_OUT, req))                \
	MPI_NB_ALLTOALLW(X, MPI_Ineighbor_alltoallw, mpi_ineighbor_alltoallw,                  \
			 MPI_INEIGHBOR_ALLTOALLW, (COMM, comm), (REQ_OUT, req))
#define MPI_NB_GATHER(X, name, fname, FNAME, ...)                                            \
	X(H, name, fname, FNAME, (CBUF, sbuf), (INT, scount), (TYPE, stype), (BUF, rbuf),      \
	  (INT, rcount), (TYPE, rtype), __VA_ARGS__)
#define MPI_NB_GATHERV(X, name, fname, FNAME, ...)                                           \
	X(H, name, fname, FNAME, (CBUF, sbuf), (INT, scount), (TYPE, stype), (BUF, rbuf),      \
	  (INTS, rcounts), (INTS, displs), (TYPE, rtype), __VA_ARGS__)
#define MPI_NB_ALLTOALLV(X, name, fname, FNAME, ...)                                         \
	X(H, name, fname, FNAME, (CBUF, sbuf), (INTS, scounts), (INTS, sdispls),               \
	  (TYPE, stype), (BUF, rbuf), (INTS, rcounts), (INTS, rdispls), (TYPE, rtype),         \
	  __VA_ARGS__)
#define MPI_NB_ALLTOALLW(X, name, fname, FNAME, ...)                                         \
	X(H, name, fname, FNAME, (CBUF, sbuf), (INTS, scounts), (AINTS, sdispls),              \
	  (TYPES_OUT_NB, stypes), (BUF, rbuf), (INTS, rcounts), (AINTS, rdispls),              \
	  (TYPES_IN, rtypes), __VA_ARGS__)

/* MPI-IO (hook-mpi-io.c): opening, closing and deleting files, reads and writes (blocking,
 * nonblocking, split collective) by hand; the rest recorded with the file they are given
 * (QF).  A file's calls carry its communicator, number and name (mpi-file.h). */
#define MPI_IO_RW(X, name, fname, FNAME, BUFK, ...)                                          \
	X(H, name, fname, FNAME, (FILE, fh), __VA_ARGS__ (BUFK, buf), (INT, count),           \
	  (TYPE, type), (STATUS, status))
#define MPI_IO_API(X)                                                                          \
	X(H, MPI_File_open, mpi_file_open, MPI_FILE_OPEN, (COMM, comm), (STR, filename),       \
	  (INT, amode), (INFO, info), (FILE_OUT, fh))                                          \
	X(H, MPI_File_close, mpi_file_close, MPI_FILE_CLOSE, (FILE_INOUT, fh))                 \
	X(H, MPI_File_delete, mpi_file_delete, MPI_FILE_DELETE, (STR, filename), (INFO, info)) \
	MPI_IO_RW(X, MPI_File_read, mpi_file_read, MPI_FILE_READ, BUF, )                       \
	MPI_IO_RW(X, MPI_File_read_all, mpi_file_read_all, MPI_FILE_READ_ALL, BUF, )           \
	MPI_IO_RW(X, MPI_File_read_at, mpi_file_read_at, MPI_FILE_READ_AT, BUF,                \
		  (OFFSET, offset),)                                                           \
	MPI_IO_RW(X, MPI_File_read_at_all, mpi_file_read_at_all, MPI_FILE_READ_AT_ALL, BUF,    \
		  (OFFSET, offset),)                                                           \
	MPI_IO_RW(X, MPI_File_read_shared, mpi_file_read_shared, MPI_FILE_READ_SHARED, BUF, )  \
	MPI_IO_RW(X, MPI_File_read_ordered, mpi_file_read_ordered, MPI_FILE_READ_ORDERED,      \
		  BUF, )                                                                       \
	MPI_IO_RW(X, MPI_File_write, mpi_file_write, MPI_FILE_WRITE, CBUF, )                   \
	MPI_IO_RW(X, MPI_File_write_all, mpi_file_write_all, MPI_FILE_WRITE_ALL, CBUF, )       \
	MPI_IO_RW(X, MPI_File_write_at, mpi_file_write_at, MPI_FILE_WRITE_AT, CBUF,            \
		  (OFFSET, offset),)                                                           \
	MPI_IO_RW(X, MPI_File_write_at_all, mpi_file_write_at_all, MPI_FILE_WRITE_AT_ALL,      \
		  CBUF, (OFFSET, offset),)                                                     \
	MPI_IO_RW(X, MPI_File_write_shared, mpi_file_write_shared, MPI_FILE_WRITE_SHARED,      \
		  CBUF, )                                                                      \
	MPI_IO_RW(X, MPI_File_write_ordered, mpi_file_write_ordered, MPI_FILE_WRITE_ORDERED,   \
		  CBUF, )                                                                      \
	MPI_IO_NB(X, MPI_File_iread, mpi_file_iread, MPI_FILE_IREAD, BUF, )                    \
	MPI_IO_NB(X, MPI_File_iread_all, mpi_file_iread_all, MPI_FILE_IREAD_ALL, BUF, )        \
	MPI_IO_NB(X, MPI_File_iread_at, mpi_file_iread_at, MPI_FILE_IREAD_AT, BUF,             \
		  (OFFSET, offset),)                                                           \
	MPI_IO_NB(X, MPI_File_iread_at_all, mpi_file_iread_at_all, MPI_FILE_IREAD_AT_ALL, BUF, \
		  (OFFSET, offset),)                                                           \
	MPI_IO_NB(X, MPI_File_iread_shared, mpi_file_iread_shared, MPI_FILE_IREAD_SHARED, BUF, ) \
	MPI_IO_NB(X, MPI_File_iwrite, mpi_file_iwrite, MPI_FILE_IWRITE, CBUF, )                \
	MPI_IO_NB(X, MPI_File_iwrite_all, mpi_file_iwrite_all, MPI_FILE_IWRITE_ALL, CBUF, )    \
	MPI_IO_NB(X, MPI_File_iwrite_at, mpi_file_iwrite_at, MPI_FILE_IWRITE_AT, CBUF,         \
		  (OFFSET, offset),)                                                           \
	MPI_IO_NB(X, MPI_File_iwrite_at_all, mpi_file_iwrite_at_all, MPI_FILE_IWRITE_AT_ALL,   \
		  CBUF, (OFFSET, offset),)                                                     \
	MPI_IO_NB(X, MPI_File_iwrite_shared, mpi_file_iwrite_shared, MPI_FILE_IWRITE_SHARED,   \
		  CBUF, )                                                                      \
	MPI_IO_BEGIN(X, MPI_File_read_all_begin, mpi_file_read_all_begin,                      \
		     MPI_FILE_READ_ALL_BEGIN, BUF, )                                           \
	MPI_IO_BEGIN(X, MPI_File_read_at_all_begin, mpi_file_read_at_all_begin,                \
		     MPI_FILE_READ_AT_ALL_BEGIN, BUF, (OFFSET, offset),)                       \
	MPI_IO_BEGIN(X, MPI_File_read_ordered_begin, mpi_file_read_ordered_begin,              \
		     MPI_FILE_READ_ORDERED_BEGIN, BUF, )                                       \
	MPI_IO_BEGIN(X, MPI_File_write_all_begin, mpi_file_write_all_begin,                    \
		     MPI_FILE_WRITE_ALL_BEGIN, CBUF, )                                         \
	MPI_IO_BEGIN(X, MPI_File_write_at_all_begin, mpi_file_write_at_all_begin,              \
		     MPI_FILE_WRITE_AT_ALL_BEGIN, CBUF, (OFFSET, offset),)                     \
	MPI_IO_BEGIN(X, MPI_File_write_ordered_begin, mpi_file_write_ordered_begin,            \
		     MPI_FILE_WRITE_ORDERED_BEGIN, CBUF, )                                     \
	X(QF, MPI_File_read_all_end, mpi_file_read_all_end, MPI_FILE_READ_ALL_END,             \
	  (FILE, fh), (BUF, buf), (STATUS, status))                                            \
	X(QF, MPI_File_read_at_all_end, mpi_file_read_at_all_end, MPI_FILE_READ_AT_ALL_END,    \
	  (FILE, fh), (BUF, buf), (STATUS, status))                                            \
	X(QF, MPI_File_read_ordered_end, mpi_file_read_ordered_end,                            \
	  MPI_FILE_READ_ORDERED_END, (FILE, fh), (BUF, buf), (STATUS, status))                 \
	X(QF, MPI_File_write_all_end, mpi_file_write_all_end, MPI_FILE_WRITE_ALL_END,          \
	  (FILE, fh), (CBUF, buf), (STATUS, status))                                           \
	X(QF, MPI_File_write_at_all_end, mpi_file_write_at_all_end,                            \
	  MPI_FILE_WRITE_AT_ALL_END, (FILE, fh), (CBUF, buf), (STATUS, status))                \
	X(QF, MPI_File_write_ordered_end, mpi_file_write_ordered_end,                          \
	  MPI_FILE_WRITE_ORDERED_END, (FILE, fh), (CBUF, buf), (STATUS, status))               \
	X(QF, MPI_File_set_size, mpi_file_set_size, MPI_FILE_SET_SIZE, (FILE, fh),             \
	  (OFFSET, size))                                                                      \
	X(QF, MPI_File_preallocate, mpi_file_preallocate, MPI_FILE_PREALLOCATE, (FILE, fh),    \
	  (OFFSET, size))                                                                      \
	X(QF, MPI_File_get_size, mpi_file_get_size, MPI_FILE_GET_SIZE, (FILE, fh),             \
	  (OFFSET_OUT, size))                                                                  \
	X(QF, MPI_File_get_group, mpi_file_get_group, MPI_FILE_GET_GROUP, (FILE, fh),          \
	  (GROUP_OUT, group))                                                                  \
	X(QF, MPI_File_get_amode, mpi_file_get_amode, MPI_FILE_GET_AMODE, (FILE, fh),          \
	  (IOUT, amode))                                                                       \
	X(QF, MPI_File_set_info, mpi_file_set_info, MPI_FILE_SET_INFO, (FILE, fh),             \
	  (INFO, info))                                                                        \
	X(QF, MPI_File_get_info, mpi_file_get_info, MPI_FILE_GET_INFO, (FILE, fh),             \
	  (INFO_OUT, info_used))                                                               \
	X(QF, MPI_File_set_view, mpi_file_set_view, MPI_FILE_SET_VIEW, (FILE, fh),             \
	  (OFFSET, disp), (TYPE, etype), (TYPE, filetype), (STR, datarep), (INFO, info))       \
	X(QF, MPI_File_get_view, mpi_file_get_view, MPI_FILE_GET_VIEW, (FILE, fh),             \
	  (OFFSET_OUT, disp), (TYPE_OUT, etype), (TYPE_OUT, filetype), (STR_OUT, datarep))     \
	X(QF, MPI_File_seek, mpi_file_seek, MPI_FILE_SEEK, (FILE, fh), (OFFSET, offset),       \
	  (INT, whence))                                                                       \
	X(QF, MPI_File_get_position, mpi_file_get_position, MPI_FILE_GET_POSITION,             \
	  (FILE, fh), (OFFSET_OUT, offset))                                                    \
	X(QF, MPI_File_seek_shared, mpi_file_seek_shared, MPI_FILE_SEEK_SHARED, (FILE, fh),    \
	  (OFFSET, offset), (INT, whence))                                                     \
	X(QF, MPI_File_get_position_shared, mpi_file_get_position_shared,                      \
	  MPI_FILE_GET_POSITION_SHARED, (FILE, fh), (OFFSET_OUT, offset))                      \
	X(QF, MPI_File_get_byte_offset, mpi_file_get_byte_offset, MPI_FILE_GET_BYTE_OFFSET,    \
	  (FILE, fh), (OFFSET, offset), (OFFSET_OUT, disp))                                    \
	X(QF, MPI_File_get_type_extent, mpi_file_get_type_extent, MPI_FILE_GET_TYPE_EXTENT,    \
	  (FILE, fh), (TYPE, datatype), (AINT_OUT, extent))                                    \
	X(QF, MPI_File_set_atomicity, mpi_file_set_atomicity, MPI_FILE_SET_ATOMICITY,          \
	  (FILE, fh), (INT, flag))                                                             \
	X(QF, MPI_File_get_atomicity, mpi_file_get_atomicity, MPI_FILE_GET_ATOMICITY,          \
	  (FILE, fh), (IOUT, flag))                                                            \
	X(QF, MPI_File_sync, mpi_file_sync, MPI_FILE_SYNC, (FILE, fh))                         \
	X(QF, MPI_File_call_errhandler, mpi_file_call_errhandler, MPI_FILE_CALL_ERRHANDLER,    \
	  (FILE, fh), (INT, errorcode))                                                        \
	X(QF, MPI_File_set_errhandler, mpi_file_set_errhandler, MPI_FILE_SET_ERRHANDLER,       \
	  (FILE, fh), (ERRH, errhandler))                                                      \
	X(QF, MPI_File_get_errhandler, mpi_file_get_errhandler, MPI_FILE_GET_ERRHANDLER,       \
	  (FILE, fh), (ERRH_OUT, errhandler))                                                  \
	X(Q, MPI_File_create_errhandler, mpi_file_create_errhandler,                           \
	  MPI_FILE_CREATE_ERRHANDLER, (FUNC, function), (ERRH_OUT, errhandler))
#define MPI_IO_NB(X, name, fname, FNAME, BUFK, ...)                                          \
	X(H, name, fname, FNAME, (FILE, fh), __VA_ARGS__ (BUFK, buf), (INT, count),           \
	  (TYPE, type), (REQ_OUT, req))
#define MPI_IO_BEGIN(X, name, fname, FNAME, BUFK, ...)                                       \
	X(H, name, fname, FNAME, (FILE, fh), __VA_ARGS__ (BUFK, buf), (INT, count),           \
	  (TYPE, type))

/* One-sided communication (hook-mpi-rma.c): windows made and freed, the calls that open and
 * close epochs (fence, lock and unlock, post/start/complete/wait), flushes, and the calls
 * that move data, by hand; the rest recorded with their window (QW).  A window's calls
 * carry its communicator and its number over it, the same on every member (mpi-win.h). */
#define MPI_RMA_OP(X, name, fname, FNAME, OBUF, ...)                                         \
	X(H, name, fname, FNAME, (OBUF, origin), (INT, ocount), (TYPE, otype), (INT, target),  \
	  (AINT, disp), (INT, tcount), (TYPE, ttype), __VA_ARGS__)
#define MPI_RMA_GETACC(X, name, fname, FNAME, ...)                                           \
	X(H, name, fname, FNAME, (CBUF, origin), (INT, ocount), (TYPE, otype), (BUF, result),  \
	  (INT, rcount), (TYPE, rtype), (INT, target), (AINT, disp), (INT, tcount),           \
	  (TYPE, ttype), (OP, op), __VA_ARGS__)
#define MPI_RMA_API(X)                                                                         \
	X(H, MPI_Win_create, mpi_win_create, MPI_WIN_CREATE, (BUF, base), (AINT, size),        \
	  (INT, disp_unit), (INFO, info), (COMM, comm), (WIN_OUT, win))                        \
	X(H, MPI_Win_allocate, mpi_win_allocate, MPI_WIN_ALLOCATE, (AINT, size),               \
	  (INT, disp_unit), (INFO, info), (COMM, comm), (BUF, baseptr), (WIN_OUT, win))        \
	X(H, MPI_Win_allocate_shared, mpi_win_allocate_shared, MPI_WIN_ALLOCATE_SHARED,        \
	  (AINT, size), (INT, disp_unit), (INFO, info), (COMM, comm), (BUF, baseptr),          \
	  (WIN_OUT, win))                                                                      \
	X(H, MPI_Win_create_dynamic, mpi_win_create_dynamic, MPI_WIN_CREATE_DYNAMIC,           \
	  (INFO, info), (COMM, comm), (WIN_OUT, win))                                          \
	X(H, MPI_Win_free, mpi_win_free, MPI_WIN_FREE, (WIN_INOUT, win))                       \
	X(H, MPI_Win_fence, mpi_win_fence, MPI_WIN_FENCE, (INT, assert_), (WIN, win))          \
	X(H, MPI_Win_lock, mpi_win_lock, MPI_WIN_LOCK, (INT, lock_type), (INT, rank),          \
	  (INT, assert_), (WIN, win))                                                          \
	X(H, MPI_Win_unlock, mpi_win_unlock, MPI_WIN_UNLOCK, (INT, rank), (WIN, win))          \
	X(H, MPI_Win_lock_all, mpi_win_lock_all, MPI_WIN_LOCK_ALL, (INT, assert_), (WIN, win)) \
	X(H, MPI_Win_unlock_all, mpi_win_unlock_all, MPI_WIN_UNLOCK_ALL, (WIN, win))           \
	X(H, MPI_Win_post, mpi_win_post, MPI_WIN_POST, (GROUP, group), (INT, assert_),         \
	  (WIN, win))                                                                          \
	X(H, MPI_Win_start, mpi_win_start, MPI_WIN_START, (GROUP, group), (INT, assert_),      \
	  (WIN, win))                                                                          \
	X(H, MPI_Win_complete, mpi_win_complete, MPI_WIN_COMPLETE, (WIN, win))                 \
	X(H, MPI_Win_wait, mpi_win_wait, MPI_WIN_WAIT, (WIN, win))                             \
	X(H, MPI_Win_test, mpi_win_test, MPI_WIN_TEST, (WIN, win), (FLAG, flag))               \
	X(H, MPI_Win_flush, mpi_win_flush, MPI_WIN_FLUSH, (INT, rank), (WIN, win))             \
	X(H, MPI_Win_flush_local, mpi_win_flush_local, MPI_WIN_FLUSH_LOCAL, (INT, rank),       \
	  (WIN, win))                                                                          \
	X(H, MPI_Win_flush_all, mpi_win_flush_all, MPI_WIN_FLUSH_ALL, (WIN, win))              \
	X(H, MPI_Win_flush_local_all, mpi_win_flush_local_all, MPI_WIN_FLUSH_LOCAL_ALL,        \
	  (WIN, win))                                                                          \
	X(H, MPI_Win_sync, mpi_win_sync, MPI_WIN_SYNC, (WIN, win))                             \
	MPI_RMA_OP(X, MPI_Put, mpi_put, MPI_PUT, CBUF, (WIN, win))                             \
	MPI_RMA_OP(X, MPI_Get, mpi_get, MPI_GET, BUF, (WIN, win))                              \
	MPI_RMA_OP(X, MPI_Accumulate, mpi_accumulate, MPI_ACCUMULATE, CBUF, (OP, op),          \
		   (WIN, win))                                                                 \
	MPI_RMA_GETACC(X, MPI_Get_accumulate, mpi_get_accumulate, MPI_GET_ACCUMULATE,          \
		       (WIN, win))                                                             \
	X(H, MPI_Fetch_and_op, mpi_fetch_and_op, MPI_FETCH_AND_OP, (CBUF, origin),            \
	  (BUF, result), (TYPE, type), (INT, target), (AINT, disp), (OP, op), (WIN, win))      \
	X(H, MPI_Compare_and_swap, mpi_compare_and_swap, MPI_COMPARE_AND_SWAP,                 \
	  (CBUF, origin), (CBUF, compare), (BUF, result), (TYPE, type), (INT, target),         \
	  (AINT, disp), (WIN, win))                                                            \
	MPI_RMA_OP(X, MPI_Rput, mpi_rput, MPI_RPUT, CBUF, (WIN, win), (REQ_OUT, req))          \
	MPI_RMA_OP(X, MPI_Rget, mpi_rget, MPI_RGET, BUF, (WIN, win), (REQ_OUT, req))           \
	MPI_RMA_OP(X, MPI_Raccumulate, mpi_raccumulate, MPI_RACCUMULATE, CBUF, (OP, op),       \
		   (WIN, win), (REQ_OUT, req))                                                 \
	MPI_RMA_GETACC(X, MPI_Rget_accumulate, mpi_rget_accumulate, MPI_RGET_ACCUMULATE,       \
		       (WIN, win), (REQ_OUT, req))                                             \
	X(QW, MPI_Win_get_group, mpi_win_get_group, MPI_WIN_GET_GROUP, (WIN, win),             \
	  (GROUP_OUT, group))                                                                  \
	X(QW, MPI_Win_get_attr, mpi_win_get_attr, MPI_WIN_GET_ATTR, (WIN, win),                \
	  (INT, win_keyval), (BUF, attribute_val), (IOUT, flag))                               \
	X(QW, MPI_Win_set_attr, mpi_win_set_attr, MPI_WIN_SET_ATTR, (WIN, win),                \
	  (INT, win_keyval), (BUF, attribute_val))                                             \
	X(QW, MPI_Win_delete_attr, mpi_win_delete_attr, MPI_WIN_DELETE_ATTR, (WIN, win),       \
	  (INT, win_keyval))                                                                   \
	X(QW, MPI_Win_get_name, mpi_win_get_name, MPI_WIN_GET_NAME, (WIN, win),                \
	  (STR_OUT, win_name), (IOUT, resultlen))                                              \
	X(QW, MPI_Win_set_name, mpi_win_set_name, MPI_WIN_SET_NAME, (WIN, win),                \
	  (STR, win_name))                                                                     \
	X(QW, MPI_Win_get_info, mpi_win_get_info, MPI_WIN_GET_INFO, (WIN, win),                \
	  (INFO_OUT, info_used))                                                               \
	X(QW, MPI_Win_set_info, mpi_win_set_info, MPI_WIN_SET_INFO, (WIN, win), (INFO, info))  \
	X(QW, MPI_Win_attach, mpi_win_attach, MPI_WIN_ATTACH, (WIN, win), (BUF, base),         \
	  (AINT, size))                                                                        \
	X(QW, MPI_Win_detach, mpi_win_detach, MPI_WIN_DETACH, (WIN, win), (CBUF, base))        \
	X(QW, MPI_Win_shared_query, mpi_win_shared_query, MPI_WIN_SHARED_QUERY, (WIN, win),    \
	  (INT, rank), (AINT_OUT, size), (IOUT, disp_unit), (BUF, baseptr))                    \
	X(QW, MPI_Win_get_errhandler, mpi_win_get_errhandler, MPI_WIN_GET_ERRHANDLER,          \
	  (WIN, win), (ERRH_OUT, errhandler))                                                  \
	X(QW, MPI_Win_set_errhandler, mpi_win_set_errhandler, MPI_WIN_SET_ERRHANDLER,          \
	  (WIN, win), (ERRH, errhandler))                                                      \
	X(QW, MPI_Win_call_errhandler, mpi_win_call_errhandler, MPI_WIN_CALL_ERRHANDLER,       \
	  (WIN, win), (INT, errorcode))                                                        \
	X(Q, MPI_Win_create_keyval, mpi_win_create_keyval, MPI_WIN_CREATE_KEYVAL,              \
	  (FUNC, win_copy_attr_fn), (FUNC, win_delete_attr_fn), (IOUT, win_keyval),            \
	  (BUF, extra_state))                                                                  \
	X(Q, MPI_Win_free_keyval, mpi_win_free_keyval, MPI_WIN_FREE_KEYVAL,                    \
	  (IOUT, win_keyval))                                                                  \
	X(Q, MPI_Win_create_errhandler, mpi_win_create_errhandler, MPI_WIN_CREATE_ERRHANDLER,  \
	  (FUNC, function), (ERRH_OUT, errhandler))

#if defined(TPROF_MPI_FORTRAN_SIDE)
/* The wrappers' files compiled again for the Fortran bindings (fortran/, and fortran-mpich/
 * for MPICH's ABI): each wrapper is then hidden, named tprof_mpi_f_<name> (tprof_mpich_f_),
 * and its "real function" is the binding's thunk, which calls the real Fortran binding with
 * the program's own arguments (fortran/entries.c). */
#ifdef TPROF_MPI_MPICH_SIDE
#define MPI_F_PREFIX "tprof_mpich_f_"
#else
#define MPI_F_PREFIX "tprof_mpi_f_"
#endif
#define MPI_DECLARE(kind, name, fname, FNAME, ...)                                        \
	typedef int (*name##_fn) MPI_PARAMS(__VA_ARGS__);                                  \
	TPROF_HIDDEN int mpi_thunk_##name MPI_PARAMS(__VA_ARGS__)                          \
		__asm__(MPI_F_PREFIX "thunk_" #name);                                      \
	static inline name##_fn get_##name(void)                                           \
	{                                                                                  \
		return mpi_thunk_##name;                                                   \
	}                                                                                  \
	TPROF_HIDDEN int name MPI_PARAMS(__VA_ARGS__) __asm__(MPI_F_PREFIX #name);
#define MPI_SIDE_NAME(name) __asm__(MPI_F_PREFIX #name)
#elif defined(TPROF_MPI_MPICH_SIDE)
/* The wrappers' files compiled again for MPICH's ABI (mpich/): each wrapper hidden, named
 * tprof_mpich_<name>, which the exported wrapper hands the call to (MPI_PASS); the real
 * function is the same, typed with MPICH's arguments. */
#define MPI_DECLARE(kind, name, fname, FNAME, ...)                                        \
	TPROF_REAL_EXTERN(int, name, MPI_PARAMS(__VA_ARGS__), tprof_mpi_lookup)            \
	TPROF_HIDDEN int name MPI_PARAMS(__VA_ARGS__) __asm__("tprof_mpich_" #name);
#define MPI_SIDE_NAME(name) __asm__("tprof_mpich_" #name)
#else
/* The real definitions, found on first use, and the exported wrappers, which hand a call to
 * their MPICH twins when the library is MPICH's (MPI_PASS). */
#define MPI_DECLARE(kind, name, fname, FNAME, ...)                                        \
	TPROF_REAL_EXTERN(int, name, MPI_PARAMS(__VA_ARGS__), tprof_mpi_lookup)            \
	TPROF_EXPORT int name MPI_PARAMS(__VA_ARGS__);                                     \
	TPROF_HIDDEN int tprof_mpich_##name MPI_PARAMS(__VA_ARGS__);
#define MPI_SIDE_NAME(name)
#endif
MPI_API(MPI_DECLARE)
#undef MPI_DECLARE

#define MPI_INDEX(kind, name, ...) MPIH_##name,
enum mpi_hook_index {
	MPI_API(MPI_INDEX)
	MPIH_COUNT
};
#undef MPI_INDEX

extern struct tprof_hook tprof_mpi_hooks[] TPROF_HIDDEN;
#define MPI_HOOK(name) (&tprof_mpi_hooks[MPIH_##name])

/* The wrapper's return when it does not record the call: the real function's (TMPI_ERR_OTHER
 * when there is none), or, from an exported wrapper in a process whose MPI is MPICH's, its
 * MPICH twin's, which interprets the arguments with MPICH's ABI.  Not on the path of a call
 * recorded under Open MPI. */
#if defined(TPROF_MPI_FORTRAN_SIDE) || defined(TPROF_MPI_MPICH_SIDE)
#define MPI_PASS(name, real, args) return (real) ? (real)args : TMPI_ERR_OTHER
#define MPI_TO_MPICH(name, abi, args)
#else
#define MPI_PASS(name, real, args)                                                        \
	return TPROF_UNLIKELY(tprof_mpi_abi == TPROF_MPI_ABI_MPICH) ? tprof_mpich_##name args \
	       : (real) ? (real)args : TMPI_ERR_OTHER
/* For an exported wrapper that must know the library before its own checks: hands the call
 * to its MPICH twin when `abi` (the library found) is MPICH's. */
#define MPI_TO_MPICH(name, abi, args)                                                     \
	if (TPROF_UNLIKELY((abi) == TPROF_MPI_ABI_MPICH))                                  \
		return tprof_mpich_##name args;
#endif

/* ---- generated wrappers (hook-mpi-query.c, hook-mpi-other.c) --------------------------- */

/* A wrapper of its own for each MPI function the list names: a CALL of `ext` units and op
 * `op`, which `more` fills with what the call gives beyond its name (its communicator for QC,
 * its file for QF). */
#define MPI_GEN_BODY(name, params, args, ext, op, more)                                    \
	TPROF_EXPORT int name params                                                       \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (MPI_UNPAREN args));             \
		struct mpi_call c_, *c = &c_;                                              \
		mpi_begin(c, t, MPI_HOOK(name), ext, op);                                  \
		more;                                                                      \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real args);                              \
	}
#define MPI_GEN_Q(name, params, args) MPI_GEN_BODY(name, params, args, 1, TPROF_MPI_OTHER, (void)0)
#define MPI_GEN_QC(name, params, args)                                                    \
	MPI_GEN_BODY(name, params, args, 1, TPROF_MPI_OTHER, c->a->comm = mpi_comm_id(comm))
#define MPI_GEN_QF(name, params, args)                                                    \
	MPI_GEN_BODY(name, params, args, 2, TPROF_MPI_IO, mpi_io_file(c, fh))
#define MPI_GEN_QW(name, params, args)                                                    \
	MPI_GEN_BODY(name, params, args, 1, TPROF_MPI_RMA, mpi_rma_win(c, MPI_KEY(win)))
#define MPI_GEN_H(name, params, args)
#define MPI_GEN_P(name, params, args)
#define MPI_UNPAREN(...) __VA_ARGS__
#define MPI_GENERATE(kind, name, fname, FNAME, ...)                                       \
	MPI_GEN_##kind(name, MPI_PARAMS(__VA_ARGS__), MPI_ARGS(__VA_ARGS__))

/* ---- one recorded call -------------------------------------------------------------------- */

/* An MPI call being recorded (struct tprof_call, events/api.h): its arguments go to `a` and
 * `b`, in the CALL record or scratch space. */
struct mpi_call {
	struct tprof_call call;
	struct tprof_mpi_args *a;
	struct tprof_mpi_args2 *b;
};

/* With TPROF_CALLSTACK on: the calling thread's stack written (a STACK record, before the
 * call's CALL and the room it reserves), for the correlation id returned, which the call
 * then takes (0 when off). */
static inline uint64_t mpi_stack(struct tprof_thread *t)
{
	if (TPROF_LIKELY(!tprof_g.cfg.callstack))
		return 0;
	uint64_t corr = tprof_next_corr(t);
	t->guard++;
	tprof_callstack(t, corr);
	t->guard--;
	return corr;
}

/* Reserves the CALL with ext (1 or 2) units; `op` and no peer, tag or communicator yet; corr
 * (0: a new one) from mpi_stack. */
static inline void mpi_begin_corr(struct mpi_call *c, struct tprof_thread *t,
				  struct tprof_hook *h, unsigned ext, uint8_t op, uint64_t corr)
{
	void *u[2];
	tprof_call_begin(&c->call, t, h, ext, 2, u);
	c->call.corr = TPROF_LIKELY(c->call.r != NULL) ? (corr ? corr : tprof_next_corr(t)) : 0;
	c->a = u[0];
	c->b = u[1];
	c->a->op = op;
	c->a->peer = TPROF_MPI_NONE;
	c->a->tag = TPROF_MPI_NONE;
	c->b->peer = TPROF_MPI_NONE;
	c->b->tag = TPROF_MPI_NONE;
}

static inline void mpi_begin(struct mpi_call *c, struct tprof_thread *t, struct tprof_hook *h,
			     unsigned ext, uint8_t op)
{
	mpi_begin_corr(c, t, h, ext, op, mpi_stack(t));
}

/* The same for a call that writes up to `follow` units of MPIREQ records before its end
 * (what it completed or started): room for all of them now, in the call's own buffer. */
static inline void mpi_begin_room(struct mpi_call *c, struct tprof_thread *t,
				  struct tprof_hook *h, unsigned ext, uint8_t op, size_t follow)
{
	uint64_t corr = mpi_stack(t);
	tprof_room(t, 1 + ext + follow);
	mpi_begin_corr(c, t, h, ext, op, corr);
}

/* The start of a hand-written wrapper: its real function and thread, the call passed on
 * unrecorded (MPI_PASS) when this thread does not record it, else its CALL begun in `c`
 * (ext units, op `op`, room for `follow` units of MPIREQ records). */
#define MPI_WRAPPER_BEGIN(name, ext, op, follow, args)                                     \
	struct tprof_thread *t = &tprof_tls;                                               \
	name##_fn real = get_##name();                                                     \
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                         \
		MPI_PASS(name, real, args);                                                \
	struct mpi_call c_, *c = &c_;                                                      \
	mpi_begin_room(c, t, MPI_HOOK(name), ext, op, follow)

/* Units of the MPIREQ records of n requests. */
#define MPI_REQ_UNITS(n) (3 * (size_t)((n) > 0 ? (n) : 0))

/* ---- calls that poll (P entries) --------------------------------------------------------- */

/* Calls `real_call` (assigning rc) for a polling function h.  When its unsuccessful calls are
 * folded (poll.h), the call is timed without a record: if `missed` (an expression over rc and
 * what the call returned) holds, it is counted in the thread's run of polls and the wrapper
 * returns rc; else its CALL record is written now, as having begun at its entry.  A poll
 * the run does not time (poll.h) reads no clock when it misses, and one that succeeds begins
 * at its return.  Otherwise the CALL is recorded around the call as every call's is.  Either
 * way, what follows fills the record (and up to `follow` units of MPIREQ records) and ends it
 * with tprof_call_leave.  MPI_POLL_AFTER is the same for a call a fast side (mpi_poll_fast) made
 * already, untimed, returning pre_rc, and could not count: its guard is still held. */
#define MPI_POLL(c, t, h, ext, op, follow, rc, real_call, missed)                         \
	MPI_POLL_AFTER(c, t, h, ext, op, follow, rc, 0, 0, real_call, missed)
#define MPI_POLL_AFTER(c, t, h, ext, op, follow, rc, pre, pre_rc, real_call, missed)      \
	int rc;                                                                            \
	if ((pre) || (mpi_folds(h) && tprof_poll_untimed(t))) {                            \
		int missed_;                                                               \
		if (pre) {                                                                 \
			rc = (pre_rc);                                                     \
			missed_ = (missed);                                                \
		} else {                                                                   \
			(t)->guard++;                                                      \
			rc = real_call;                                                   \
			missed_ = (missed);                                                \
			if (missed_ && tprof_poll_count(t, h)) {                           \
				(t)->guard--;                                              \
				return rc;                                                 \
			}                                                                  \
		}                                                                          \
		uint64_t at_ = tprof_now();                                                \
		if (missed_) {                                                             \
			(t)->guard--;                                                      \
			tprof_poll_missed(t, h, at_, at_);                                 \
			return rc;                                                         \
		}                                                                          \
		tprof_poll_close(t, at_);                                                  \
		mpi_begin_room(c, t, h, ext, op, follow);                                  \
		tprof_call_start_at((c)->call.r, h, ext, (c)->call.corr, at_);            \
	} else if (mpi_folds(h)) {                                                         \
		uint64_t t0_ = tprof_now();                                                \
		(t)->guard++;                                                              \
		rc = real_call;                                                           \
		if (missed) {                                                              \
			uint64_t t1_ = tprof_now();                                        \
			(t)->guard--;                                                      \
			tprof_poll_missed(t, h, t0_, t1_);                                 \
			return rc;                                                         \
		}                                                                          \
		mpi_begin_room(c, t, h, ext, op, follow);                                  \
		tprof_call_start_at((c)->call.r, h, ext, (c)->call.corr, t0_);            \
	} else {                                                                           \
		mpi_begin_room(c, t, h, ext, op, follow);                                  \
		tprof_call_enter(&(c)->call);                                             \
		rc = real_call;                                                           \
	}

static inline int mpi_folds(const struct tprof_hook *h)
{
	return h->poll & h->record;
}

/* Whether a Wait or Test call must find its requests' entries before the real call: when
 * other threads may call MPI meanwhile (MPI_THREAD_MULTIPLE), a request completed in the call
 * could be freed and its handle reused by another thread's new request before a lookup made
 * after it.  Otherwise only the completed requests are looked up, after the call. */
static inline int mpi_lookup_early(void)
{
	return tprof_mpi_h.thread_multiple;
}

_Static_assert(MPI_ARM_IPROBE < TPROF_POLL_ARMS, "a slot for each fast side");

/* Whether a poll with fast side k on thread t can take it: the thread's open run is armed for
 * the function (poll.h: its next poll goes untimed, the function's misses are folded, and
 * under MPI_THREAD_MULTIPLE it needs no lookup of requests before the call,
 * tprof_poll_arms_on), nothing was written on the thread since (else the run is over, and
 * this poll, timed, begins the next) and t records now.  The fast side then makes the call
 * with no more than the handles and status it needs should the call succeed (a call that
 * succeeded wrote its flag), and counts a miss in the run (tprof_poll_count_armed); anything
 * else (a success, an error, a run that closed) goes to the full wrapper, MPI_POLL_AFTER.
 * What is recorded is the same either way: the fast side only leaves out the CALL record's
 * setup (the wrapper's stack frame) on the calls that write none, most of a polling loop's.
 * MPI's state needs no look: a run armed is one that began after MPI_Init, and
 * MPI_Finalize, after which no thread polls, writes a record that ends it.  Nor does the real
 * function: a run counts a function only once it was called. */
static inline int mpi_poll_fast(struct tprof_thread *t, unsigned k)
{
	return t->poll.armed[k] && t->pos == t->poll.end && tprof_should_record(t);
}

/* The real function of a hook whose run is armed (mpi_poll_fast): found, it stays.  Read
 * as volatile, a relaxed load that the call takes as its operand. */
#if defined(TPROF_MPI_FORTRAN_SIDE)
#define MPI_REAL_FOUND(name) (get_##name())
#else
#define MPI_REAL_FOUND(name) (*(name##_fn const volatile *)&real_##name)
#endif

/* ---- arguments as the records store them ------------------------------------------------- */

static inline int32_t mpi_rank(int r)
{
	return r >= 0 ? r : r == TMPI_ANY_SOURCE ? TPROF_MPI_ANY
			  : r == TMPI_PROC_NULL ? TPROF_MPI_PROCNULL : TPROF_MPI_NONE;
}

static inline int32_t mpi_tag(int tag)
{
	return tag >= 0 ? tag : tag == TMPI_ANY_TAG ? TPROF_MPI_ANY : TPROF_MPI_NONE;
}

/* Bytes of count elements of type (0 when unknown). */
static inline uint64_t mpi_bytes(int count, MType type)
{
	int size = 0;
	if (count <= 0 || tprof_pmpi.Type_size(MPI_KEY(type), &size) != TMPI_SUCCESS || size <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* The status a call fills: the program's, or the wrapper's own where the program ignores it. */
#define MPI_STATUS_OR(status, own) ((status) != TMPI_STATUS_IGNORE ? (status) : (own))

/* Fills a receive's peer, tag and bytes from the status it completed with. */
static inline void mpi_received(struct tprof_mpi_args *a, const MStatus *st)
{
	a->peer = mpi_rank(st->MPI_SOURCE);
	a->tag = mpi_tag(st->MPI_TAG);
	a->bytes = MPI_STATUS_BYTES(st);
	if (st->MPI_SOURCE == TMPI_PROC_NULL)
		a->flags |= TPROF_MPIF_PROC_NULL;
}

/* The communicator's id, and its entry in *e. */
static inline uint64_t mpi_comm_of(MComm comm, struct tprof_mpi_comm **e)
{
	*e = tprof_mpi_comm(MPI_KEY(comm));
	return tprof_mpi_comm_id(*e);
}

static inline uint64_t mpi_comm_id(MComm comm)
{
	return tprof_mpi_comm_id(tprof_mpi_comm(MPI_KEY(comm)));
}

/* The window of a one-sided call (op RMA): its communicator and its number over it (tag), the
 * fences called on it before (seq); its entry, or NULL. */
static inline struct tprof_mpi_win *mpi_rma_win(struct mpi_call *c, void *win)
{
	struct tprof_mpi_win *w = tprof_mpi_win_find(win);
	if (w) {
		c->a->comm = w->comm;
		c->a->tag = (int32_t)w->number;
		c->a->seq = __atomic_load_n(&w->fences, __ATOMIC_RELAXED);
	}
	return w;
}

/* The file of an MPI-IO call (a CALL of 2 units, op IO): its communicator, number and name. */
static inline void mpi_io_file(struct mpi_call *c, MFile fh)
{
	const struct tprof_mpi_file *f = tprof_mpi_file_find(fh);
	if (f) {
		c->a->comm = f->comm;
		c->a->seq = f->number;
		c->b->file = f->name;
	}
}

/* hook-mpi-req.c: the request a nonblocking call just made stands for what c recorded (its
 * op, communicator, peer, tag, bytes, seq; `persistent`: made by a *_init call, active only
 * once started; `out`: MPI_Comm_idup's new communicator).  Returns its entry, or NULL when
 * it cannot be tracked or completed already (its MPIREQ is then written at once). */
struct tprof_mpi_req;
struct tprof_mpi_req *mpi_track(struct mpi_call *c, MReq req, uint8_t op, int persistent,
				void *out) MPI_SIDE_NAME(mpi_track);

#endif
