#!/bin/sh
# Fortran MPI programs: apps/mpi-pattern.F90 (apps/mpi-pattern.c, call for call) built once per
# binding (mpif.h, use mpi, use mpi_f08) and recorded on 4 ranks.  Each is recorded as the C
# program is: the same checks of its records (tools/checks/mpi-record.py: every call once,
# peers, tags, bytes, communicators, requests, receive numbers, clock offsets) and of the
# analyzer's output (tools/checks/mpi-analyze.py: every message matched by one arrow, every
# collective found on all members), its output unchanged and the recorder silent.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
need_mpifc
plan 60

NP=4
for b in mpifh usempi f08; do
	case $b in
	mpifh) what="include 'mpif.h'" ;;
	usempi) what="use mpi" ;;
	f08) what="use mpi_f08" ;;
	esac
	APP="$APPS/mpi-pattern-$b"
	D="$T/dump-$b.json" TRUTH="$T/plain-$b.out"
	"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$TRUTH" 2>"$T/plain-$b.err"
	ok $? "$what: the program runs on $NP ranks without the recorder ($(cat "$TRUTH"))"
	"$INSPECT" -o "$T/out-$b" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/rec-$b.out" \
		2>"$T/rec-$b.err"
	ok $? "$what: and under tprof-inspect -- mpirun, with exit status 0"
	check "$what: its output is unchanged" cmp -s "$TRUTH" "$T/rec-$b.out"
	check "$what: the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/rec-$b.err"
	"$DUMP" "$T/out-$b" >"$D"
	ok $? "$what: dump-records reads the profile"
	pycheck_in mpi-record "$what: one profile per rank (0..3), none for mpirun" \
		profile-per-rank "$D" "$TRUTH" "$T/out-$b"
	pycheck_in mpi-record "$what: every MPI call is recorded once, under its C name" \
		every-call-once "$D" "$TRUTH"
	pycheck_in mpi-record "$what: WORLD, SELF and the split communicators described alike" \
		communicators-alike "$D" "$TRUTH"
	pycheck_in mpi-record "$what: calls carry their communicator" \
		calls-communicator "$D" "$TRUTH"
	pycheck_in mpi-record "$what: point-to-point peers, tags and bytes are the program's" \
		point-to-point "$D" "$TRUTH"
	pycheck_in mpi-record "$what: collectives' roots and bytes, nonblocking flagged" \
		collectives "$D" "$TRUTH"
	pycheck_in mpi-record "$what: each collective has one seq on all its members" \
		collective-seqs "$D" "$TRUTH"
	pycheck_in mpi-record "$what: every Irecv completes in one MPIREQ (source, tag, bytes)" \
		irecv-completions "$D" "$TRUTH"
	pycheck_in mpi-record "$what: persistent requests: three starts, three completions" \
		persistent-requests "$D" "$TRUTH"
	pycheck_in mpi-record "$what: receive post numbers count 1, 2, 3... in posting order" \
		receive-numbers "$D" "$TRUTH"
	pycheck_in mpi-record "$what: messages: as many as the program counted, each received once" \
		messages-counted "$D" "$TRUTH"
	pycheck_in mpi-record "$what: ranks 1..3 measured their clock offset at init and finalize" \
		clock-offsets "$D" "$TRUTH"
	"$ANALYZE" "$T/out-$b" -f chrome -o "$T/t-$b.json" -s >"$T/sum-$b.txt" 2>"$T/err-$b.txt"
	ok $? "$what: tprof-analyze writes the Chrome trace and the summary"
	pycheck_in mpi-analyze "$what: every message matched: one arrow from send to receive" \
		messages-matched "$T/t-$b.json" "$TRUTH"
	pycheck_in mpi-analyze "$what: every collective found on all members of its communicator" \
		collectives-complete "$T/t-$b.json" "$TRUTH"
done
finish
