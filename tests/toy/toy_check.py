"""toy_check.py MODE JSON SUMMARY [SUMMARY_JSON] — checks what tprof-analyze made of the toy
program's profile (toy/t-toy.sh).  MODE toy: the analyzer has the toy runtime; its four
toyMake calls (5, 7, 30 and 0 widgets of "sprocket", the last one failing) are in the "toy"
category with widgets and gadget among their arguments, each with toy work on a device track
and an arrow from the call, and the summary's toy table counts them.  MODE
plain: the analyzer without it shows the four calls under the generic category and no toy
work, and lists them in the summary's table of calls of runtimes it does not know (text and
JSON).  Prints what is wrong and exits 1, else prints nothing."""
import json, sys
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/tools")
from chrome_trace import load, events

mode, trace, summary = sys.argv[1], sys.argv[2], sys.argv[3]
ev = events(load(trace))
calls = sorted((e for e in ev if e["ph"] == "X" and e["name"] == "toyMake"),
               key=lambda e: e["ts"])
fail = []
if len(calls) != 4 or len({(e["pid"], e["tid"]) for e in calls}) != 1:
    fail.append("toyMake calls: %s" % [(e["pid"], e["tid"], e["ts"]) for e in calls])
text = open(summary, encoding="utf-8").read()
if mode == "toy":
    if any(e["cat"] != "toy" for e in calls):
        fail.append("categories %s" % [e["cat"] for e in calls])
    got = [(e["args"].get("widgets"), e["args"].get("gadget")) for e in calls]
    if got != [(5, "sprocket"), (7, "sprocket"), (30, "sprocket"), (0, "sprocket")]:
        fail.append("widgets and gadgets %s" % got)
    work = [e for e in ev if e["ph"] == "X" and e["name"] == "toy work"]
    on = lambda es: {(e["pid"], e["tid"]) for e in es}
    if len(work) != 4 or on(work) & on(calls):
        fail.append("toy work: %s" % [(e["pid"], e["tid"]) for e in work])
    for c, w in zip(calls, sorted(work, key=lambda e: e["ts"])):
        if not c["ts"] <= w["ts"] <= w["ts"] + w["dur"] <= c["ts"] + c["dur"] + 0.001:
            fail.append("toy work at %s outside its call at %s" % (w["ts"], c["ts"]))
    starts = [e for e in ev if e["ph"] == "s" and e.get("cat") == "toy"]
    ends = [e for e in ev if e["ph"] == "f" and e.get("cat") == "toy"]
    if len(starts) != 4 or len(ends) != 4:
        fail.append("arrows: %d starts, %d ends" % (len(starts), len(ends)))
    if "Toy widgets\ncalls 4, widgets 42\n" not in text or "API calls" in text:
        fail.append("summary without the toy table, or with toy calls as unknown: %r"
                    % text[-300:])
    js = json.load(open(sys.argv[4], encoding="utf-8"))
    toy = js.get("toy")
    if toy != {"calls": 4, "widgets": 42}:
        fail.append("summary JSON toy part: %r" % toy)
else:
    if any(e["cat"] == "toy" for e in ev) or any(e["name"] == "toy work" for e in ev):
        fail.append("toy items without the toy runtime")
    if "Toy widgets" in text:
        fail.append("a toy table without the toy runtime")
    rows = [l.split() for l in text.split("\nAPI calls\n", 1)[-1].splitlines()[1:2]]
    if "\nAPI calls\n" not in text or not rows or rows[0][-1] != "toyMake" or rows[0][4] != "4":
        fail.append("no table of the calls of an unknown runtime: %r" % text[-300:])
    js = json.load(open(sys.argv[4], encoding="utf-8"))
    listed = [(r["name"], r["calls"]) for r in js.get("api_calls", {}).get("rows", [])]
    if listed != [("toyMake", 4)]:
        fail.append("summary JSON api_calls: %r" % listed)
    if any("widgets" in e.get("args", {}) for e in calls):
        fail.append("toy arguments without the toy runtime")
if fail:
    print("; ".join(fail[:6]))
    sys.exit(1)
