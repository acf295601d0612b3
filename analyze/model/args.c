/* args.c — what the typed argument lists of args.h need beyond their inline builders. */
#include "args.h"
#include "output.h"

void scene_args_flags(struct scene_args *a, unsigned flags)
{
	if (flags & EVF_UNFINISHED)
		sa_bool(a, "unfinished", 1);
	if (flags & EVF_CLIPPED)
		sa_bool(a, "clipped", 1);
}
