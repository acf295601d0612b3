/* diagnose/timeline.h — one process's time as the diagnosis sees it: spans of what it did
 * (its device's kernels and copies, waits for other processes, its host threads' calls and
 * scheduling states), each of a category, and the split of any interval into the categories
 * (timeline.c): each instant goes to the first category in the order below that a span
 * covers there, so that the parts add up to the interval.  Spans are kept until the time
 * they cover has been diagnosed (timeline_forget): memory follows the steps in progress. */
#ifndef TPROF_ANALYZE_DIAGNOSE_TIMELINE_H
#define TPROF_ANALYZE_DIAGNOSE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

/* In the order an instant is given to them. */
enum cat {
	CAT_COMPUTE,     /* a kernel (or graph) of the process ran on a device */
	CAT_COPY,        /* a copy or memset ran, and no kernel */
	CAT_WAIT,        /* waiting for another process: in an MPI call (late sender or
			  * receiver, a collective before its last member came) or in a device
			  * collective before the last rank's kernel started */
	CAT_COLLECTIVE,  /* a device collective moving data, all ranks there */
	CAT_RUNTIME,     /* a host thread in a runtime call (HIP, Neuron, MPI, NCCL...), the
			  * device idle */
	CAT_HOST,        /* outside any call: a thread running, or (without thread states)
			  * nothing known but that no call was in progress */
	CAT_CPU_WAIT,    /* outside any call, a thread ready to run and waiting for a CPU */
	CAT_IDLE,        /* outside any call, every thread sleeping or blocked */
	CATS,
	/* Not categories: spans of what the launches show, summed alone (timeline_sum). */
	TL_STARVED = CATS,  /* a stream idle until the host launched its next kernel */
	TL_COPY_HELD,       /* a kernel held back on its stream by a copy before it */
	TL_COMM,            /* a host thread in a call that talks to other processes (MPI,
			     * NCCL: struct runtime's communication), or a device collective */
	TL_KINDS
};

/* Its JSON key ("compute") and its words in text ("compute"). */
const char *part_key(unsigned c);
const char *part_words(unsigned c);

struct tl_span {
	int64_t t0, t1;
	uint32_t name;                   /* what it was (a kernel, a call): string id, or 0 */
	uint8_t cat;                     /* enum cat */
};

struct timeline {
	struct tl_span *v;
	size_t n, cap;
	size_t indexed;                  /* v[0, indexed) in order of start, in the tree */
	int64_t *tree;                   /* the latest ends of runs of v (timeline.c) */
	size_t captree, leaves;          /* leaves 0: the tree to be built anew */
	struct tl_span *tmp;             /* room to merge the spans that came in */
	size_t captmp;
	size_t kept;                     /* spans left when those forgotten were last dropped */
	size_t *hits;                    /* the spans a question found (timeline.c) */
	size_t caphits, nhits;           /* how many, the last question */
	int64_t forgotten;               /* spans ending by this time are gone (dropped once
					  * they may be half of v; no question finds them) */
	int64_t settled;                 /* the process's steps were diagnosed up to here */
	uint64_t late;                   /* spans that came after the time they cover was
					  * diagnosed (counted, not used) */
};

void timeline_add(struct timeline *t, unsigned cat, int64_t t0, int64_t t1, uint32_t name);

/* The split of a..b: ns[c] the time of each category (CAT_HOST where no span is).  With
 * top, top[c] is the name with the most time in category c (0: none). */
void timeline_split(struct timeline *t, int64_t a, int64_t b, int64_t ns[CATS],
		    uint32_t top[CATS]);

/* The split of the part of a..b that spans of kind `kind` (TL_STARVED...) cover and no span
 * of kind `not` does (TL_KINDS: no such kind). */
void timeline_split_within(struct timeline *t, unsigned kind, unsigned not, int64_t a,
			   int64_t b, int64_t ns[CATS]);

/* The time spans of kind k (any enum cat, or TL_STARVED...) cover in a..b, overlaps counted
 * once each span; *name: the name of the longest part (0: none). */
int64_t timeline_sum(struct timeline *t, unsigned k, int64_t a, int64_t b, uint32_t *name);

/* The name of the call that ended last at or before `at` (0: none kept). */
uint32_t timeline_call_before(struct timeline *t, int64_t at);

/* The call that ended last before the longest time in a..b with no call, device work or wait
 * (0: none such, or no call before it). */
uint32_t timeline_gap_after(struct timeline *t, int64_t a, int64_t b);

/* Drops the spans that end by `upto`: their time has been diagnosed. */
void timeline_forget(struct timeline *t, int64_t upto);
void timeline_free(struct timeline *t);

#endif
