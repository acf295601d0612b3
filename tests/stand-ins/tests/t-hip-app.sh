#!/bin/sh
# A program compiled by Debian's hipcc (hip-vadd.hip, a real __global__ kernel launched with
# <<<>>> and hipLaunchKernelGGL) runs against the stand-in libamdhip64.so.5, swapped in with
# LD_LIBRARY_PATH: its versioned references resolve, it sees two devices, its copies arrive,
# its launches go through __hipPushCallConfiguration / __hipPopCallConfiguration /
# hipLaunchKernel under the kernel's registered (mangled) name, and events time the kernel
# with the configured duration.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] || skip_all "HIP headers not found (Debian: libamdhip64-dev)"
[ "${STANDIN_HIPCC:-no}" = yes ] || skip_all "hipcc not found"
APP="$top_builddir/tests/stand-ins/tests/hip-vadd"
LIB="$STANDIN_LIBDIR/libamdhip64.so.5"
# A sanitizer build of the stand-in needs the ASan runtime first in an uninstrumented program:
# in the program's environment alone (in awk's, ASan found mawk's own reads past a buffer).
ASAN_ENV=
if [ "${SANITIZERS:-no}" = yes ] && [ -n "${ASAN_RUNTIME:-}" ]; then
	ASAN_ENV="LD_PRELOAD=$ASAN_RUNTIME ASAN_OPTIONS=detect_leaks=0:abort_on_error=0"
fi
plan 11

nm -D --with-symbol-versions "$APP" | awk '$1 == "U" && $2 ~ /@hip_/ { print $2 }' |
	sort >"$T/refs"
check "the program references versioned HIP symbols (hipLaunchKernel@hip_4.2, ...)" \
	grep -qx 'hipLaunchKernel@hip_4.2' "$T/refs"
nm -D --defined-only --with-symbol-versions "$LIB" | awk '{ print $3 }' | sed 's/@@/@/' |
	sort >"$T/defs"
missing=$(comm -23 "$T/refs" "$T/defs" | tr '\n' ' ')
check "the stand-in defines each of its $(wc -l <"$T/refs") references with that version${missing:+ (missing: $missing)}" \
	test -z "$missing"
LD_LIBRARY_PATH="$STANDIN_LIBDIR" ldd "$APP" >"$T/ldd" 2>&1
check "with LD_LIBRARY_PATH, libamdhip64.so.5 resolves to the stand-in" \
	grep -q "libamdhip64.so.5 => $LIB " "$T/ldd"

LD_LIBRARY_PATH="$STANDIN_LIBDIR" LD_BIND_NOW=1 STANDIN_HIP_TRACE=1 \
	STANDIN_HIP_TRACE_FILE="$T/trace" STANDIN_HIP_KERNEL_US="vadd:30000,scale:1000" \
	env $ASAN_ENV "$APP" >"$T/out" 2>"$T/err"
rc=$?
ok "$rc" "it runs to the end against the stand-in (all symbols bound at start)"
[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
check "it sees two devices" grep -qx 'devices=2' "$T/out"
check "its copies arrive (HtoD, DtoD, DtoH)" grep -qx 'roundtrip=ok' "$T/out"
check "events around the vadd launch give its configured 30 ms ($(grep vadd_ms "$T/out"))" \
	awk -F= '$1 == "vadd_ms" { found = 1; if ($2 < 28.5 || $2 > 31.5) exit 1 } END { exit !found }' "$T/out"

# The API calls in order, one name a line.
sed -n 's/^standin-hip\[[0-9.]*\] \([_A-Za-z0-9]*\)(.*/\1/p' "$T/trace" >"$T/calls"
seq=$(tr '\n' ' ' <"$T/calls")
case "$seq" in
*"__hipRegisterFatBinary __hipRegisterFunction"*) ok 0 "its constructor registers the binary and the kernels" ;;
*) ok 1 "its constructor registers the binary and the kernels"; diag "calls: $seq" ;;
esac
grep '^standin-hip\[[0-9.]*\] \(__hipPushCallConfiguration\|__hipPopCallConfiguration\|hipLaunchKernel\)(' \
	"$T/trace" | sed 's/^standin-hip\[[0-9.]*\] //; s/^\(hipLaunchKernel\)(\([^,]*\),.*/\1 \2/; s/(.*//' >"$T/launches"
printf '%s\n' __hipPushCallConfiguration __hipPopCallConfiguration "hipLaunchKernel _Z4vaddPfPKfS1_i" \
	__hipPushCallConfiguration __hipPopCallConfiguration "hipLaunchKernel _Z5scalePffi" >"$T/want"
if cmp -s "$T/want" "$T/launches"; then
	ok 0 "<<<>>> and hipLaunchKernelGGL go through push, pop and hipLaunchKernel with the mangled names"
else
	ok 1 "<<<>>> and hipLaunchKernelGGL go through push, pop and hipLaunchKernel with the mangled names"
	diag "launch calls:" "$(cat "$T/launches")"
fi
case "$seq" in
*"hipLaunchKernel hipGetLastError hipDeviceSynchronize hipEventElapsedTime"*"__hipUnregisterFatBinary"*)
	ok 0 "then it synchronises, and the binary is unregistered at exit" ;;
*) ok 1 "then it synchronises, and the binary is unregistered at exit"; diag "calls: $seq" ;;
esac

# Device clocks from STANDIN_HIP_CLOCK_OFFSET_NS, seen in the device-level trace.
LD_LIBRARY_PATH="$STANDIN_LIBDIR" STANDIN_HIP_TRACE=2 STANDIN_HIP_TRACE_FILE="$T/trace2" \
	STANDIN_HIP_CLOCK_OFFSET_NS=777,-888 env $ASAN_ENV "$APP" >/dev/null 2>&1
check "STANDIN_HIP_CLOCK_OFFSET_NS sets device 0's clock (every device op at host time + 777 ns)" \
	awk '/ device-op dev=0 / { n++; split($0, a, " end="); split(a[2], e, " "); split($0, b, "host_end=");
		if (e[1] - b[2] != 777) bad++ } END { exit !(n > 0 && bad == 0) }' "$T/trace2"
finish
