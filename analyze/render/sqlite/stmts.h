/* render/sqlite/stmts.h — every table of the database, its columns listed once (docs/
 * sqlite-schema.md says what each holds): stmts.c makes each table's CREATE TABLE and its
 * INSERT from these lists, and the renderer binds values by the column names they define
 * (SLICES_start_ns...), so a table and its inserts cannot disagree. */
#ifndef TPROF_ANALYZE_SQLITE_STMTS_H
#define TPROF_ANALYZE_SQLITE_STMTS_H

/* Tables: ID, name.  An insert statement per table, ST_<ID>. */
#define SQL_TABLES(T)                                   \
	T(META, meta)                                   \
	T(STRINGS, strings)                             \
	T(PROCESSES, processes)                         \
	T(THREADS, threads)                             \
	T(TRACKS, tracks)                               \
	T(SLICES, slices)                               \
	T(INSTANTS, instants)                           \
	T(ASYNC, async_slices)                          \
	T(COUNTERS, counters)                           \
	T(SAMPLES, samples)                             \
	T(CALLSITES, callsites)                         \
	T(FLOWS, flows)                                 \
	T(HALVES, flow_halves)                          \
	T(DEVICE_OPS, device_ops)                       \
	T(MESSAGES, mpi_messages)                       \
	T(COLLECTIVES, collectives)                     \
	T(MEMBERS, collective_members)                  \
	T(STEPS, steps)                                 \
	T(CLOCKS, clock_offsets)                        \
	T(DSPLITS, diag_step_parts)                     \
	T(DSTEPS, diag_steps)                           \
	T(DPATH, diag_critical_path)                    \
	T(DWAITS, diag_wait_states)                     \
	T(DFINDINGS, diag_findings)

#define COLS_META(C, t) C(t, key, "TEXT PRIMARY KEY") C(t, value, "")

#define COLS_STRINGS(C, t) C(t, id, "INTEGER PRIMARY KEY") C(t, string, "TEXT NOT NULL")

#define COLS_PROCESSES(C, t)                                                             \
	C(t, id, "INTEGER PRIMARY KEY") C(t, host, "TEXT") C(t, pid, "INTEGER")          \
	C(t, ppid, "INTEGER") C(t, rank, "INTEGER") C(t, world_size, "INTEGER")          \
	C(t, local_rank, "INTEGER") C(t, instance_id, "TEXT") C(t, instance_type, "TEXT") \
	C(t, exe, "TEXT") C(t, command, "TEXT") C(t, label, "TEXT")                       \
	C(t, start_ns, "INTEGER") C(t, end_ns, "INTEGER") C(t, events, "INTEGER")         \
	C(t, ended, "INTEGER") C(t, clock_alignment, "TEXT")

#define COLS_THREADS(C, t)                                                               \
	C(t, id, "INTEGER PRIMARY KEY") C(t, process_id, "INTEGER NOT NULL")             \
	C(t, stream, "INTEGER") C(t, tid, "INTEGER") C(t, name, "TEXT")                  \
	C(t, first_ns, "INTEGER") C(t, last_ns, "INTEGER") C(t, events, "INTEGER")

#define COLS_TRACKS(C, t)                                                                \
	C(t, id, "INTEGER PRIMARY KEY") C(t, process_id, "INTEGER") C(t, kind, "TEXT")   \
	C(t, thread_id, "INTEGER") C(t, device, "INTEGER") C(t, stream, "TEXT")          \
	C(t, number, "INTEGER") C(t, name, "TEXT") C(t, sort_index, "INTEGER")           \
	C(t, chrome_pid, "INTEGER") C(t, chrome_tid, "INTEGER")

#define COLS_SLICES(C, t)                                                                \
	C(t, id, "INTEGER PRIMARY KEY") C(t, track_id, "INTEGER NOT NULL")               \
	C(t, process_id, "INTEGER") C(t, start_ns, "INTEGER NOT NULL")                   \
	C(t, end_ns, "INTEGER NOT NULL") C(t, name_id, "INTEGER NOT NULL")               \
	C(t, category_id, "INTEGER") C(t, depth, "INTEGER") C(t, correlation, "INTEGER") \
	C(t, flags, "INTEGER") C(t, args, "TEXT")

#define COLS_INSTANTS(C, t)                                                              \
	C(t, id, "INTEGER PRIMARY KEY") C(t, track_id, "INTEGER NOT NULL")               \
	C(t, process_id, "INTEGER") C(t, ts_ns, "INTEGER NOT NULL")                      \
	C(t, name_id, "INTEGER NOT NULL") C(t, category_id, "INTEGER") C(t, args, "TEXT")

#define COLS_ASYNC(C, t)                                                                 \
	C(t, id, "INTEGER PRIMARY KEY") C(t, track_id, "INTEGER NOT NULL")               \
	C(t, process_id, "INTEGER") C(t, start_ns, "INTEGER NOT NULL")                   \
	C(t, end_ns, "INTEGER NOT NULL") C(t, name_id, "INTEGER NOT NULL")               \
	C(t, category_id, "INTEGER") C(t, async_id, "INTEGER") C(t, flags, "INTEGER")    \
	C(t, args, "TEXT")

#define COLS_COUNTERS(C, t)                                                              \
	C(t, id, "INTEGER PRIMARY KEY") C(t, track_id, "INTEGER NOT NULL")               \
	C(t, process_id, "INTEGER") C(t, name_id, "INTEGER NOT NULL")                    \
	C(t, ts_ns, "INTEGER NOT NULL") C(t, value, "REAL")

#define COLS_SAMPLES(C, t)                                                               \
	C(t, id, "INTEGER PRIMARY KEY") C(t, track_id, "INTEGER NOT NULL")               \
	C(t, process_id, "INTEGER") C(t, ts_ns, "INTEGER NOT NULL") C(t, cpu, "INTEGER") \
	C(t, callsite_id, "INTEGER")

#define COLS_CALLSITES(C, t)                                                             \
	C(t, id, "INTEGER PRIMARY KEY") C(t, parent_id, "INTEGER")                       \
	C(t, depth, "INTEGER NOT NULL") C(t, name_id, "INTEGER NOT NULL")                \
	C(t, is_kernel, "INTEGER NOT NULL")

#define COLS_FLOWS(C, t)                                                                 \
	C(t, id, "INTEGER PRIMARY KEY") C(t, key, "TEXT") C(t, category_id, "INTEGER")   \
	C(t, name_id, "INTEGER") C(t, from_track_id, "INTEGER NOT NULL")                 \
	C(t, from_ns, "INTEGER NOT NULL") C(t, to_track_id, "INTEGER NOT NULL")          \
	C(t, to_ns, "INTEGER NOT NULL") C(t, from_slice_id, "INTEGER")                   \
	C(t, to_slice_id, "INTEGER") C(t, args, "TEXT")

/* Under --parallel, the arrows whose ends different analysis processes drew: one row per end
 * (half: 1 from, 2 to), paired by the arrow's number (flow) into flows when the parts are
 * merged (merge.c); empty, and dropped, in every database written. */
#define COLS_HALVES(C, t)                                                                \
	C(t, flow, "INTEGER NOT NULL") C(t, half, "INTEGER NOT NULL") C(t, key, "TEXT")   \
	C(t, category_id, "INTEGER") C(t, name_id, "INTEGER")                            \
	C(t, track_id, "INTEGER NOT NULL") C(t, ts_ns, "INTEGER NOT NULL")               \
	C(t, args, "TEXT")

#define COLS_DEVICE_OPS(C, t)                                                            \
	C(t, id, "INTEGER PRIMARY KEY") C(t, process_id, "INTEGER NOT NULL")             \
	C(t, device_kind, "TEXT NOT NULL") C(t, device, "INTEGER") C(t, stream, "TEXT")   \
	C(t, kind, "TEXT NOT NULL") C(t, name_id, "INTEGER NOT NULL")                    \
	C(t, start_ns, "INTEGER NOT NULL") C(t, end_ns, "INTEGER NOT NULL")              \
	C(t, bytes, "INTEGER") C(t, copy_kind, "TEXT") C(t, grid_x, "INTEGER")           \
	C(t, grid_y, "INTEGER") C(t, grid_z, "INTEGER") C(t, block_x, "INTEGER")          \
	C(t, block_y, "INTEGER") C(t, block_z, "INTEGER") C(t, shmem, "INTEGER")          \
	C(t, correlation, "INTEGER") C(t, launch_thread_id, "INTEGER")                   \
	C(t, launch_ns, "INTEGER") C(t, launch_slice_id, "INTEGER")                      \
	C(t, caller_id, "INTEGER") C(t, failed, "INTEGER") C(t, flags, "INTEGER")

#define COLS_MESSAGES(C, t)                                                              \
	C(t, id, "INTEGER PRIMARY KEY") C(t, comm, "TEXT") C(t, src_rank, "INTEGER")     \
	C(t, dst_rank, "INTEGER") C(t, tag, "INTEGER") C(t, bytes, "INTEGER")            \
	C(t, send_process_id, "INTEGER") C(t, send_thread_id, "INTEGER")                 \
	C(t, send_start_ns, "INTEGER") C(t, send_end_ns, "INTEGER")                      \
	C(t, recv_process_id, "INTEGER") C(t, recv_thread_id, "INTEGER")                 \
	C(t, recv_post_ns, "INTEGER") C(t, recv_start_ns, "INTEGER")                     \
	C(t, recv_end_ns, "INTEGER") C(t, recv_done_ns, "INTEGER") C(t, blocking, "INTEGER")

#define COLS_COLLECTIVES(C, t)                                                           \
	C(t, id, "INTEGER PRIMARY KEY") C(t, runtime, "TEXT NOT NULL")                   \
	C(t, name_id, "INTEGER NOT NULL") C(t, comm, "TEXT") C(t, seq, "INTEGER")        \
	C(t, ranks, "INTEGER") C(t, seen, "INTEGER") C(t, root_rank, "INTEGER")          \
	C(t, first_entry_ns, "INTEGER") C(t, last_entry_ns, "INTEGER")                   \
	C(t, first_exit_ns, "INTEGER") C(t, last_exit_ns, "INTEGER")                     \
	C(t, last_rank, "INTEGER") C(t, bytes, "INTEGER") C(t, alg_bytes, "REAL")        \
	C(t, bus_bytes, "REAL") C(t, count, "INTEGER") C(t, dtype, "TEXT")                \
	C(t, incomplete, "INTEGER")

#define COLS_MEMBERS(C, t)                                                               \
	C(t, id, "INTEGER PRIMARY KEY") C(t, collective_id, "INTEGER NOT NULL")          \
	C(t, process_id, "INTEGER") C(t, thread_id, "INTEGER") C(t, rank, "INTEGER")     \
	C(t, name_id, "INTEGER") C(t, entry_ns, "INTEGER") C(t, exit_ns, "INTEGER")      \
	C(t, device_start_ns, "INTEGER") C(t, device_end_ns, "INTEGER")                  \
	C(t, bytes_sent, "INTEGER") C(t, bytes_recv, "INTEGER") C(t, correlation, "INTEGER")

#define COLS_STEPS(C, t)                                                                 \
	C(t, id, "INTEGER PRIMARY KEY") C(t, process_id, "INTEGER NOT NULL")             \
	C(t, step, "INTEGER") C(t, start_ns, "INTEGER") C(t, end_ns, "INTEGER")          \
	C(t, flags, "INTEGER")

#define COLS_CLOCKS(C, t)                                                                \
	C(t, id, "INTEGER PRIMARY KEY") C(t, process_id, "INTEGER NOT NULL")             \
	C(t, measured_at, "TEXT") C(t, offset_ns, "INTEGER") C(t, round_trip_ns, "INTEGER") \
	C(t, reference_process_id, "INTEGER") C(t, reference_host, "TEXT")               \
	C(t, reference_rank, "INTEGER") C(t, applied, "TEXT")

/* The diagnosis (--diagnose; render/sqlite/diagnosis.c), its parts of time in the order
 * of diagnose/timeline.h's categories. */
#define COLS_DIAG_PARTS(C, t)                                                            \
	C(t, compute_ns, "INTEGER") C(t, copy_ns, "INTEGER") C(t, wait_ns, "INTEGER")     \
	C(t, collective_ns, "INTEGER") C(t, runtime_ns, "INTEGER") C(t, host_ns, "INTEGER") \
	C(t, cpu_wait_ns, "INTEGER") C(t, idle_ns, "INTEGER")

#define COLS_DSPLITS(C, t)                                                               \
	C(t, id, "INTEGER PRIMARY KEY") C(t, process_id, "INTEGER NOT NULL")             \
	C(t, step, "INTEGER") C(t, start_ns, "INTEGER") C(t, end_ns, "INTEGER")          \
	COLS_DIAG_PARTS(C, t)

#define COLS_DSTEPS(C, t)                                                                \
	C(t, step, "INTEGER PRIMARY KEY") C(t, ranks, "INTEGER") C(t, start_ns, "INTEGER") \
	C(t, end_ns, "INTEGER") C(t, longest_ns, "INTEGER")                              \
	C(t, longest_process_id, "INTEGER") C(t, compute_max_ns, "INTEGER")              \
	C(t, compute_mean_ns, "INTEGER") C(t, compute_max_process_id, "INTEGER")         \
	C(t, compute_min_process_id, "INTEGER") C(t, wait_max_ns, "INTEGER")             \
	C(t, wait_mean_ns, "INTEGER") C(t, wait_max_process_id, "INTEGER")               \
	C(t, wait_min_process_id, "INTEGER") C(t, late_start_ns, "INTEGER")              \
	C(t, slow, "INTEGER") C(t, cause, "TEXT") COLS_DIAG_PARTS(C, t)

#define COLS_DPATH(C, t)                                                                 \
	C(t, id, "INTEGER PRIMARY KEY") C(t, step, "INTEGER NOT NULL")                   \
	C(t, link, "INTEGER NOT NULL") C(t, process_id, "INTEGER")                       \
	C(t, start_ns, "INTEGER") C(t, end_ns, "INTEGER") C(t, part, "TEXT")             \
	C(t, part_ns, "INTEGER") C(t, top_id, "INTEGER") C(t, after_id, "INTEGER")       \
	C(t, via, "INTEGER") C(t, via_site_id, "INTEGER") C(t, via_seq, "INTEGER")       \
	C(t, via_comm, "TEXT") C(t, via_waiters, "INTEGER") C(t, via_waited_ns, "INTEGER")

#define COLS_DWAITS(C, t)                                                                \
	C(t, id, "INTEGER PRIMARY KEY") C(t, kind, "TEXT NOT NULL")                      \
	C(t, process_id, "INTEGER") C(t, comm, "TEXT") C(t, site_id, "INTEGER")           \
	C(t, caller_id, "INTEGER") C(t, count, "INTEGER") C(t, ns, "INTEGER")

#define COLS_DFINDINGS(C, t)                                                             \
	C(t, rank_order, "INTEGER PRIMARY KEY") C(t, kind, "TEXT NOT NULL")              \
	C(t, cost_ns, "INTEGER") C(t, process_id, "INTEGER") C(t, step, "INTEGER")       \
	C(t, start_ns, "INTEGER") C(t, end_ns, "INTEGER") C(t, site_id, "INTEGER")       \
	C(t, caller_id, "INTEGER") C(t, comm, "TEXT") C(t, instances, "INTEGER")         \
	C(t, text, "TEXT")                                                               \
	C(t, look, "TEXT")

/* Column numbers for binding: SLICES_id = 1, SLICES_track_id = 2... */
#define SQL_COL_ENUM(t, col, type) t##_##col,
#define SQL_TABLE_ENUM(ID, name) enum { ID##_0_, COLS_##ID(SQL_COL_ENUM, ID) ID##_NCOLS_ };
SQL_TABLES(SQL_TABLE_ENUM)
#undef SQL_TABLE_ENUM

enum stmt_id {
#define SQL_STMT_ENUM(ID, name) ST_##ID,
	SQL_TABLES(SQL_STMT_ENUM)
#undef SQL_STMT_ENUM
	ST_COUNT
};

struct sqldb;

/* Creates every table (no index: stmts_indexes makes them once the rows are in); -1 on error. */
int stmts_create_tables(struct sqldb *d);
/* Prepares every insert; -1 on error. */
int stmts_prepare(struct sqldb *d);
void stmts_finalize(struct sqldb *d);
/* The table's name (for messages). */
const char *stmts_table(enum stmt_id id);
/* Its number of columns, and the name of column c (from 0). */
unsigned stmts_ncols(enum stmt_id id);
const char *stmts_column(enum stmt_id id, unsigned c);

#endif
