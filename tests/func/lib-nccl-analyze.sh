# lib-nccl-analyze.sh — sourced by the NCCL analyzer tests after lib.sh: the Python helpers
# that check what tprof-analyze makes of NCCL traces (the Chrome trace and the summary) are
# those of tests/tools/checks/lib-nccl-analyze.py (spans, calls, flows, within, instances,
# has_coll, launch_ok, sum_rows, bw_check; described there).

# pyn SCRIPT ARGS...: runs a Python check with those helpers and the ones of pyc defined.
pyn() { _s=$1; shift; "$PY" -B "$CHECKS_DIR/lib-nccl-analyze.py" run-script "$_s" "$@"; }
