/* render/sqlite/facts.c — the trace's domain facts as rows: processes and threads (at the
 * end, when their counts are known), device operations and collectives in the neutral terms
 * of model/facts.h, MPI messages, training steps and the clock offsets alignment measured.
 * Reads the model's structs only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "out.h"
#include "../../util/satarith.h"
#include "../../model/facts.h"

static int proc_id(const struct proc *p)
{
	return p ? p->index : 0;
}

static void hex(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "0x%" PRIx64, v);
}

/* Threads are numbered per process, in process order: base + stream id. */
void sqlite_facts_begin(struct sqlout *o, const struct trace *tr)
{
	int max = 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->index > max)
			max = tr->procs[i]->index;
	o->nprocs = (size_t)max + 1;
	o->thread_base = xcalloc(o->nprocs, sizeof(*o->thread_base));
	int64_t next = 1;
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (p->index < 0)
			continue;
		o->thread_base[p->index] = next;
		next += (int64_t)p->nstreams;
	}
}

static void devop(void *ctx, const struct fact_devop *f)
{
	struct sqlout *o = ctx;
	struct sqldb *d = &o->db;
	char stream[24];
	hex(stream, sizeof(stream), f->stream);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_process_id, f->proc->index);
	sq_text(d, ST_DEVICE_OPS, DEVICE_OPS_device_kind, f->device_kind, -1);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_device, f->device);
	sq_text(d, ST_DEVICE_OPS, DEVICE_OPS_stream, f->has_stream ? stream : NULL, -1);
	sq_text(d, ST_DEVICE_OPS, DEVICE_OPS_kind, f->kind, -1);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_name_id, f->name);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_start_ns, f->t0);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_end_ns, f->t1);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_bytes, f->has_bytes, (int64_t)f->bytes);
	sq_text(d, ST_DEVICE_OPS, DEVICE_OPS_copy_kind, f->copy_kind, -1);
	const struct tprof_launch_dims *g = f->dims;
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_grid_x, g != NULL, g ? g->grid[0] : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_grid_y, g != NULL, g ? g->grid[1] : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_grid_z, g != NULL, g ? g->grid[2] : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_block_x, g != NULL, g ? g->block[0] : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_block_y, g != NULL, g ? g->block[1] : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_block_z, g != NULL, g ? g->block[2] : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_shmem, g != NULL, g ? (int64_t)g->shmem : 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_correlation, f->corr != 0, (int64_t)f->corr);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_launch_thread_id, f->launcher != NULL,
	       sqlout_thread_id(o, f->launcher));
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_launch_ns, f->launcher != NULL, f->launch_ns);
	sq_text(d, ST_DEVICE_OPS, DEVICE_OPS_launch_slice_id, NULL, 0);
	sq_opt(d, ST_DEVICE_OPS, DEVICE_OPS_caller_id, f->caller != 0, f->caller);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_failed, f->failed);
	sq_i64(d, ST_DEVICE_OPS, DEVICE_OPS_flags, f->flags);
	sqldb_insert(d, ST_DEVICE_OPS);
}

static void member(struct sqlout *o, int64_t coll, const struct fact_member *m)
{
	struct sqldb *d = &o->db;
	sq_i64(d, ST_MEMBERS, MEMBERS_collective_id, coll);
	sq_opt(d, ST_MEMBERS, MEMBERS_process_id, m->proc != NULL, proc_id(m->proc));
	sq_opt(d, ST_MEMBERS, MEMBERS_thread_id, m->thread != NULL, sqlout_thread_id(o, m->thread));
	sq_i64(d, ST_MEMBERS, MEMBERS_rank, m->rank);
	sq_opt(d, ST_MEMBERS, MEMBERS_name_id, m->name != 0, m->name);
	sq_opt(d, ST_MEMBERS, MEMBERS_entry_ns, m->has_call, m->entry);
	sq_opt(d, ST_MEMBERS, MEMBERS_exit_ns, m->has_call, m->exit);
	sq_opt(d, ST_MEMBERS, MEMBERS_device_start_ns, m->has_device, m->dev_t0);
	sq_opt(d, ST_MEMBERS, MEMBERS_device_end_ns, m->has_device, m->dev_t1);
	sq_i64(d, ST_MEMBERS, MEMBERS_bytes_sent, (int64_t)m->bytes_sent);
	sq_i64(d, ST_MEMBERS, MEMBERS_bytes_recv, (int64_t)m->bytes_recv);
	sq_opt(d, ST_MEMBERS, MEMBERS_correlation, m->corr != 0, (int64_t)m->corr);
	sqldb_insert(d, ST_MEMBERS);
}

static void collective(void *ctx, const struct fact_coll *f)
{
	struct sqlout *o = ctx;
	struct sqldb *d = &o->db;
	char comm[24];
	hex(comm, sizeof(comm), f->comm);
	int64_t id = sqlout_row_id(o, ST_COLLECTIVES);
	sq_i64(d, ST_COLLECTIVES, COLLECTIVES_id, id);
	sq_text(d, ST_COLLECTIVES, COLLECTIVES_runtime, f->runtime, -1);
	sq_i64(d, ST_COLLECTIVES, COLLECTIVES_name_id, f->name);
	sq_text(d, ST_COLLECTIVES, COLLECTIVES_comm, comm, -1);
	sq_i64(d, ST_COLLECTIVES, COLLECTIVES_seq, f->seq);
	sq_i64(d, ST_COLLECTIVES, COLLECTIVES_ranks, f->ranks);
	sq_i64(d, ST_COLLECTIVES, COLLECTIVES_seen, f->seen);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_root_rank, f->root >= 0, f->root);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_first_entry_ns, f->has_times, f->first_entry);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_last_entry_ns, f->has_times, f->last_entry);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_first_exit_ns, f->has_times, f->first_exit);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_last_exit_ns, f->has_times, f->last_exit);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_last_rank, f->last_rank >= 0, f->last_rank);
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_bytes, !f->has_bw, (int64_t)f->bytes);
	if (f->has_bw) {
		sq_f64(d, ST_COLLECTIVES, COLLECTIVES_alg_bytes, f->alg_bytes);
		sq_f64(d, ST_COLLECTIVES, COLLECTIVES_bus_bytes, f->bus_bytes);
	} else {
		sq_text(d, ST_COLLECTIVES, COLLECTIVES_alg_bytes, NULL, 0);
		sq_text(d, ST_COLLECTIVES, COLLECTIVES_bus_bytes, NULL, 0);
	}
	sq_opt(d, ST_COLLECTIVES, COLLECTIVES_count, f->has_count, (int64_t)f->count);
	sq_text(d, ST_COLLECTIVES, COLLECTIVES_dtype, f->has_count ? f->dtype : NULL, -1);
	sq_i64(d, ST_COLLECTIVES, COLLECTIVES_incomplete, f->incomplete);
	sqldb_insert(d, ST_COLLECTIVES);
	for (uint32_t i = 0; i < f->nm; i++)
		member(o, id, &f->m[i]);
}

static void message(struct sqlout *o, const struct message_info *m)
{
	struct sqldb *d = &o->db;
	char comm[24];
	hex(comm, sizeof(comm), m->comm_id);
	sq_text(d, ST_MESSAGES, MESSAGES_comm, comm, -1);
	sq_i64(d, ST_MESSAGES, MESSAGES_src_rank, m->src);
	sq_i64(d, ST_MESSAGES, MESSAGES_dst_rank, m->dst);
	sq_i64(d, ST_MESSAGES, MESSAGES_tag, m->tag);
	sq_i64(d, ST_MESSAGES, MESSAGES_bytes, (int64_t)m->bytes);
	sq_opt(d, ST_MESSAGES, MESSAGES_send_process_id, m->sproc != NULL, proc_id(m->sproc));
	sq_opt(d, ST_MESSAGES, MESSAGES_send_thread_id, m->sthread != NULL,
	       sqlout_thread_id(o, m->sthread));
	sq_i64(d, ST_MESSAGES, MESSAGES_send_start_ns, m->send_t0);
	sq_i64(d, ST_MESSAGES, MESSAGES_send_end_ns, m->send_t1);
	sq_opt(d, ST_MESSAGES, MESSAGES_recv_process_id, m->rproc != NULL, proc_id(m->rproc));
	sq_opt(d, ST_MESSAGES, MESSAGES_recv_thread_id, m->rthread != NULL,
	       sqlout_thread_id(o, m->rthread));
	sq_i64(d, ST_MESSAGES, MESSAGES_recv_post_ns, m->post_t0);
	sq_i64(d, ST_MESSAGES, MESSAGES_recv_start_ns, m->recv_t0);
	sq_i64(d, ST_MESSAGES, MESSAGES_recv_end_ns, m->recv_t1);
	sq_i64(d, ST_MESSAGES, MESSAGES_recv_done_ns, m->recv_done);
	sq_i64(d, ST_MESSAGES, MESSAGES_blocking, m->blocking);
	sqldb_insert(d, ST_MESSAGES);
}

static void step(struct sqlout *o, const struct event *ev)
{
	struct sqldb *d = &o->db;
	sq_i64(d, ST_STEPS, STEPS_process_id, ev->proc->index);
	sq_i64(d, ST_STEPS, STEPS_step, (int64_t)ev->step);
	sq_i64(d, ST_STEPS, STEPS_start_ns, ev->t0);
	sq_i64(d, ST_STEPS, STEPS_end_ns, ev->t1);
	sq_i64(d, ST_STEPS, STEPS_flags, ev->flags);
	sqldb_insert(d, ST_STEPS);
}

void sqlite_facts_event(struct sqlout *o, const struct event *ev)
{
	if (o->failed || o->db.failed)
		return;
	switch (ev->kind) {
	case EV_MESSAGE:
		message(o, ev->msg);
		return;
	case EV_STEP:
		step(o, ev);
		return;
	default: {
		const struct facts_sink sink = { o, devop, collective };
		facts_event(o->rts, ev, &sink);
		return;
	}
	}
}

/* ---- at the end: processes, threads, clock offsets ---------------------------------------- */

static const char *str_or_null(uint32_t id)
{
	return id ? strings_get(id) : NULL;
}

static void process(struct sqlout *o, const struct proc *p)
{
	static const char *const verdicts[] = { [CSYNC_APPLIED] = "applied",
						[CSYNC_SHARED_CLOCK] = "shared clock",
						[CSYNC_NO_REFERENCE] = "no reference" };
	struct sqldb *d = &o->db;
	char inst[24], label[512];
	snprintf(inst, sizeof(inst), "%016" PRIx64, p->instance);
	char *cmd = proc_command(p, 4096);
	const char *itype = str_or_null(p->instance_type ? p->instance_type : p->nrt_instance);
	sq_i64(d, ST_PROCESSES, PROCESSES_id, p->index);
	sq_text(d, ST_PROCESSES, PROCESSES_host, str_or_null(p->host), -1);
	sq_i64(d, ST_PROCESSES, PROCESSES_pid, p->pid);
	sq_i64(d, ST_PROCESSES, PROCESSES_ppid, p->ppid);
	sq_opt(d, ST_PROCESSES, PROCESSES_rank, p->rank >= 0, p->rank);
	sq_opt(d, ST_PROCESSES, PROCESSES_world_size, p->world_size > 0, p->world_size);
	sq_opt(d, ST_PROCESSES, PROCESSES_local_rank, p->local_rank >= 0, p->local_rank);
	sq_text(d, ST_PROCESSES, PROCESSES_instance_id, p->instance ? inst : NULL, -1);
	sq_text(d, ST_PROCESSES, PROCESSES_instance_type, itype, -1);
	sq_text(d, ST_PROCESSES, PROCESSES_exe, str_or_null(p->exe), -1);
	sq_text(d, ST_PROCESSES, PROCESSES_command, cmd && *cmd ? cmd : NULL, -1);
	sq_text(d, ST_PROCESSES, PROCESSES_label, proc_label(p, label, sizeof(label)), -1);
	sq_i64(d, ST_PROCESSES, PROCESSES_start_ns, sat_sub(p->start_ns, o->tr_start));
	sq_i64(d, ST_PROCESSES, PROCESSES_end_ns, sat_sub(p->end_ns, o->tr_start));
	sq_i64(d, ST_PROCESSES, PROCESSES_events, (int64_t)p->events);
	sq_i64(d, ST_PROCESSES, PROCESSES_ended, p->ended);
	int v = p->csync_verdict;
	sq_text(d, ST_PROCESSES, PROCESSES_clock_alignment, v > 0 && v < 4 ? verdicts[v] : NULL, -1);
	sqldb_insert(d, ST_PROCESSES);
	free(cmd);
}

static void threads(struct sqlout *o, const struct proc *p)
{
	struct sqldb *d = &o->db;
	for (size_t k = 1; k < p->nstreams; k++) {
		const struct thread *th = p->threads[k];
		if (!th)
			continue;
		sq_i64(d, ST_THREADS, THREADS_id, sqlout_thread_id(o, th));
		sq_i64(d, ST_THREADS, THREADS_process_id, p->index);
		sq_i64(d, ST_THREADS, THREADS_stream, thread_stream_id(th));
		sq_opt(d, ST_THREADS, THREADS_tid, th->tid >= 0, th->tid);
		sq_text(d, ST_THREADS, THREADS_name, str_or_null(th->name), -1);
		int any = th->events != 0;
		sq_opt(d, ST_THREADS, THREADS_first_ns, any, sat_sub(th->first_ns, o->tr_start));
		sq_opt(d, ST_THREADS, THREADS_last_ns, any, sat_sub(th->last_ns, o->tr_start));
		sq_i64(d, ST_THREADS, THREADS_events, (int64_t)th->events);
		sqldb_insert(d, ST_THREADS);
	}
}

static void clocks(struct sqlout *o, const struct proc *p)
{
	static const char *const when[] = { "MPI_Init", "MPI_Finalize" };
	static const char *const applied[] = { [CSYNC_APPLIED] = "yes",
					       [CSYNC_SHARED_CLOCK] = "no (shared clock)",
					       [CSYNC_NO_REFERENCE] = "no (no reference)" };
	struct sqldb *d = &o->db;
	for (size_t k = 0; k < p->ncsync; k++) {
		const struct csync *c = &p->csync[k];
		int known = p->csync_verdict != CSYNC_NO_REFERENCE;
			sq_i64(d, ST_CLOCKS, CLOCKS_process_id, p->index);
		sq_text(d, ST_CLOCKS, CLOCKS_measured_at, c->when < 2 ? when[c->when] : NULL, -1);
		sq_opt(d, ST_CLOCKS, CLOCKS_offset_ns, known, c->delta);
		sq_opt(d, ST_CLOCKS, CLOCKS_round_trip_ns, known, c->rtt_ns);
		sq_opt(d, ST_CLOCKS, CLOCKS_reference_process_id, p->csync_ref != NULL,
		       p->csync_ref ? p->csync_ref->index : 0);
		sq_text(d, ST_CLOCKS, CLOCKS_reference_host, str_or_null(c->ref_host), -1);
		sq_i64(d, ST_CLOCKS, CLOCKS_reference_rank, c->ref_rank);
		int v = p->csync_verdict;
		sq_text(d, ST_CLOCKS, CLOCKS_applied, v > 0 && v < 4 ? applied[v] : NULL, -1);
		sqldb_insert(d, ST_CLOCKS);
	}
}

void sqlite_facts_end(struct sqlout *o, const struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		process(o, p);
		threads(o, p);
		clocks(o, p);
	}
}
