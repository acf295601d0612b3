# lib-roundtrip.sh — tprof's own Chrome traces read back (sourced by lib.sh).  roundtrip TRACE
# WORK imports TRACE (a Chrome trace tprof-analyze wrote) with tprof-analyze --import and
# converts it to Chrome, Perfetto, OTF2 and SQLite (files WORK.*), each checked with its own
# reader: protoc through tools/pftrace.py (the slices, instants, counter samples and arrows the
# Chrome conversion holds, and as many arrow ends in no slice: Chrome allows them, and a
# launch whose call was not recorded or an imported trace has them), otf2-print, and the
# sqlite3 shell (tools/lib-sqlite.py counts).
# The Perfetto conversion is compared with the Chrome one (WORK.json), times read as exact
# decimals (a double holds no nanoseconds beyond 2^53 ns, 104 days).
# Returns non-zero, saying why on stderr, when one does not convert or read back.
RT_PFTRACE="$top_srcdir/tests/tools/pftrace.py"
RT_SQLCHECK="$top_srcdir/tests/tools/lib-sqlite.py"
RT_CHECKS="$top_srcdir/tests/tools/checks/lib-roundtrip.py"

roundtrip() {
	_rt_in=$1
	_rt_w=$2
	_rt_bin=${ANALYZE_REAL:-$ANALYZE}
	rm -rf "$_rt_w.json" "$_rt_w.pftrace" "$_rt_w.otf2" "$_rt_w.sqlite"
	if ! "$_rt_bin" --import "$_rt_in" -f chrome -o "$_rt_w.json" 2>"$_rt_w.err"; then
		echo "roundtrip: $_rt_in: --import to Chrome failed: $(tail -n 2 "$_rt_w.err")" >&2
		return 1
	fi
	if ! "$_rt_bin" --import "$_rt_in" -f perfetto -o "$_rt_w.pftrace" 2>"$_rt_w.err" ||
		! "$PY" "$RT_PFTRACE" check --flows-outside-slices "$_rt_w.pftrace" >"$_rt_w.pf" \
			2>"$_rt_w.pf.err"; then
		echo "roundtrip: $_rt_in: to Perfetto: $(tail -qn 2 "$_rt_w.err" "$_rt_w.pf.err" 2>/dev/null)" >&2
		return 1
	fi
	if ! "$PY" -B "$RT_CHECKS" perfetto-counts "$_rt_w.pf" "$_rt_w.json" 2>"$_rt_w.pf.err"
	then
		echo "roundtrip: $_rt_in: $(cat "$_rt_w.pf.err")" >&2
		return 1
	fi
	if command -v otf2-print >/dev/null 2>&1; then
		if ! "$_rt_bin" --import "$_rt_in" -f otf2 -o "$_rt_w.otf2" 2>"$_rt_w.err" ||
			! otf2-print "$_rt_w.otf2/traces.otf2" >/dev/null 2>"$_rt_w.otf2.err"; then
			echo "roundtrip: $_rt_in: to OTF2: $(tail -qn 2 "$_rt_w.err" "$_rt_w.otf2.err" 2>/dev/null)" >&2
			return 1
		fi
	fi
	if command -v sqlite3 >/dev/null 2>&1; then
		if ! "$_rt_bin" --import "$_rt_in" -f sqlite -o "$_rt_w.sqlite" 2>"$_rt_w.err" ||
			! "$PY" "$RT_SQLCHECK" counts "$_rt_w.sqlite" "$_rt_w.json" >/dev/null 2>"$_rt_w.sql.err"; then
			echo "roundtrip: $_rt_in: to SQLite: $(tail -qn 2 "$_rt_w.err" "$_rt_w.sql.err" 2>/dev/null)" >&2
			return 1
		fi
	fi
	return 0
}
