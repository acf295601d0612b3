/* test-roctx.c — the stand-in libroctx64.so.4 behaves like roctracer's: push returns the level
 * it opens at, pop the level it closes (negative when none is open), levels are per thread,
 * range ids are process-wide and start at 1.  Run by t-roctx.sh. */
#include <pthread.h>
#include <stdio.h>

#include "roctracer/roctx.h"
#include "tap.h"

struct other {
	int push, pop;
	roctx_range_id_t id;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;
	o->push = roctxRangePush("other"); /* this thread's own nesting: 0 */
	o->pop = roctxRangePop();
	o->id = roctxRangeStart("from the other thread");
	return NULL;
}

int main(void)
{
	struct other o = {-9, -9, 0};
	roctx_range_id_t a, b;
	pthread_t t;
	is_u64(roctx_version_major(), 4, "roctx_version_major");
	is_u64(roctx_version_minor(), 1, "roctx_version_minor");
	roctxMark("a mark");
	ok(roctxRangePop() < 0, "pop with nothing open is negative");
	is_u64(roctxRangePush("outer"), 0, "the first push opens level 0");
	is_u64(roctxRangePushA("inner"), 1, "a nested push opens level 1");
	pthread_create(&t, NULL, other_thread, &o);
	pthread_join(t, NULL);
	ok(o.push == 0 && o.pop == 0, "levels are per thread (%d, %d)", o.push, o.pop);
	is_u64(roctxRangePop(), 1, "pop closes level 1");
	is_u64(roctxRangePop(), 0, "then level 0");
	ok(roctxRangePop() < 0, "then there is nothing left");
	a = roctxRangeStart("a");
	b = roctxRangeStartA("b");
	is_u64(o.id, 1, "range ids start at 1 (the other thread's came first)");
	ok(a == 2 && b == 3, "and count up process-wide (%llu, %llu)", (unsigned long long)a,
	   (unsigned long long)b);
	roctxRangeStop(b);
	roctxRangeStop(a);
	return tap_done();
}
