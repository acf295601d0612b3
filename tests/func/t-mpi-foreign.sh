#!/bin/sh
# An MPI library that is neither Open MPI nor MPICH (a stand-in with integer handles, and no
# version string naming MPICH): the recorder says so once and passes every call through
# untouched, recording none.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/mpi-foreign" ] || skip_all "apps/mpi-foreign was not built"
plan 4

LIBDIR="$top_builddir/tests/apps/.libs"
LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
"$APPS/mpi-foreign" >"$T/plain.out" 2>"$T/plain.err"
ok $? "the program runs against the stand-in library"
"$INSPECT" -o "$T/out" -- "$APPS/mpi-foreign" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect"
check "every call reached the library with its arguments, and returned what it returned" \
	cmp -s "$T/plain.out" "$T/rec.out"
check "one warning says why nothing is recorded, and nothing is" sh -c '
	[ "$(grep -c "^tprof\[[0-9]*\]: " "$1")" -eq 1 ] &&
	grep -q "^tprof\[[0-9]*\]: warning: the MPI library is neither Open MPI .* nor MPICH" "$1" &&
	! ls "$2"/*.tpf >/dev/null 2>&1' sh "$T/rec.err" "$T/out"
finish
