/* render/otf2/error.c — how a failure to write the OTF2 archive is reported: the first error,
 * whether libotf2 reports it through its error callback or returns it, is said once on
 * stderr with the archive's directory, and marks the output failed, so that nothing more is
 * written.  The bottom of the OTF2 writer: it calls none of the other out-otf2 files. */
#include <stdarg.h>
#include <stdio.h>

#include "state.h"

static OTF2_ErrorCallback previous_error_callback;

static OTF2_ErrorCode on_error(void *user, const char *file, uint64_t line, const char *func,
			       OTF2_ErrorCode code, const char *fmt, va_list va)
{
	struct otf2 *o = user;
	(void)file, (void)line, (void)func;
	if (o && !o->failed) {
		char msg[512];
		vsnprintf(msg, sizeof(msg), fmt ? fmt : "", va);
		diag_error("writing the OTF2 archive in %s: %s%s%s%s", o->dir,
			   OTF2_Error_GetDescription(code), msg[0] ? " (" : "", msg, msg[0] ? ")" : "");
	}
	if (o)
		o->failed = 1;
	return code;
}

void otf2_errors_catch(struct otf2 *o)
{
	previous_error_callback = OTF2_Error_RegisterCallback(on_error, o);
}

void otf2_errors_release(void)
{
	OTF2_Error_RegisterCallback(previous_error_callback, NULL);
}

void otf2_check(struct otf2 *o, OTF2_ErrorCode rc)
{
	if (rc != OTF2_SUCCESS && !o->failed) {
		diag_error("writing the OTF2 archive in %s: %s", o->dir, OTF2_Error_GetDescription(rc));
		o->failed = 1;
	}
}
