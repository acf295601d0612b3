#!/bin/sh
# The OTF2 archive renders the scene the Chrome trace renders: on synthetic profiles of
# every runtime the analyzer knows (an MPI job with HIP work, ranges and steps, apps/nrt-synth,
# apps/nccl-synth, apps/dev-synth), every slice and instant of the Chrome trace is a region
# entered on the location named as its track, in its process's group, at its time, and each
# of its arguments is an attribute of that Enter with its value (the model's own under the
# archive's names: "correlation id", "return code", "copy kind", "shared memory", "time in
# polls"; nested objects left out; a range's and a step's on its Leave).  NeuronCore work keeps its own locations with the core
# as "nc"; an NCCL group's span its recorded name, the Chrome name as its label.  Then the
# same on apps/nrt-threads run against the stand-in libnrt.so.1, where a tensor set's
# additions carry the tensor's name (as the archive had them before it rendered the scene).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
APPS="$top_builddir/tests/apps"
plan 11

# job NAME DIR: Chrome trace and OTF2 archive of DIR; the two compared (two results).
job() {
	"$ANALYZE" "$2" -f chrome -o "$T/$1.json" 2>"$T/$1.err" &&
		"$ANALYZE" "$2" -f otf2 -o "$T/$1.otf2" 2>>"$T/$1.err" &&
		otf2_print "$T/$1.otf2/traces.otf2" "$T/$1.txt"
	ok $? "$1: both traces are written, otf2-print reads the archive without complaint"
	pycheck "$1: every Chrome slice and instant a region at its place and time, its arguments "\
"attributes" \
		same-scene "$T/$1.txt" "$T/$1.json"
}

mkdir "$T/mpi" && "$top_builddir/tests/unit/test-mpi-trace" "$T/mpi" 2 && job mpi "$T/mpi"
"$APPS/nrt-synth" "$T/nrt" >/dev/null && job nrt "$T/nrt"
"$APPS/nccl-synth" "$T/nccl" >/dev/null && job nccl "$T/nccl"
"$APPS/dev-synth" "$T/dev" >/dev/null && job dev "$T/dev"

if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnrt.so.1" ] && [ -x "$APPS/nrt-threads" ] &&
	[ -x "$APPS/mkneff" ]; then
	"$APPS/mkneff" "$T/a.neff" mlp-small exec_us=2000 add=1 in=x:4096 in=y:4096 out=z:4096 &&
		"$APPS/mkneff" "$T/b.neff" conv-big exec_us=3000 add=2 in=img:65536 out=map:32768 &&
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			"$INSPECT" -o "$T/nrtthreads" -- "$APPS/nrt-threads" -n 2 "$T/a.neff" "$T/b.neff" \
			>/dev/null 2>&1
	job nrt-threads "$T/nrtthreads"
	pycheck "nrt-threads: a tensor set's additions name their tensor, in Chrome and in the archive" \
		tensor-names "$T/nrt-threads.txt" "$T/nrt-threads.json"
else
	for i in 1 2 3; do
		skip "no stand-in libnrt.so.1 or apps/nrt-threads"
	done
fi
finish
