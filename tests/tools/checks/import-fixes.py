"""import-fixes.py — the checks of func/t-import-fixes.sh.  write-trace (not a check) writes the
trace of every cause the import counts, and WANT, the JSON of what each cause must count and
the offset where it is first met; the checks read what tprof-analyze --import made of it: its
-v messages, its JSON summary and its Chrome trace.  cause-keys (not a check) prints the
causes of a JSON summary on standard input, {text: cause key}."""
import json
import re
import sys

from checklib import fail, main
from chrome_trace import events, load


def write_trace(path, want_path):
    """Writes the trace at PATH, and at WANT_PATH what each cause must count and where it is
    first met."""
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
    put("{\"traceName\": \"first\", \"traceName\": \"second\", \"deviceProperties\": 5,\n"
        "\"traceEvents\": [\n")
    # (the top-level members again / of the wrong type: found at their key, counted without
    # offset check)
    ev("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"one\"}}")
    ev("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"uno\"}}",
       "renamed")
    ev("{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":1,"
       "\"args\":{\"sort_index\":3}}", "metadata")
    ev("{\"ph\":\"X\",\"name\":\"neg\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":-5}", "negative_dur")
    ev("{\"ph\":\"X\",\"name\":\"neg2\",\"pid\":1,\"tid\":1,\"ts\":12,\"dur\":-1}", "negative_dur")
    ev("{\"ph\":\"X\",\"name\":\"nodur\",\"pid\":1,\"tid\":1,\"ts\":20}", "no_dur")
    ev("{\"ph\":\"X\",\"name\":\"nots\",\"pid\":1,\"tid\":1,\"dur\":3}", "no_ts")
    ev("{\"ph\":\"Q\",\"name\":\"odd\",\"pid\":1,\"tid\":1,\"ts\":21}", "phase")
    ev("{\"ph\":\"X\",\"name\":7,\"pid\":1,\"tid\":1,\"ts\":22,\"dur\":1}", "wrong_type")
    ev("{\"ph\":\"X\",\"name\":\"twice\",\"pid\":1,\"tid\":1,\"ts\":24,\"ts\":99,\"dur\":1}",
       "member_twice")
    ev("{\"ph\":\"X\",\"name\":\"frac\",\"pid\":1.5,\"tid\":1,\"ts\":26,\"dur\":1}", "fraction")
    ev("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":28,"
       "\"args\":{\"a\":\"many\",\"b\":4}}", "counter_value")
    ev("{\"ph\":\"X\",\"name\":\"parent\",\"pid\":1,\"tid\":2,\"ts\":30,\"dur\":10}")
    ev("{\"ph\":\"X\",\"name\":\"child\",\"pid\":1,\"tid\":2,\"ts\":35,\"dur\":20}", "clipped")
    ev("{\"ph\":\"b\",\"name\":\"r\",\"cat\":\"c\",\"id\":5,\"pid\":1,\"tid\":1,\"ts\":40}",
       "async_open")
    ev("{\"ph\":\"e\",\"name\":\"r\",\"cat\":\"c\",\"id\":6,\"pid\":1,\"tid\":1,\"ts\":41}",
       "async_end_alone")
    ev("{\"ph\":\"f\",\"name\":\"fl\",\"cat\":\"c\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":42,"
       "\"bp\":\"e\"}", "flow_end_alone")
    ev("{\"ph\":\"s\",\"name\":\"fl\",\"cat\":\"c\",\"id\":8,\"pid\":1,\"tid\":1,\"ts\":43}",
       "flow_open")
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
    open(path, "w").write("".join(out))
    json.dump(want, open(want_path, "w"))


def cause_keys():
    """Prints {text: cause key} of the import causes of the JSON summary on standard input."""
    d = json.load(sys.stdin)["header"]["import"]["causes"]
    print(json.dumps({c["text"]: c["cause"] for c in d}))


def verbose_lines(err, want, keys):
    """-v: each cause once, with its count and the offset of its first event (KEYS: what
    cause-keys printed, to name the causes of the lines)."""
    want = json.load(open(want))
    text = open(err).read()
    got = {}
    for m in re.finditer(r"import: (\d+) (.*) \(first at offset (\d+) of (.*)\)", text):
        got[m.group(2)] = (int(m.group(1)), int(m.group(3)))
    keys = json.load(open(keys))
    bad = []
    for k, (n, at) in want.items():
        line = [v for t, v in got.items() if keys.get(t) == k]
        if not line or line[0][0] != n or (at is not None and line[0][1] != at):
            bad.append("%s: want %d at %s, got %s" % (k, n, at, line))
    if bad:
        fail("; ".join(bad))


def summary_causes(summary, want):
    """--summary=json: every cause with its count and first offset; the events skipped in
    skipped.imported."""
    h = json.load(open(summary))["header"]
    want = json.load(open(want))
    causes = {c["cause"]: c for c in h["import"]["causes"]}
    bad = ["%s: %s" % (k, causes.get(k)) for k, (n, at) in want.items()
           if k not in causes or causes[k]["count"] != n or
           (at is not None and causes[k]["first_offset"] != at)]
    skip = ("damaged", "no_ts", "phase", "metadata", "e_alone", "counter_value",
            "async_end_alone", "flow_end_alone", "flow_open")
    skipped = sum(want[k][0] for k in skip)
    if h["skipped"]["imported"] != skipped or h["skipped"]["total"] < skipped:
        bad.append("skipped %s, want %d imported" % (h["skipped"], skipped))
    if h["import"]["total"] != sum(c["count"] for c in causes.values()):
        bad.append("total %s" % h["import"]["total"])
    if bad:
        fail("; ".join(bad))


def late_and_negative(trace):
    """The second traceEvents array's event is there; the negative durations are 0."""
    ev = events(load(trace))
    late = [e for e in ev if e["name"] == "late"]
    neg = [e for e in ev if e["name"] in ("neg", "neg2")]
    if not (len(late) == 1 and len(neg) == 2 and all(e["dur"] == 0 for e in neg)):
        fail("late %s, neg %s" % (late, neg))


main(globals())
