# lib-nrt-analyze.sh — sourced by the tests of tprof-analyze's NRT outputs (after lib.sh): the
# Python helpers for the NeuronCore tracks of a Chrome trace and the NRT tables of the summary
# are those of tests/tools/checks/lib-nrt-analyze.py (groupnames, sortidx, realpid,
# core_spans, overlaps, model_table_errors; described there).  NRT_PY, their source, is put
# in front of a check written in the shell with pyc "$NRT_PY"'...'.
NRT_PY="
$("$PY" -B "$CHECKS_DIR/lib-nrt-analyze.py" prelude)
"
