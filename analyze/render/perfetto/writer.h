/* render/perfetto/writer.h — the Perfetto writer's state, shared by its parts: sequences and
 * packets (seq.h), packets held back to be written in time order (hold.h), tracks and their
 * descriptors (layout.h), arguments as debug annotations (annot.h), CPU samples (samples.h)
 * and the renderer of the scene (perfetto.c). */
#ifndef TPROF_ANALYZE_PERFETTO_WRITER_H
#define TPROF_ANALYZE_PERFETTO_WRITER_H

#include "../../model/scene.h"
#include "../../util/hindex.h"
#include "../callsites.h"
#include "intern.h"
#include "out.h"
#include "proto.h"
#include "wire.h"

/* A packet sequence: one per track, its events written in the order they come, or held back
 * while ranges are open on its thread and then written in time order (hold.h).  Its clock
 * counts in deltas from the packet before (a sequence-scoped incremental clock); a packet
 * earlier than that gives its time in full on the trace clock instead. */
struct pf_seq {
	uint32_t id;                     /* trusted_packet_sequence_id */
	struct proto_buf b;                     /* packets not yet handed to the output */
	int64_t last;                    /* the incremental clock's value, ns */
	uint64_t cats;                   /* category iids 1..63 defined on it */
	struct pf_idset interned;        /* (kind << 56 | iid) defined on it, categories aside */
	uint32_t recent[64];             /* event name ids known defined, by id % 64 */
	int busy;                        /* has filled a bundle: gets a bundle-sized buffer */
	/* packets held back until the ranges around them close (hold.h) */
	struct proto_buf hold;                  /* their fields after the sequence id */
	struct pf_node *nodes;           /* in the order they came: children before parents */
	uint32_t nnodes, capnodes;
	uint32_t *tops;                  /* the nodes no later one has taken in, in order */
	uint32_t ntops, captops;
};

/* A packet held back: an event (a slice's begin, whose end comes with it), an instant, a CPU
 * sample; with the held nodes it encloses (its subtree, just before it: size counts them
 * and itself). */
struct pf_node {
	int64_t t0, t1;
	uint32_t off, len;               /* its fields in the sequence's hold buffer */
	uint32_t size;
	uint32_t slice;                  /* 1: a slice, whose end (at t1) is written after its
					  * subtree */
};

/* What an iid names (struct pf_seq's set, the pending list of a packet). */
enum pf_ikind { IK_NAME = 1, IK_FLOWNAME, IK_CAT, IK_KEY, IK_STRVAL,
		/* the samples' (samples.c): written by it, not through the pending list */
		IK_FUNC, IK_FRAME, IK_CALLSTACK, IK_MAPPING };

/* A track events go to: a track of the scene, a counter, a lane of cross-thread ranges. */
struct pf_track {
	uint64_t uuid;
	struct pf_seq *seq;
	int64_t pid;                     /* the scene's process (or group) it is under */
	int64_t busy_until;              /* lanes: the end of their latest range */
};

/* A track of the scene recently used, and its track here. */
struct pf_recent {
	struct track key;
	struct pf_track *t;
};

/* (a, b) -> pointer: the entries in the order put, found through the hash index. */
struct pf_map {
	struct pf_map_entry {
		uint64_t a, b;
		void *v;
	} *e;
	size_t n, cap;
	struct hindex by_key;            /* entry numbers (index + 1) by (a, b) */
};

struct perfetto_writer {
	char *path;
	struct pf_out *out;
	int failed;
	struct proto_buf meta;          /* descriptors, written before any bundle after them */
	struct pf_seq **seqs;
	size_t nseqs;
	size_t held;                     /* bytes in all sequences' buffers */
	size_t packet_from;              /* its sequence's length when the packet began */
	struct pf_map tracks;            /* (kind, pid, tid or key) -> struct pf_track */
	struct pf_recent recent[256];    /* recently used tracks, by a hash of (pid, tid) */
	/* string constants (categories, flow names) seen, by address, with their number */
#define PF_CONSTS 32
	struct pf_const {
		const char *s;
		const struct strset *map;
		uint32_t id;
	} consts[PF_CONSTS];
	uint32_t ncounters, nlanes;
	struct callsites callsites;      /* the samples' stacks (samples.c) */
	uint32_t *chain;                 /* a callstack being defined, innermost first */
	size_t capchain;
	uint32_t unknown_fn;             /* the name of a frame with none */
	struct strset cats, keys, names, counters;
	/* the iids the packet being written defines */
	struct pf_pending {
		uint8_t kind;
		uint64_t iid;
	} pending[2 * SCENE_MAX_ARGS + 8];
	unsigned npending;
	size_t heldback;                 /* bytes all sequences hold back (hold.c) */
	uint32_t *walk;                  /* held packets being ordered (hold.c) */
	struct pf_put {
		int64_t ts;
		uint32_t e, k;           /* node (| end), place in the walk */
	} *puts;
	size_t capwalk;
};

#endif
