#!/bin/sh
# A program with idle gaps of known sizes between the kernels of device 0 (made on the device
# timeline, so the host's speed does not matter: gaps of 0 inside bursts, and of 300 us, 3 ms
# and 25 ms while device 0 waits for a timer kernel on device 1): the summary's busy time and
# busy share, and its histogram of idle gaps, come out as the program made them.
. "$(dirname "$0")/lib.sh"
need_hip hip-gaps
plan 5

# Longer keys first: the stand-in takes the first key that is part of a kernel's name.
export STANDIN_HIP_KERNEL_US="warmup:100000,busy:1000,timer25000:25000,timer3000:3000,timer300:300"
out="$T/out"
"$INSPECT" -o "$out" -- "$APPS/hip-gaps" >"$T/stdout" 2>"$T/stderr"
ok $? "the program runs under tprof-inspect"
check "it made 24 kernels on device 0" grep -qx 'kernels=24 tiny=14 mid=4 ms=3 long=2' "$T/stdout"
"$ANALYZE" "$out" --summary >"$T/summary" 2>"$T/analyze.err"
ok $? "tprof-analyze prints the summary"
pycheck "GPU 0 was busy 100 ms + 23 x 1 ms, within 5%, and its busy share is that over the "\
"covered time" \
	busy "$T/summary"
pycheck "the gap histogram of GPU 0: 14 under 10 us, 4 in 100 us-1 ms, 3 in 1-10 ms, 2 over 10 ms" \
	gaps "$T/summary"
finish
