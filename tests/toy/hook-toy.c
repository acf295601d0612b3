/* hook-toy.c — the recorder's hooks of the toy runtime (toy.h): toyMake recorded as one CALL
 * of domain TOY_DOMAIN with one extension unit (the widgets asked for, the gadget's name as a
 * string id), through the event API's call protocol, and its hook table listed with
 * TPROF_HOOK_TABLE.  Linked with the recorder, it changes no file of it. */
#include <string.h>

#include "../../preload/core/resolve.h"
#include "../../preload/events/api.h"
#include "../../preload/spool/spool.h"
#include "toy.h"

TPROF_REAL(int, toyMake, (uint64_t, const char *))

static struct tprof_hook toy_hooks[] = {
	{ .domain = TOY_DOMAIN, .record = 1 },
};

TPROF_EXPORT int toyMake(uint64_t widgets, const char *gadget)
{
	struct tprof_thread *t = &tprof_tls;
	toyMake_fn real = get_toyMake();
	if (!tprof_wrapper_records(t, real))
		return real ? real(widgets, gadget) : -1;
	struct tprof_call c;
	void *units[1];
	tprof_call_begin(&c, t, &toy_hooks[0], 1, 1, units);
	struct toy_unit *u = units[0];
	u->widgets = widgets;
	u->gadget = c.r && gadget ? tprof_intern(gadget, strlen(gadget)) : 0;
	c.corr = tprof_next_corr(t);
	tprof_call_enter(&c);
	return tprof_call_leave(&c, real(widgets, gadget));
}

static void toy_hooks_fill(void)
{
	tprof_hook_set(&toy_hooks[0], "toyMake", NULL, (void *)toyMake, (void **)&real_toyMake);
}
TPROF_HOOK_TABLE(toy, toy_hooks, 1, toy_hooks_fill, TOY_DOMAIN);
