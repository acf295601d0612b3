#!/bin/sh
# A Python program that reaches the Neuron runtime only through ctypes (dlopen of
# libnrt.so.1, then dlsym in the library's own handle) is traced like a linked one: every
# call, in order, the model's name and NeuronCore, the executions' bytes, the tensors'.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 6

neff "$T/m.neff" ctypes-model exec_us=5000 add=2.5
# A sanitizer build's stand-in needs the ASan runtime loaded first (tprof-inspect does that).
asan=""
[ "${SANITIZERS:-no}" = yes ] && [ -n "${ASAN_RUNTIME:-}" ] && asan="$ASAN_RUNTIME"
env ${asan:+LD_PRELOAD="$asan"} "$PY" "$top_srcdir/tests/apps/nrt-ctypes.py" "$T/m.neff" 3 2.5 \
	>"$T/plain" 2>"$T/plain.err"
ok $? "the Python program runs without the recorder"
"$INSPECT" -o "$T/out" -- "$PY" "$top_srcdir/tests/apps/nrt-ctypes.py" "$T/m.neff" 3 2.5 \
	>"$T/stdout" 2>"$T/stderr"
ok $? "and under tprof-inspect"
check "its output is unchanged" \
	sh -c 'grep -qx "cores=4 executions=3 ok=1" "$1" && cmp -s "$1" "$2"' sh "$T/stdout" "$T/plain"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
pycheck "every NRT call the program made is recorded, in order, with its op" every-call \
	"$T/dump.json"
pycheck "the model, its NeuronCore, the executions' and the tensors' bytes are there" \
	model-and-bytes "$T/dump.json"
finish
