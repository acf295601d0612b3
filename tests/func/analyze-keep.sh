#!/bin/sh
# analyze-keep.sh — tprof-analyze as the functional tests run it when TPROF_TEST_KEEP names a
# directory (lib.sh): before the real program ($ANALYZE_KEEP_NEXT) runs, every argument that
# names an existing file or directory (a profile, an imported trace; not what -o names) is
# copied to TPROF_TEST_KEEP/TEST.KEY/inN, once per test and set of inputs, and the arguments
# are written to its `args`, one a line, each kept one as @inN.  scripts/same-output.sh reads
# each kept input with two analyzers and compares what they write, so that a change meant to
# change no output can be shown to change none on every profile the tests make.
skip_next="" n=0 kept=""
d=$(mktemp -d "$TPROF_TEST_KEEP/.new.XXXXXX") || exec "$ANALYZE_KEEP_NEXT" "$@"
for a in "$@"; do
	if [ -n "$skip_next" ]; then
		skip_next=""
		printf '%s\n' "$a"
		continue
	fi
	case $a in
	-o | --output | -f | --format) skip_next=1 ;;
	-*) ;;
	*)
		if [ -e "$a" ]; then
			n=$((n + 1))
			cp -a "$a" "$d/in$n" 2>/dev/null && { printf '@in%d\n' "$n"; kept="$kept $a"; continue; }
		fi
		;;
	esac
	printf '%s\n' "$a"
done >"$d/args"
if [ -n "$kept" ]; then
	# once per test and set of inputs
	key=$(printf '%s' "$kept" | cksum | cut -d' ' -f1)
	mv -T "$d" "$TPROF_TEST_KEEP/${TPROF_TEST_NAME:-test}.$key" 2>/dev/null || rm -rf "$d"
else
	rm -rf "$d"
fi
exec "$ANALYZE_KEEP_NEXT" "$@"
