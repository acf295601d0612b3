#!/bin/sh
# The stand-in libroctx64.so.4 exports what roctracer's does: its soname and exactly the eight
# ROCTX_4.1 symbols (no un-suffixed roctxMark/roctxRangePush/roctxRangeStart, which are
# macros).  test-roctx checks the behaviour; this the ELF side, and that the header compiles
# as C and C++.
. "$top_srcdir/tests/func/lib.sh"
export LC_ALL=C
LIB="$STANDIN_LIBDIR/libroctx64.so.4"
plan 4
readelf -d "$LIB" >"$T/dynamic" 2>&1
check "the soname is libroctx64.so.4" grep -q 'Library soname: \[libroctx64.so.4\]' "$T/dynamic"
nm -D --defined-only --with-symbol-versions "$LIB" | awk '$2 != "A" { print $3 }' | sort >"$T/exported"
printf '%s@@ROCTX_4.1\n' roctxMarkA roctxRangePop roctxRangePushA roctxRangeStartA roctxRangeStop \
	roctxRegisterTracerCallback roctx_version_major roctx_version_minor | sort >"$T/want"
if cmp -s "$T/want" "$T/exported"; then
	ok 0 "it exports exactly the eight roctx symbols, versioned ROCTX_4.1"
else
	ok 1 "it exports exactly the eight roctx symbols, versioned ROCTX_4.1"
	diag "$(diff "$T/want" "$T/exported")"
fi
CC_=${CC:-cc}
printf '#include <roctracer/roctx.h>\nint main(void) { roctxMark("m"); roctxRangePush("r"); return roctxRangePop(); }\n' >"$T/c.c"
check "roctx.h compiles as C" $CC_ -std=c11 -Wall -Werror -Wstrict-prototypes \
	-I"$top_srcdir/tests/stand-ins/include" -fsyntax-only "$T/c.c"
if command -v c++ >/dev/null 2>&1; then
	cp "$T/c.c" "$T/c.cpp"
	check "and as C++" c++ -Wall -Werror -I"$top_srcdir/tests/stand-ins/include" -fsyntax-only "$T/c.cpp"
else
	skip "no C++ compiler"
fi
finish
