#!/bin/sh
# Every Chrome trace tprof writes converts back: a profile of each kind the functional tests
# make (HIP on the stand-in runtime with the system profile's sampling, roctx, MPI, NCCL, the
# Neuron runtime, device work, a framework trace merged by the import) is written as Chrome
# JSON and imported again to Chrome, Perfetto, OTF2 and SQLite, each read back with its own
# reader (func/lib-roundtrip.sh).  `make check TPROF_TEST_ROUNDTRIP=1` does the same for the
# Chrome output of every functional test.
. "$(dirname "$0")/lib.sh"
plan 14

# back NAME DIR: DIR's Chrome trace, read back to every format.
back() {
	"$ANALYZE" "$2" -f chrome -o "$T/$1.json" 2>"$T/$1.err"
	ok $? "$1: tprof-analyze writes its Chrome trace"
	if roundtrip "$T/$1.json" "$T/$1.rt" 2>"$T/$1.rt.err"; then
		ok 0 "$1: its Chrome trace converts back to Chrome, Perfetto, OTF2 and SQLite"
	else
		ok 1 "$1: its Chrome trace converts back to Chrome, Perfetto, OTF2 and SQLite"
		diag "$(head -c 600 "$T/$1.rt.err")"
	fi
}

TPROF_SAMPLE_BPF=0 "$INSPECT" --sample all -o "$T/hip" -- "$APPS/hip-streams" 4 2 \
	>"$T/hip.out" 2>"$T/hip.err"
back hip-sampled "$T/hip"

"$INSPECT" -o "$T/roctx" -- "$APPS/roctx-ranges" >"$T/roctx.out" 2>"$T/roctx.err"
back roctx "$T/roctx"

"$APPS/mpi-synth" "$T/mpi" >/dev/null 2>"$T/mpi.err"
back mpi "$T/mpi"

"$APPS/nccl-synth" "$T/nccl" >/dev/null 2>"$T/nccl.err"
back nccl "$T/nccl"

"$APPS/nrt-synth" "$T/nrt" >/dev/null 2>"$T/nrt.err"
back nrt "$T/nrt"

"$APPS/dev-synth" "$T/dev" >/dev/null 2>"$T/dev.err"
back device "$T/dev"

"$INSPECT" -o "$T/imp" -- "$APPS/imp-writer" "$T/imp/w.pt.trace.json" base 6 3 \
	>"$T/imp.out" 2>&1
back import "$T/imp"
finish
