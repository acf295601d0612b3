/* render/sqlite/schema.c — what the database gets once every row is in: the links SQL finds
 * faster than the renderer could keep them (each device operation's launching call, the
 * slices each flow joins), the indexes, made after the rows so that loading never updates
 * them, and views for common questions (docs/sqlite-schema.md).  Under --parallel each
 * analysis process links the rows of its part, before the merge (merge.c), and the first
 * then only the arrows whose ends two parts held. */
#include <stdio.h>

#include "out.h"
#include "../../parallel/par.h"

/* With depth last, the innermost slice around a time is the first one the index gives when
 * read backwards from it: no sort of the track's earlier slices for each flow end. */
static const char by_track[] =
	"CREATE INDEX slices_by_track ON slices (track_id, start_ns, depth);";

/* Only when some slice has a correlation: otherwise the index would cost a pass over every
 * slice for nothing, and no launching call could be found by it anyway. */
static const char by_correlation[] =
	"CREATE INDEX slices_by_correlation ON slices (process_id, correlation)"
	"  WHERE correlation IS NOT NULL;";

static const char launch_by_correlation[] =
	/* the call that launched a device operation: its thread's slice with the same
	 * correlation in the same process */
	"UPDATE device_ops SET launch_slice_id = ("
	"  SELECT s.id FROM slices s JOIN tracks t ON t.id = s.track_id"
	"  WHERE s.process_id = device_ops.process_id AND s.correlation = device_ops.correlation"
	"    AND t.kind = 'thread' ORDER BY s.id LIMIT 1)"
	"  WHERE correlation IS NOT NULL;";

/* without a correlation (an NRT execution): the slice its thread's track has at its launch */
static const char launch_by_time[] =
	"UPDATE device_ops SET launch_slice_id = ("
	"  SELECT s.id FROM tracks t JOIN slices s ON s.track_id = t.id"
	"  WHERE t.thread_id = device_ops.launch_thread_id AND s.start_ns = device_ops.launch_ns"
	"  ORDER BY s.depth DESC LIMIT 1)"
	"  WHERE correlation IS NULL AND launch_thread_id IS NOT NULL;";

/* a flow's ends: the innermost slice of its track around each end (the flows from `since`
 * on: their ids are larger) */
static const char flow_ends[] =
	"UPDATE flows SET"
	"  from_slice_id = (SELECT id FROM slices WHERE track_id = flows.from_track_id"
	"    AND start_ns <= flows.from_ns AND end_ns >= flows.from_ns"
	"    ORDER BY start_ns DESC, depth DESC LIMIT 1),"
	"  to_slice_id = (SELECT id FROM slices WHERE track_id = flows.to_track_id"
	"    AND start_ns <= flows.to_ns AND end_ns >= flows.to_ns"
	"    ORDER BY start_ns DESC, depth DESC LIMIT 1)"
	"  WHERE id > %lld;";

static const char indexes[] =
	"CREATE INDEX device_ops_by_name ON device_ops (name_id);"
	"CREATE INDEX device_ops_by_correlation ON device_ops (process_id, correlation)"
	"  WHERE correlation IS NOT NULL;"
	"CREATE INDEX members_by_collective ON collective_members (collective_id);"
	"CREATE INDEX counters_by_track ON counters (track_id, ts_ns);"
	"CREATE INDEX samples_by_track ON samples (track_id, ts_ns);";

static const char views[] =
	/* CPU samples with the function they were in (their innermost frame) and its track */
	"CREATE VIEW named_samples AS"
	"  SELECT s.id, s.track_id, t.name AS track, t.thread_id, s.process_id, s.ts_ns, s.cpu,"
	"    s.callsite_id, n.string AS function, c.is_kernel, c.depth + 1 AS frames"
	"  FROM samples s LEFT JOIN callsites c ON c.id = s.callsite_id"
	"    LEFT JOIN strings n ON n.id = c.name_id LEFT JOIN tracks t ON t.id = s.track_id;"
	/* per function: the samples it was running in (self), and those it was on the stack
	 * of (total: once per sample however often it recurses) */
	"CREATE VIEW sample_functions AS"
	"  WITH RECURSIVE up(sample, callsite) AS ("
	"      SELECT id, callsite_id FROM samples WHERE callsite_id IS NOT NULL"
	"      UNION ALL SELECT up.sample, c.parent_id FROM up JOIN callsites c"
	"        ON c.id = up.callsite AND c.parent_id IS NOT NULL),"
	"    total AS (SELECT c.name_id, c.is_kernel, COUNT(DISTINCT up.sample) AS n FROM up"
	"      JOIN callsites c ON c.id = up.callsite GROUP BY c.name_id, c.is_kernel),"
	"    self AS (SELECT c.name_id, c.is_kernel, COUNT(*) AS n FROM samples s"
	"      JOIN callsites c ON c.id = s.callsite_id GROUP BY c.name_id, c.is_kernel)"
	"  SELECT n.string AS function, total.is_kernel, IFNULL(self.n, 0) AS self_samples,"
	"    total.n AS total_samples"
	"  FROM total JOIN strings n ON n.id = total.name_id"
	"    LEFT JOIN self ON self.name_id = total.name_id AND self.is_kernel = total.is_kernel;"
	/* slices with their names, category, duration and track */
	"CREATE VIEW named_slices AS"
	"  SELECT s.id, s.track_id, t.name AS track, t.kind AS track_kind, s.process_id,"
	"    s.start_ns, s.end_ns, s.end_ns - s.start_ns AS dur_ns, n.string AS name,"
	"    c.string AS category, s.depth, s.correlation, s.flags, s.args"
	"  FROM slices s JOIN strings n ON n.id = s.name_id"
	"    LEFT JOIN strings c ON c.id = s.category_id LEFT JOIN tracks t ON t.id = s.track_id;"
	/* slices by track kind, category and name: on thread tracks, the API calls (category
	 * "hip", "mpi"...) and the ranges, as the summary's tables count them */
	"CREATE VIEW slice_summary AS"
	"  SELECT track_kind, category, name, COUNT(*) AS calls, SUM(dur_ns) AS total_ns,"
	"    AVG(dur_ns) AS avg_ns, MIN(dur_ns) AS min_ns, MAX(dur_ns) AS max_ns"
	"  FROM named_slices GROUP BY track_kind, category, name;"
	/* device operations with their names, duration and launching call */
	"CREATE VIEW named_device_ops AS"
	"  SELECT d.*, d.end_ns - d.start_ns AS dur_ns, n.string AS name, l.string AS launched_by"
	"  FROM device_ops d JOIN strings n ON n.id = d.name_id"
	"    LEFT JOIN slices s ON s.id = d.launch_slice_id"
	"    LEFT JOIN strings l ON l.id = s.name_id;"
	"CREATE VIEW kernel_summary AS"
	"  SELECT name, COUNT(*) AS calls, SUM(dur_ns) AS total_ns, AVG(dur_ns) AS avg_ns,"
	"    MIN(dur_ns) AS min_ns, MAX(dur_ns) AS max_ns"
	"  FROM named_device_ops WHERE kind = 'kernel' GROUP BY name;"
	/* each device's busy time: the union of its operations' spans, and its share of the
	 * covered time */
	"CREATE VIEW device_busy AS"
	"  WITH o AS (SELECT process_id, device_kind, device, start_ns, end_ns,"
	"      MAX(end_ns) OVER (PARTITION BY process_id, device_kind, device"
	"        ORDER BY start_ns, end_ns ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
	"        AS before FROM device_ops),"
	"    i AS (SELECT *, SUM(before IS NULL OR start_ns > before) OVER ("
	"        PARTITION BY process_id, device_kind, device ORDER BY start_ns, end_ns"
	"        ROWS UNBOUNDED PRECEDING) AS island FROM o),"
	"    u AS (SELECT process_id, device_kind, device, COUNT(*) AS n,"
	"        MAX(end_ns) - MIN(start_ns) AS busy FROM i"
	"        GROUP BY process_id, device_kind, device, island)"
	"  SELECT process_id, device_kind, device, SUM(n) AS ops, SUM(busy) AS busy_ns,"
	"    100.0 * SUM(busy) / NULLIF((SELECT value FROM meta WHERE key = 'covered_ns'), 0)"
	"      AS busy_pct"
	"  FROM u GROUP BY process_id, device_kind, device;"
	"CREATE VIEW mpi_message_sizes AS"
	"  SELECT bytes, COUNT(*) AS messages, SUM(bytes) AS total_bytes FROM mpi_messages"
	"  GROUP BY bytes;"
	/* each member's wait in a collective: from its entry to the last member's */
	"CREATE VIEW collective_waits AS"
	"  SELECT c.id AS collective_id, c.runtime, n.string AS name, c.comm, c.seq, m.rank,"
	"    m.process_id, m.entry_ns, c.last_entry_ns - m.entry_ns AS wait_ns,"
	"    m.device_start_ns, m.device_end_ns"
	"  FROM collective_members m JOIN collectives c ON c.id = m.collective_id"
	"    JOIN strings n ON n.id = c.name_id WHERE m.entry_ns IS NOT NULL;"
	/* NCCL collectives by operation and size: nccl-tests' bandwidths from the average of
	 * every rank's device time (GB/s of 1e9 bytes) */
	"CREATE VIEW nccl_bandwidth AS"
	"  SELECT n.string AS name, c.ranks, c.alg_bytes, c.count, c.dtype,"
	"    COUNT(DISTINCT c.id) AS calls, COUNT(m.device_start_ns) AS timed_parts,"
	"    SUM(m.device_end_ns - m.device_start_ns) AS total_ns,"
	"    AVG(m.device_end_ns - m.device_start_ns) AS avg_ns,"
	"    c.alg_bytes / AVG(m.device_end_ns - m.device_start_ns) AS algbw_GBps,"
	"    c.bus_bytes / AVG(m.device_end_ns - m.device_start_ns) AS busbw_GBps"
	"  FROM collectives c JOIN strings n ON n.id = c.name_id"
	"    JOIN collective_members m ON m.collective_id = c.id"
	"  WHERE c.runtime = 'nccl' AND c.alg_bytes IS NOT NULL"
	"  GROUP BY c.name_id, c.alg_bytes, c.bus_bytes, c.ranks, c.count, c.dtype;";

static int flows_linked(struct sqlout *o, int64_t since)
{
	char sql[sizeof(flow_ends) + 24];
	snprintf(sql, sizeof(sql), flow_ends, (long long)since);
	return sqldb_exec(&o->db, sql);
}

int sqlite_schema_links(struct sqlout *o)
{
	if (sqldb_exec(&o->db, by_track) < 0 ||
	    (o->corr_slices && (sqldb_exec(&o->db, by_correlation) < 0 ||
				sqldb_exec(&o->db, launch_by_correlation) < 0)) ||
	    sqldb_exec(&o->db, launch_by_time) < 0 || flows_linked(o, 0) < 0)
		return -1;
	/* the first analysis process copies the others' parts in after: without the indexes */
	if (par_size() > 1 && par_rank() == 0 &&
	    (sqldb_exec(&o->db, "DROP INDEX slices_by_track") < 0 ||
	     (o->corr_slices && sqldb_exec(&o->db, "DROP INDEX slices_by_correlation") < 0)))
		return -1;
	return 0;
}

int sqlite_schema_finish(struct sqlout *o, int64_t flows_since)
{
	if (flows_since < 0 && sqlite_schema_links(o) < 0)
		return -1;
	if (flows_since >= 0 &&
	    (sqldb_exec(&o->db, by_track) < 0 ||
	     (o->corr_slices && sqldb_exec(&o->db, by_correlation) < 0) ||
	     flows_linked(o, flows_since) < 0))
		return -1;
	if (sqldb_exec(&o->db, indexes) < 0 || sqldb_exec(&o->db, views) < 0)
		return -1;
	return 0;
}
