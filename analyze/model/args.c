/* args.c — what the typed argument lists of args.h need beyond their inline builders. */
#include "args.h"
#include "output.h"

void scene_args_flags(struct scene_args *a, unsigned flags)
{
	if (flags & EVF_UNFINISHED)
		sa_bool(a, "unfinished", 1);
	if (flags & EVF_CLIPPED)
		sa_bool(a, "clipped", 1);
	if (flags & (EVF_CUT_BEGIN | EVF_CUT_END))
		sa_str(a, "cut", (flags & EVF_CUT_BEGIN) && (flags & EVF_CUT_END) ? "begin and end dropped"
				 : flags & EVF_CUT_BEGIN ? "begin dropped" : "end dropped");
}
