#!/bin/sh
# What a process start costs in pages of the recorder: the data that a start, a fork or an
# exit writes lies in one page (section .tprof_start, common/startup.h and preload/startup.ld),
# the page the loader writes anyway, and a process that records nothing, with the recorder off
# or on, leaves every other page of the library's data and .bss untouched: no page fault of
# ours beyond the loader's own.  Read from the library's section table and from the process's
# own /proc/self/smaps after its start (cat, preloaded, prints its own).
. "$(dirname "$0")/lib.sh"
# A sanitizer build's recorder has its globals registered and poisoned by ASan at load, which
# writes their pages, and ASan's own anonymous mappings may join the one of .bss: there the
# layout is checked, and the plain build (make distcheck's) checks the pages themselves.
if [ "${SANITIZERS:-no}" = yes ]; then plan 4; else plan 8; fi

# section NAME: "ADDRESS SIZE" of a section of the recorder, in hex, from its section table.
section() {
	readelf -SW "$PRELOAD" | awk -v n="$1" '{ for (i = 1; i < NF; i++) if ($i == n) { print $(i + 2), $(i + 4); exit } }'
}
set -- $(section .tprof_start)
start=${1:-} size=${2:-}
set -- $(section .bss)
bss=${1:-} bss_size=${2:-0}
[ -n "$start" ] && [ -n "$bss" ]
ok $? "the recorder has a section .tprof_start, and .bss"
page=$(printf '%d' "0x${start:-1}")
[ -n "$start" ] && [ $((page % 4096)) -eq 0 ] && [ $((0x${size:-0})) -gt 0 ] &&
	[ $((0x${size:-0})) -lt 4096 ]
ok $? "it starts a page and holds less than one (0x${start:-?}, 0x${size:-?} bytes)"
[ -n "$bss" ] && [ $((0x$bss)) -ge $((page + 0x${size:-0})) ] && [ $((0x$bss)) -lt $((page + 4096)) ]
ok $? ".bss begins in that same page (0x${bss:-?})"
# two mappings, not four: code and read-only data in one segment (-z noseparate-code)
loads=$(readelf -lW "$PRELOAD" | grep -c '^ *LOAD ')
[ "$loads" -eq 2 ]
ok $? "the recorder has two loadable segments (read and execute, read and write): $loads"

# The anonymous mapping of .bss beyond its first page, in kB, as the loader makes it.
bss_kb=$(( ((0x${bss:-0} + 0x$bss_size + 4095) / 4096 - (0x${bss:-0} / 4096 + 1)) * 4 ))
# pages ENV...: "DIRTY BSS" in kB for the recorder in a cat started with ENV: the private dirty
# part of its writable file mapping, and the resident part of the anonymous mapping after it
# (its .bss beyond the first page).  That mapping is read only when it is .bss alone: now and
# then (address randomization) the kernel places another anonymous mapping of the process
# right beside it and merges the two, and their pages cannot be told apart; the process is
# then started again.
pages() {
	for attempt in 1 2 3 4 5 6 7 8 9 10; do
		env "$@" LD_PRELOAD="$PRELOAD_ENV" cat /proc/self/smaps 2>"$T/pages.err" | awk '
			/^[0-9a-f]+-[0-9a-f]+ / { after = rw && NF == 5   # anonymous, right after
				if (after) { split($1, r, "-"); lo = r[1]; hi = r[2] }
				rw = index($0, "libtrace_preload.so") > 0 && $2 == "rw-p"; next }
			rw && /^Private_Dirty:/ { dirty += $2 }
			after && /^Rss:/ { bss += $2 }
			END { print dirty + 0, bss + 0, lo, hi }' >"$T/pages"
		read -r dirty resident lo hi <"$T/pages"
		kb=-1
		[ -n "$lo" ] && [ -n "$hi" ] && kb=$(( (0x$hi - 0x$lo) / 1024 ))
		[ "$kb" = "$bss_kb" ] && break
		diag "the mapping of .bss is not .bss alone ($kb kB, not $bss_kb): again" >&2
	done
	echo "${dirty:-x} ${resident:-x}"
}
if [ "${SANITIZERS:-no}" = yes ]; then
	diag "sanitizer build: the pages a start writes are checked in the plain build"
	finish
	exit
fi
# nothing of the loader's: a thread-local variable of the general model would need its
# __tls_get_addr, and ld-linux as one more dependency to look through at every start
readelf -d "$PRELOAD" | grep NEEDED | grep -v 'libc\.so' >"$T/needed"
[ ! -s "$T/needed" ]
ok $? "the recorder needs libc alone ($(tr -s ' \n' ' ' <"$T/needed"))"
mkdir "$T/out"
set -- $(pages TPROF_ENABLE=0)
off_dirty=${1:-x} off_bss=${2:-x}
set -- $(pages TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/out")
rec_dirty=${1:-x} rec_bss=${2:-x}
diag "recorder off: ${off_dirty} kB of data written, ${off_bss} kB of .bss; recording nothing: ${rec_dirty} kB, ${rec_bss} kB"
# (the loader writes at least one page of it: 0 would mean the recorder was not there)
[ "$rec_dirty" != x ] && [ "$off_dirty" != x ] && [ "$off_dirty" -gt 0 ] &&
	[ "$rec_dirty" -le "$off_dirty" ] && [ "$rec_bss" -le "$off_bss" ]
ok $? "recording nothing writes no page of the recorder's data or .bss that the recorder off does not"
[ "$off_bss" = 0 ] && [ "$rec_bss" = 0 ]
ok $? "a process that records nothing touches no page of the recorder's .bss, off or on"
# The loader writes two pages: the first of .data (with the GOT) and the .tprof_start page.
[ "$off_dirty" -le 8 ] && [ "$rec_dirty" -le 8 ]
ok $? "no page of the recorder's data is written but the loader's two, off or recording nothing"
finish
