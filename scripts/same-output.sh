#!/bin/sh
# same-output.sh KEPT OLD NEW — shows that a change meant to change no output changes none:
# each input the functional tests gave tprof-analyze (kept in KEPT by
# `make check TPROF_TEST_KEEP=KEPT`, tests/func/analyze-keep.sh) is read by two analyzers, OLD
# and NEW (their tprof-analyze programs), with the test's own options less its outputs, to a
# --summary and to a Chrome trace (-f chrome -o FILE.json).  Standard output, standard error
# (with the analyzer's own path made the same), exit status and the trace must be
# byte-identical.  Prints each input that differs and how, then a count; exits 1 if any does.
# Run it with OLD twice first (same-output.sh KEPT OLD OLD): what differs then is not
# deterministic and says what this comparison cannot show.
set -u
[ $# -eq 3 ] || { echo "usage: same-output.sh KEPT OLD NEW" >&2; exit 2; }
kept=$1 old=$2 new=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/tprof-same.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
n=0 differ=0
for d in "$kept"/*/; do
	d=${d%/}
	[ -f "$d/args" ] || continue
	n=$((n + 1))
	# the test's arguments, inputs made the kept copies, outputs left out
	set --
	skip=""
	while IFS= read -r a; do
		if [ -n "$skip" ]; then skip=""; continue; fi
		case $a in
		-o | --output | -f | --format | --summary-format | --split) skip=1; continue ;;
		--output=* | --format=* | --summary-format=* | --summary=* | --split=* | -s | --summary) continue ;;
		@in[0-9]*) a="$d/${a#@}" ;;
		esac
		set -- "$@" "$a"
	done <"$d/args"
	for mode in summary chrome; do
		for which in old new; do
			eval "bin=\$$which"
			o="$work/$which.$mode"
			rm -rf "$o".*
			if [ "$mode" = summary ]; then
				(cd "$work" && "$bin" "$@" --summary >"$o.out" 2>"$o.err")
			else
				# under one name for both, should the trace hold its own
				(cd "$work" && "$bin" "$@" -f chrome -o "$work/trace.json" >"$o.out" 2>"$o.err")
			fi
			echo "$?" >"$o.status"
			[ -e "$work/trace.json" ] && mv "$work/trace.json" "$o.json"
			sed -i "s|$bin|tprof-analyze|g" "$o.err"
		done
		for part in status out err json; do
			a="$work/old.$mode.$part" b="$work/new.$mode.$part"
			[ -e "$a" ] || [ -e "$b" ] || continue
			if ! cmp -s "$a" "$b"; then
				differ=$((differ + 1))
				echo "differs: $(basename "$d") --$mode: $part"
				diff "$a" "$b" 2>/dev/null | head -n 6 | sed 's/^/    /'
			fi
		done
	done
done
echo "same-output: $n inputs read in two ways each, $differ differences"
[ "$differ" -eq 0 ]
