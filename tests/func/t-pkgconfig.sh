#!/bin/sh
# The installed tree: `make install DESTDIR=...` puts the programs, the libraries, the
# header, tprof.pc and the Python module where they belong; a program built with `pkg-config
# --cflags --libs tprof` against it runs as usual without the profiler (its API calls do
# nothing) and is recorded under the installed tprof-inspect, which finds the installed
# recorder by itself, and the installed Python module for a Python program.
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null 2>&1 || skip_all "make is not installed"
command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config is not installed"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip_all "no C compiler ($CC)"
plan 13

dest="$T/dest"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install DESTDIR="$dest" >"$T/install.log" 2>&1
ok $? "make install DESTDIR=... succeeds"

# Where configure put things; the .pc file is found by searching, the rest from it.
pc=$(find "$dest" -name tprof.pc -path '*/pkgconfig/*' | head -n 1)
pcdir=${pc%/*}
prefix=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=prefix tprof 2>/dev/null)
root="$dest$prefix"
# The .pc file names the configured prefix; pointed at the staged copy of it.
PKG="env PKG_CONFIG_PATH=$pcdir pkg-config --define-variable=prefix=$root"
libdir=$($PKG --variable=libdir tprof 2>/dev/null)
missing=
for f in bin/tprof-inspect bin/tprof-analyze include/tprof/tprof.h; do
	[ -f "$root/$f" ] || missing="$missing $f"
done
for f in libtrace_preload.so pkgconfig/tprof.pc; do
	[ -f "$libdir/$f" ] || missing="$missing lib/$f"
done
[ -n "$pc" ] && [ -x "$root/bin/tprof-inspect" ] && [ -x "$root/bin/tprof-analyze" ] && [ -z "$missing" ] &&
	ls "$libdir"/libtprof.so* >/dev/null 2>&1
ok $? "installed: bin/tprof-inspect, bin/tprof-analyze, lib/libtrace_preload.so, lib/libtprof.so, include/tprof/tprof.h, lib/pkgconfig/tprof.pc (missing:${missing:- none})"

cat >"$T/app.c" <<'EOF'
#include <stdio.h>
#include <tprof/tprof.h>
int main(void)
{
	int level = tprof_range_push("installed");
	tprof_mark("hello");
	tprof_range_pop();
	printf("push=%d api=%d\n", level, TPROF_API_VERSION);
	return 0;
}
EOF
cflags=$($PKG --cflags tprof 2>"$T/pc.err") && libs=$($PKG --libs tprof 2>>"$T/pc.err")
ok $? "pkg-config gives the flags (cflags: $cflags; libs: $libs)"
# shellcheck disable=SC2086
$CC -o "$T/app" "$T/app.c" $cflags $libs >"$T/cc.log" 2>&1
ok $? "a program builds with \`pkg-config --cflags --libs tprof\` against the installed tree"
[ -s "$T/cc.log" ] && diag "$(cat "$T/cc.log")"

mkdir "$T/run"
(cd "$T/run" && env -u TPROF_ENABLE -u LD_PRELOAD -u LD_LIBRARY_PATH "$T/app") >"$T/app.out" 2>"$T/app.err"
[ $? -eq 0 ] && [ "$(cat "$T/app.out")" = "push=-1 api=3" ] && [ ! -s "$T/app.err" ] && [ -z "$(ls -A "$T/run")" ]
ok $? "without the profiler it runs as usual, finding libtprof.so.0 with no LD_LIBRARY_PATH (tprof.pc's run path): push returns -1, no files, nothing on stderr"
[ -s "$T/app.err" ] && diag "$(head -2 "$T/app.err")"

# The installed tprof-inspect must find the installed recorder (not the build tree's).
inspect="$root/bin/tprof-inspect"
# (A sanitizer build puts the ASan runtime in front of it.)
list=$(cd "$T/run" && env -u TPROF_PRELOAD_LIB -u LD_PRELOAD "$inspect" -o "$T/sh" -- sh -c 'echo "$LD_PRELOAD"' 2>"$T/sh.err")
rec=$(echo "$list" | tr ': ' '\n\n' | grep '/libtrace_preload\.so$')
want=$(cd "$libdir" && pwd -P)/libtrace_preload.so
[ "$rec" = "$want" ]
ok $? "the installed tprof-inspect preloads the installed recorder, and only it (LD_PRELOAD=$list)"
[ "$rec" = "$want" ] || diag "$(cat "$T/sh.err")"

(cd "$T/run" && env -u TPROF_PRELOAD_LIB -u LD_PRELOAD "$inspect" -o "$T/prof" -- "$T/app") >"$T/rec.out" 2>"$T/rec.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(cat "$T/rec.out")" = "push=0 api=3" ]
ok $? "under the installed tprof-inspect the same program is recorded: push returns 0"
grep -qx "tprof-inspect: profile written to $T/prof (1 process)" "$T/rec.err" && [ -z "$(ls -A "$T/run")" ]
ok $? "one profile is written where -o says, nothing in the working directory"
"$root/bin/tprof-analyze" "$T/prof" --format chrome -o "$T/prof.json" 2>"$T/an.err" &&
	"$PY" -B "$CHECKS" installed-events "$T/prof.json"
ok $? "the installed tprof-analyze reads it: one range 'installed', one mark 'hello'"

# The Python module: under pythondir, and linked from lib/tprof/python, which the installed
# tprof-inspect puts on PYTHONPATH.
SYS_PY=${SYSTEM_PYTHON3:-/usr/bin/python3}
pkg=$(find "$dest" -path '*-packages/tprof/__init__.py' | head -n 1)
pkg=${pkg%/__init__.py}
link="$libdir/tprof/python/tprof"
lacking=
for f in "$top_srcdir"/python/tprof/*.py; do
	[ -f "$pkg/${f##*/}" ] || lacking="$lacking ${f##*/}"
done
[ -n "$pkg" ] && [ -z "$lacking" ] && [ -L "$link" ] &&
	[ "$(cd "$link" && pwd -P)" = "$(cd "$pkg" && pwd -P)" ]
ok $? "the Python module is under pythondir (${pkg#"$dest"}; lacking:${lacking:- none}), linked from lib/tprof/python"
if [ -x "$SYS_PY" ]; then
	out=$(cd "$T/run" && env -u TPROF_PRELOAD_LIB -u LD_PRELOAD -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 \
		"$inspect" -o "$T/pyprof" -- "$SYS_PY" -B "$CHECKS" installed-module 2>"$T/py.err")
	want="True $(cd "$pkg" && pwd -P)/__init__.py $(cd "$libdir/tprof/python" && pwd -P)"
	[ "$out" = "$want" ] && "$root/bin/tprof-analyze" "$T/pyprof" --summary 2>/dev/null |
		grep -q ' installed python$'
	ok $? "a Python program under the installed tprof-inspect imports it from there and records ($out)"
else
	skip "no $SYS_PY to run a Python program with"
fi

"$root/bin/tprof-inspect" --version >"$T/v1" 2>&1 && "$INSPECT" --version >"$T/v2" 2>&1 && cmp -s "$T/v1" "$T/v2"
ok $? "the installed tprof-inspect is the version just built"
"$root/bin/tprof-analyze" --version >"$T/v3" 2>&1 && grep -q "$($PKG --modversion tprof)" "$T/v3"
ok $? "tprof.pc's version is the programs' version ($($PKG --modversion tprof 2>/dev/null))"
finish
