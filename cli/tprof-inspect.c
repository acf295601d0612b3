/* tprof-inspect.c — runs one command with the recorder preloaded: sets TPROF_* and LD_PRELOAD
 * for it (and has Open MPI's mpirun pass them to other hosts), passes on the signals it is
 * sent, samples the system beside it when asked (sampling.c), exits with its status and says
 * where the profiles went.  The command's own stdin, stdout and stderr are left alone.
 *
 * main() takes the steps in order; each part is a file of its own: the command line and the
 * usage errors (options.c), the recorder library and LD_PRELOAD (preload-lib.c), the output
 * directory and the command's environment (environment.c), the job (job.c), the capture
 * window (capture.c), Open MPI's launcher (launchers.c), the signals and the command's run
 * (run.c), the system profile (sampling.c) and the closing report (report.c). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "capture.h"
#include "hang.h"
#include "environment.h"
#include "job.h"
#include "launchers.h"
#include "options.h"
#include "preload-lib.h"
#include "report.h"
#include "run.h"
#include "sampling.h"

int main(int argc, char **argv)
{
	struct options o;
	struct timespec start;
	int exec_err;

	inspect_parse_args(argc, argv, &o);
	char *lib = inspect_find_preload();
	uint64_t job = job_start();
	char *numbered = o.dir ? NULL : job_default_dir(job);
	const char *dir = o.dir ? o.dir : numbered;
	char *abs = inspect_prepare_output(dir);
	job_check_dir(abs, dir, job, o.existing);
	inspect_set_environment(&o, abs, lib);
	inspect_set_capture_signal(o.capture.signal);
	inspect_set_hang_watch(&o.hang);
	capture_setup(&o.capture, abs);
	struct forwarding fwd;
	inspect_forward_to_ranks(o.cmd, &fwd);
	int status;
	int code = inspect_run(fwd.cmd, &o.sample, abs, &start, &exec_err, &status);
	sampling_stop(!exec_err, o.verbose);
	int never_open = capture_done();
	inspect_forwarding_done(&fwd);
	if (!exec_err)
		inspect_report(dir, abs, job, start.tv_sec - 1, o.cmd, status, !!o.sample.what,
			       never_open);
	free(abs);
	free(numbered);
	free(lib);
	return code;
}
