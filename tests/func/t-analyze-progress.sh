#!/bin/sh
# tprof-analyze's progress line.  On a terminal (a pseudo-terminal made by util-linux
# script) it shows the reading of the files (bytes, records so far) and each pass over the
# records (records read of all of them, a rate), rewritten in place and erased at the end,
# while the outputs stay what they are without it; nothing in the first second, nothing when
# stderr is not a terminal; --progress forces it, --no-progress silences it.
# TPROF_PROGRESS_DELAY_MS is a test knob (the first second, in milliseconds): 0 makes the
# first update immediate, so that an analysis of a small trace shows the line, and draws every
# update (none waits a quarter second), so that each phase's last count shows however fast or
# slow the machine is.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null 2>&1 || skip_all "no script (util-linux) to make a pseudo-terminal"
plan 13

# on_pty FILE COMMAND: runs the shell command line COMMAND on a pseudo-terminal (standard
# input, output and error); what the terminal received goes to FILE.
on_pty() { _f=$1; shift; script -qfec "$*" /dev/null </dev/null >"$_f"; }

# What a terminal shows after receiving FILE (\r returns to the start of the line, \n
# begins a new one), with trailing blanks removed; and every text that followed a \r or
# began a line, in order: the progress lines drawn.
SCREEN='
import re, sys
def pieces(path):
    raw = open(path, "rb").read().decode().replace("\r\n", "\n")
    screen, drawn = [], []
    for line in raw.split("\n"):
        shown = ""
        for seg in line.split("\r"):
            shown = seg + shown[len(seg):]
            if seg.strip():
                drawn.append(seg.rstrip())
        screen.append(shown.rstrip())
    while screen and not screen[-1]:
        screen.pop()
    return screen, drawn
# A count as the line writes it ("480k", "16.4k", "999"), and back to a number.
def fmt(v):
    i = -1
    while v >= 999.5 and i < 3:
        v /= 1000
        i += 1
    return "%.0f" % v if i < 0 else "%.*f%s" % (2 if v < 9.995 else 1 if v < 99.95 else 0, v, "kMGT"[i])
def count(s):
    m = re.fullmatch(r"([0-9.]+)([kMGT]?)", s)
    if not m:
        sys.exit("not a count: %r" % s)
    mul = 1000 ** ("kMGT".index(m.group(2)) + 1) if m.group(2) else 1
    return float(m.group(1)) * mul
PASS = re.compile(r"tprof-analyze: (merging|finding steps) (\S+)/(\S+) records \((\d+)%\), "
                  r"(\S+) records/s(, (\d+:)?\d+:\d\d left)?")
READ = re.compile(r"tprof-analyze: reading ([0-9.]+)/([0-9.]+) (B|KiB|MiB) \((\d+)%\), "
                  r"(\S+) records, [0-9.]+ (B|KiB|MiB|GiB)/s(, (\d+:)?\d+:\d\d left)?")
# A pass over the records: which, once its counts are checked against the n records of the
# trace (4 threads of 20000 iterations, 6 records each, and 2 steps: 480002).
def check_pass(seg, n=480002):
    m = PASS.fullmatch(seg)
    if not m:
        return None
    done, total, pct = count(m.group(2)), m.group(3), int(m.group(4))
    if total != fmt(n) or not 0 < done <= n or abs(pct - 100 * done / n) > 1.5:
        sys.exit("expected a count of the %d records, got %r" % (n, seg))
    count(m.group(5))
    return m.group(1)
'

"$INSPECT" -o "$T/out" -- "$APPS/threads" 4 20000 >"$T/out.txt" 2>"$T/err.txt" &&
	grep -qx 'threads=4 iterations=20000' "$T/out.txt"
ok $? "the program runs under tprof-inspect"

# The reference: stderr is a file, so no progress line, even with no delay.
ARGS="--steps 0 --summary --format chrome"
TPROF_PROGRESS_DELAY_MS=0 "$ANALYZE" "$T/out" $ARGS -o "$T/ref.json" >"$T/ref.sum" 2>"$T/ref.err"
ok $? "tprof-analyze runs with stderr to a file"
printf 'tprof-analyze: Chrome trace written to %s\n' "$T/ref.json" | cmp -s - "$T/ref.err"
ok $? "stderr to a file: no progress text, only the usual line"

on_pty "$T/pty.out" "TPROF_PROGRESS_DELAY_MS=0 '$ANALYZE' '$T/out' $ARGS -o '$T/pty.json' >'$T/pty.sum'"
ok $? "tprof-analyze runs on a terminal"
py "$SCREEN"'
screen, drawn = pieces(sys.argv[1])
seen = set()
for seg in drawn:
    m = READ.fullmatch(seg)
    if m:
        if not float(m.group(1)) <= float(m.group(2)) or count(m.group(5)) < 1:
            sys.exit("reading: %r" % seg)
        seen.add("reading")
        continue
    what = check_pass(seg)
    if what:
        seen.add(what)
    elif not seg.startswith("tprof-analyze: Chrome trace written to "):
        sys.exit("unexpected text on the terminal: %r" % seg)
if seen != {"reading", "finding steps", "merging"}:
    sys.exit("phases shown: %s, of reading, finding steps, merging; drawn %s" % (seen, drawn))
' "$T/pty.out"
ok $? "on a terminal: reading (bytes, records), finding steps and merging (records read/total, rate)"
py "$SCREEN"'
screen, drawn = pieces(sys.argv[1])
want = ["tprof-analyze: Chrome trace written to " + sys.argv[2]]
if screen != want:
    sys.exit("the terminal shows %r, expected %r" % (screen, want))
' "$T/pty.out" "$T/pty.json"
ok $? "the progress line is erased: the terminal ends with the usual line alone"
cmp -s "$T/ref.sum" "$T/pty.sum" && cmp -s "$T/ref.json" "$T/pty.json"
ok $? "the summary and the Chrome trace are those written without the progress line"

# The first second stays quiet: this analysis takes less.
on_pty "$T/quiet.out" "'$ANALYZE' '$T/out' --steps 0 >'$T/quiet.sum'" &&
	cmp -s "$T/ref.sum" "$T/quiet.sum"
ok $? "on a terminal without the knob: tprof-analyze runs"
check "a short analysis shows nothing on the terminal" test ! -s "$T/quiet.out"

# --progress: even to a file.
TPROF_PROGRESS_DELAY_MS=0 "$ANALYZE" "$T/out" --steps 0 --progress >"$T/forced.sum" 2>"$T/forced.err" &&
	cmp -s "$T/ref.sum" "$T/forced.sum" &&
	py "$SCREEN"'
screen, drawn = pieces(sys.argv[1])
if screen or "merging" not in [check_pass(s) for s in drawn]:
    sys.exit("--progress, stderr to a file: shows %r, drew %r" % (screen, drawn))
' "$T/forced.err"
ok $? "--progress: the line is drawn (and erased) with stderr to a file, the summary unchanged"

# --no-progress: nothing on a terminal.
on_pty "$T/off.out" "TPROF_PROGRESS_DELAY_MS=0 '$ANALYZE' '$T/out' --steps 0 --no-progress >'$T/off.sum'" &&
	cmp -s "$T/ref.sum" "$T/off.sum"
ok $? "--no-progress on a terminal: tprof-analyze runs, the summary unchanged"
check "--no-progress: nothing on the terminal" test ! -s "$T/off.out"

# A process killed by SIGKILL: most of its 240000 records (2 threads of 40000 ranges and
# marks) are in its spool, and count in the totals.
"$INSPECT" -o "$T/kill" -- "$APPS/exits" kill 40000 >"$T/kill.txt" 2>&1
grep -qx 'recorded mode=kill k=40000' "$T/kill.txt" && test -s "$T/kill"/*.spool &&
	TPROF_PROGRESS_DELAY_MS=0 "$ANALYZE" "$T/kill" --progress >/dev/null 2>"$T/kill.err" &&
	py "$SCREEN"'
screen, drawn = pieces(sys.argv[1])
shown = [check_pass(s, 240000) for s in drawn]
found = [READ.fullmatch(s).group(5) for s in drawn if READ.fullmatch(s)]
if "merging" not in shown or fmt(240000) not in found:
    sys.exit("killed process: drew %r" % drawn)
' "$T/kill.err"
ok $? "a killed process: the spool's records count (reading: 240k records; merging: of 240k)"
finish
