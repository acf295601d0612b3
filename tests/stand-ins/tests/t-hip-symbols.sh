#!/bin/sh
# The stand-in libamdhip64.so.5 exports what the real one does: its soname, exactly the names
# in hip/symbols.list, each with the version tag Debian's libamdhip64.so.5 gives it, and the
# same version nodes; and the committed version script is the one gen-hip-version-script.sh
# makes today.  The comparisons with the real library skip where it is not installed.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] || skip_all "HIP headers not found (Debian: libamdhip64-dev)"
export LC_ALL=C
LIB="$STANDIN_LIBDIR/libamdhip64.so.5"
REAL="${REAL_LIBAMDHIP64:-/usr/lib/x86_64-linux-gnu/libamdhip64.so.5}"
SRC="$top_srcdir/tests/stand-ins"
OBJS="$top_builddir/tests/stand-ins/hip/.libs"
plan 8

readelf -d "$LIB" >"$T/dynamic" 2>&1
check "the soname is libamdhip64.so.5" grep -q 'Library soname: \[libamdhip64.so.5\]' "$T/dynamic"

grep -v '^#' "$SRC/hip/symbols.list" | grep -v '^[[:space:]]*$' | sort -u >"$T/list"
nm -D --defined-only --with-symbol-versions "$LIB" | awk '$2 != "A" { print $3 }' |
	sed 's/@@*/ /' | sort >"$T/exported"
cut -d' ' -f1 "$T/exported" >"$T/names"
if diff "$T/list" "$T/names" >"$T/diff"; then
	ok 0 "it exports exactly the $(wc -l <"$T/list") names of symbols.list"
else
	ok 1 "it exports exactly the names of symbols.list"
	diag "symbols.list (<) vs exported (>):" "$(cat "$T/diff")"
fi

# Every exported function of the sources is listed (the version script hides the rest).
for o in "$OBJS"/*.o; do
	readelf -sW "$o" | awk '$4 == "FUNC" && $5 == "GLOBAL" && $6 == "DEFAULT" && $7 != "UND" { print $8 }'
done | sort -u >"$T/defined"
if [ -s "$T/defined" ] && diff "$T/list" "$T/defined" >"$T/diff"; then
	ok 0 "every function the sources export is in symbols.list"
else
	ok 1 "every function the sources export is in symbols.list"
	diag "symbols.list (<) vs defined in $OBJS (>):" "$(cat "$T/diff")"
fi

unversioned=$(awk 'NF < 2 || $2 !~ /^hip_/' "$T/exported")
check "every exported symbol carries a hip_ version" test -z "$unversioned"

if [ ! -r "$REAL" ]; then
	skip "real library $REAL not found: versions not compared"
	skip "real library not found: version nodes not compared"
	skip "real library not found: version script not regenerated"
else
	nm -D --defined-only --with-symbol-versions "$REAL" | awk '$2 != "A" { print $3 }' |
		sed 's/@@*/ /' | sort >"$T/real"
	# Names the 5.2 library lacks (ROCm >= 6.1's extern "C" spellings) are tagged hip_4.2.
	join -a 1 -e hip_4.2 -o 1.1,2.2 "$T/names" "$T/real" >"$T/want"
	if diff "$T/want" "$T/exported" >"$T/diff"; then
		ok 0 "each has the version tag of the real library (e.g. $(grep '^hipMallocAsync ' "$T/exported"))"
	else
		ok 1 "each has the version tag of the real library"
		diag "wanted (<) vs exported (>):" "$(cat "$T/diff")"
	fi
	nodes() { readelf -V "$1" | sed -n '/\.gnu\.version_d/,/\.gnu\.version_r/p' |
		grep -o 'Name: hip_[0-9.]*' | sort; }
	nodes "$REAL" >"$T/real-nodes"
	nodes "$LIB" >"$T/nodes"
	check "it defines the same version nodes ($(sed 's/Name: //' "$T/nodes" | tr '\n' ' ' | sed 's/ $//'))" \
		cmp -s "$T/real-nodes" "$T/nodes"
	"$SRC/gen-hip-version-script.sh" "$REAL" "$T/map" >/dev/null 2>"$T/gen.err"
	if cmp -s "$T/map" "$SRC/hip/libamdhip64.map"; then
		ok 0 "the committed version script is what gen-hip-version-script.sh makes"
	else
		ok 1 "the committed version script is what gen-hip-version-script.sh makes"
		diag "$(cat "$T/gen.err")" "$(diff "$SRC/hip/libamdhip64.map" "$T/map")"
	fi
fi

# C linkage of the 5.2 C++-mangled pair as well as the plain names.
check "hipExtModuleLaunchKernel is exported both C++-mangled and plain" sh -c \
	"grep -q '^_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j hip_4.2$' '$T/exported' &&
	 grep -q '^hipExtModuleLaunchKernel hip_4.2$' '$T/exported' &&
	 grep -q '^_Z24hipHccModuleLaunchKernel' '$T/exported' && grep -q '^hipHccModuleLaunchKernel ' '$T/exported'"
finish
