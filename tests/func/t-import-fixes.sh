#!/bin/sh
# What the import changes or leaves out of its input is counted by cause, never silent: a file
# written here holds one or more events of each cause (a negative dur, 100 E with no B, a second
# traceEvents array, an X without dur, no ts, an unknown phase, unused metadata, a process named
# twice, a name of the wrong type, a member given twice, a fractional pid, a counter value that
# is no number, a B never ended, a slice outliving its parent, async and flow ends without a
# begin and begins without an end, a top-level member twice and one of the wrong type, data
# after the JSON, a damaged event, no pid).  -v says one line per cause with its count and the
# offset of its first event; the summary's header shows every cause, and the events skipped
# among "skipped", in text and JSON.
. "$(dirname "$0")/lib.sh"
plan 7

# The file, and what each cause must count, and where it is first met.
py 'import json, sys
out, want = [], {}
size = [0]
def put(text):
    out.append(text)
    size[0] += len(text.encode())
def ev(text, cause=None, n=1, sep=",\n"):
    at = size[0]
    put(text + sep)
    if cause:
        c = want.setdefault(cause, [0, at])
        c[0] += n
put("{\"traceName\": \"first\", \"traceName\": \"second\", \"deviceProperties\": 5,\n\"traceEvents\": [\n")
# (the top-level members again / of the wrong type: found at their key, counted without offset check)
ev("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"one\"}}")
ev("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"uno\"}}", "renamed")
ev("{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":1,\"args\":{\"sort_index\":3}}", "metadata")
ev("{\"ph\":\"X\",\"name\":\"neg\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":-5}", "negative_dur")
ev("{\"ph\":\"X\",\"name\":\"neg2\",\"pid\":1,\"tid\":1,\"ts\":12,\"dur\":-1}", "negative_dur")
ev("{\"ph\":\"X\",\"name\":\"nodur\",\"pid\":1,\"tid\":1,\"ts\":20}", "no_dur")
ev("{\"ph\":\"X\",\"name\":\"nots\",\"pid\":1,\"tid\":1,\"dur\":3}", "no_ts")
ev("{\"ph\":\"Q\",\"name\":\"odd\",\"pid\":1,\"tid\":1,\"ts\":21}", "phase")
ev("{\"ph\":\"X\",\"name\":7,\"pid\":1,\"tid\":1,\"ts\":22,\"dur\":1}", "wrong_type")
ev("{\"ph\":\"X\",\"name\":\"twice\",\"pid\":1,\"tid\":1,\"ts\":24,\"ts\":99,\"dur\":1}", "member_twice")
ev("{\"ph\":\"X\",\"name\":\"frac\",\"pid\":1.5,\"tid\":1,\"ts\":26,\"dur\":1}", "fraction")
ev("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":28,\"args\":{\"a\":\"many\",\"b\":4}}", "counter_value")
ev("{\"ph\":\"X\",\"name\":\"parent\",\"pid\":1,\"tid\":2,\"ts\":30,\"dur\":10}")
ev("{\"ph\":\"X\",\"name\":\"child\",\"pid\":1,\"tid\":2,\"ts\":35,\"dur\":20}", "clipped")
ev("{\"ph\":\"b\",\"name\":\"r\",\"cat\":\"c\",\"id\":5,\"pid\":1,\"tid\":1,\"ts\":40}", "async_open")
ev("{\"ph\":\"e\",\"name\":\"r\",\"cat\":\"c\",\"id\":6,\"pid\":1,\"tid\":1,\"ts\":41}", "async_end_alone")
ev("{\"ph\":\"f\",\"name\":\"fl\",\"cat\":\"c\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":42,\"bp\":\"e\"}", "flow_end_alone")
ev("{\"ph\":\"s\",\"name\":\"fl\",\"cat\":\"c\",\"id\":8,\"pid\":1,\"tid\":1,\"ts\":43}", "flow_open")
ev("{\"ph\":\"X\",\"ts\":\"soon\",\"pid\":1,\"tid\":1}", "damaged")
ev("{\"ph\":\"i\",\"name\":\"nopid\",\"ts\":44}", "no_pid")
for i in range(100):
    ev("{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":%d}" % (50 + i), "e_alone")
ev("{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":4,\"ts\":200}", "b_alone", sep="\n")
put("],\n")
at = size[0]
put("\"traceEvents\": [\n")
want["events_again"] = [1, at]
ev("{\"ph\":\"X\",\"name\":\"late\",\"pid\":1,\"tid\":1,\"ts\":300,\"dur\":1}", sep="\n")
at = size[0] + 3
put("]}\n{}\n")
want["trailing"] = [1, at]
want["member_again"] = [1, None]
want["member_bad"] = [1, None]
open(sys.argv[1], "w").write("".join(out))
json.dump(want, open(sys.argv[2], "w"))' "$T/fix.json" "$T/fix.want"
ok $? "a trace of every cause written"

"$ANALYZE" --import "$T/fix.json" -v -f chrome -o "$T/fix.out.json" 2>"$T/fix.err"
ok $? "it converts"

# -v: one line per cause, its count and where it was first met
py 'import json, re, sys
want = json.load(open(sys.argv[2]))
text = open(sys.argv[1]).read()
got = {}
for m in re.finditer(r"import: (\d+) (.*) \(first at offset (\d+) of (.*)\)", text):
    got[m.group(2)] = (int(m.group(1)), int(m.group(3)))
keys = json.load(open(sys.argv[3]))
bad = []
for k, (n, at) in want.items():
    line = [v for t, v in got.items() if keys.get(t) == k]
    if not line or line[0][0] != n or (at is not None and line[0][1] != at):
        bad.append("%s: want %d at %s, got %s" % (k, n, at, line))
sys.exit("; ".join(bad) if bad else 0)' "$T/fix.err" "$T/fix.want" /dev/stdin <<EOF
$("$ANALYZE" --import "$T/fix.json" --summary=json 2>/dev/null | "$PY" -c 'import json, sys
d = json.load(sys.stdin)["header"]["import"]["causes"]
print(json.dumps({c["text"]: c["cause"] for c in d}))')
EOF
ok $? "-v: each cause once, with its count and the offset of its first event"
grep "import:" "$T/fix.err" | sed 's/^/# /'

"$ANALYZE" --import "$T/fix.json" --summary=json >"$T/fix.sum.json" 2>/dev/null &&
	py 'import json, sys
h = json.load(open(sys.argv[1]))["header"]
want = json.load(open(sys.argv[2]))
causes = {c["cause"]: c for c in h["import"]["causes"]}
bad = ["%s: %s" % (k, causes.get(k)) for k, (n, at) in want.items()
       if k not in causes or causes[k]["count"] != n or (at is not None and causes[k]["first_offset"] != at)]
skip = ("damaged", "no_ts", "phase", "metadata", "e_alone", "counter_value", "async_end_alone",
        "flow_end_alone", "flow_open")
skipped = sum(want[k][0] for k in skip)
if h["skipped"]["imported"] != skipped or h["skipped"]["total"] < skipped:
    bad.append("skipped %s, want %d imported" % (h["skipped"], skipped))
if h["import"]["total"] != sum(c["count"] for c in causes.values()):
    bad.append("total %s" % h["import"]["total"])
sys.exit("; ".join(bad) if bad else 0)' "$T/fix.sum.json" "$T/fix.want"
ok $? "--summary=json: every cause with its count and first offset; the events skipped in skipped.imported"

"$ANALYZE" --import "$T/fix.json" --summary >"$T/fix.sum" 2>/dev/null &&
	grep -q "^  skipped:     108  \[imported events: 108\]" "$T/fix.sum" &&
	grep -q "^  import:      [0-9,]* events or values changed or left out" "$T/fix.sum" &&
	grep -q "^    100 E events with no B open on their thread: skipped" "$T/fix.sum" &&
	grep -q "^    2 X events with a negative dur: 0 taken" "$T/fix.sum" &&
	grep -q "^    1 traceEvents arrays after the first: their events read as well" "$T/fix.sum"
ok $? "the text summary's header: skipped counts them, and a line per cause"
grep "^  skipped\|^  import\|^    [0-9]" "$T/fix.sum" | sed 's/^/# /'

# The second traceEvents array's event is there; the negative durations are 0.
pyc 'ev = events(load(sys.argv[1]))
late = [e for e in ev if e["name"] == "late"]
neg = [e for e in ev if e["name"] in ("neg", "neg2")]
sys.exit(0 if len(late) == 1 and len(neg) == 2 and all(e["dur"] == 0 for e in neg) else
         "late %s, neg %s" % (late, neg))' "$T/fix.out.json"
ok $? "the second array's events are read; negative durations are 0, as said"

# A clean trace says nothing: no import line, nothing skipped.
"$ANALYZE" --import "$T/fix.out.json" --summary >"$T/clean.sum" 2>/dev/null
printf '%s\n' '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]}' >"$T/clean.json"
"$ANALYZE" --import "$T/clean.json" --summary >"$T/clean.sum" 2>/dev/null &&
	grep -q "^  skipped:     0$" "$T/clean.sum" && ! grep -q "^  import:" "$T/clean.sum"
ok $? "a trace the import changes nothing of: no import line, skipped 0"
finish
