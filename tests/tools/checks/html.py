"""html.py — the checks of func/t-html.sh: a report written by tprof-analyze --format html,
opened in headless Chromium (browser.py), against the summary document of the same profile
(tprof-analyze --diagnose -s --summary-format json): the page asks for nothing but itself and
logs no error, every number it shows equals the document's, and each section is drawn (its
screenshot is not blank)."""
import base64
import json
import os

from checklib import fail, main
import browser

# What the page shows, read from its elements: the exact values of data- attributes.
READ = r"""(() => {
  const d = (e, k) => e && e.dataset[k] !== undefined ? Number(e.dataset[k]) : null;
  const facts = {};
  for (const div of document.querySelectorAll('#facts > div'))
    facts[div.querySelector('dt').textContent] = div.querySelector('dd [data-ns], dd [data-count]');
  const f = {};
  for (const k in facts) f[k] = facts[k] ? Number(facts[k].dataset.ns ?? facts[k].dataset.count) : null;
  const tables = {};
  for (const t of document.querySelectorAll('table[id]'))
    tables[t.id] = [...t.querySelectorAll('tbody tr')].map(tr => ({
      name: tr.querySelector('td') ? tr.querySelector('td').textContent : null,
      values: [...tr.querySelectorAll('td.num')].map(td => {
        const k = Object.keys(td.dataset)[0];
        return k === undefined ? null : Number(td.dataset[k]); }) }));
  return {
    drawn: document.body.dataset.drawn || null,
    sections: [...document.querySelectorAll('main > section')].map(s => s.id),
    facts: f,
    findings: [...document.querySelectorAll('ol.findings > li')].map(li => ({
      rank_order: Number(li.dataset.rankOrder), cost_ns: d(li.querySelector('.cost'), 'ns'),
      head: li.querySelector('.head .words').textContent, look: li.querySelector('.look code') ?
        li.querySelector('.look code').textContent : null })),
    job_ns: d(document.getElementById('time-job'), 'ns'),
    job_parts: [...document.querySelectorAll('#time-job > span')].map(s => [s.dataset.cat, Number(s.dataset.ns)]),
    steps: [...document.querySelectorAll('#steps-chart rect')].map(r => [Number(r.dataset.step), Number(r.dataset.ns)]),
    tables: tables,
    cut: Object.fromEntries([...document.querySelectorAll('p.cut')].map(p =>
      [p.dataset.path, [Number(p.dataset.kept), Number(p.dataset.of)]])),
  };
})()"""

# Each table's bars by its second number column (a click on its heading): each row's bar
# width (% of the cell) and that column's exact value.
BARS = r"""(() => {
  const out = {};
  for (const t of document.querySelectorAll('table[id]')) {
    const bs = t.querySelectorAll('thead button.measure');
    if (bs.length < 2) continue;
    bs[1].click();
    out[t.id] = [t.dataset.bars, [...t.querySelectorAll('tbody tr')].map(tr => {
      const td = tr.querySelectorAll('td.num')[1], k = Object.keys(td.dataset)[0];
      return [k === undefined ? 0 : Number(td.dataset[k]), parseFloat(tr.querySelector('.bar').style.width)];
    })];
    bs[0].click();
  }
  return out;
})()"""

CATS = ["compute", "copy", "wait", "collective", "runtime", "host", "cpu_wait", "idle"]


def _get(doc, path):
    for k in path.split("."):
        if not isinstance(doc, dict) or doc.get(k) is None:
            return None
        doc = doc[k]
    return doc


# table id: (the document's rows, the name's key, the keys of the number columns in order)
TABLES = {
    "top-kernels": ("kernels.rows", "name", ["time_ns", "calls", "avg_ns", "total_pct"]),
    "top-hip_api": ("hip_api.rows", "name", ["time_ns", "calls", "avg_ns", "total_pct"]),
    "top-cuda_api": ("cuda_api.rows", "name", ["time_ns", "calls", "avg_ns", "total_pct"]),
    "top-nrt_api": ("nrt_api.rows", "name", ["time_ns", "calls", "avg_ns", "total_pct"]),
    "top-mpi": ("mpi.calls.rows", "name", ["time_ns", "calls", "avg_ns", "total_pct"]),
    "top-nccl": ("nccl.calls.rows", "name", ["time_ns", "calls", "avg_ns", "total_pct"]),
    "top-framework": ("framework_ops.rows", "name", ["self_ns", "count"]),
    "top-nccl-collectives": ("nccl.collectives.rows", "name",
                             ["total_ns", "calls", "size_bytes", "busbw_GBps"]),
    "top-mpi-collectives": ("mpi.collectives.rows", "name",
                            ["total_ns", "instances", "wait_ns", "bandwidth_Bps"]),
    "top-copies": ("copies.rows", "direction", ["time_ns", "calls", "bytes", "bandwidth_GBps"]),
    "mpi-ranks": ("mpi.ranks.rows", None, ["time_ns", "share_pct", "late_sender_ns"]),
    "cpu-cores": ("system.cpu_cores.rows", None, ["avg_pct", "max_pct"]),
    "memory": ("system.memory.rows", None, ["peak_bytes", "total_bytes"]),
    "off-cpu": ("system.off_cpu.rows", None,
                ["off_cpu_ns", "running_ns", "runnable_ns", "sleeping_ns", "blocked_ns"]),
    "time-procs": ("diagnosis.processes", None, ["covered_ns", "steps"]),
    "slow-steps": ("diagnosis.slow_steps.rows", None, ["step", "ns"]),
}

# The lists a page holds the first rows of, at most (page-doc.c), and the rows it shows
# (the slow steps: the first 20 always).
CUTS = {"diagnosis.findings": 100, "diagnosis.processes": 256, "diagnosis.steps": 4096,
        "mpi.ranks.rows": 256}


def _first(doc, path, shown, bad):
    """The rows of the list at path the page holds: all, or the first CUTS[path] and a note
    saying how many of how many."""
    rows = _get(doc, path) or []
    cap = CUTS.get(path)
    if cap is None or len(rows) <= cap:
        if path in shown["cut"]:
            bad.append("%s: the page says it is cut (%s), the summary has %d rows" %
                       (path, shown["cut"][path], len(rows)))
        return rows
    if shown["cut"].get(path) != [cap, len(rows)]:
        bad.append("%s: %d rows, the page holds %d: it should say so (it says %s)" %
                   (path, len(rows), cap, shown["cut"].get(path)))
    return rows[:cap]


def _same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return float(a) == float(b)


def _numbers(doc, shown, bad):
    """Every number shown against the document's."""
    h = doc["header"]
    for fact, key in (("wall time", "wall_time_ns"), ("processes", "processes"),
                      ("threads", "threads"), ("events", "events")):
        if not _same(shown["facts"].get(fact), h[key]):
            bad.append("%s: the page says %s, the summary %s" % (fact, shown["facts"].get(fact), h[key]))
    dx = doc.get("diagnosis")
    if dx is None:
        bad.append("the summary has no diagnosis")
        return
    want = [(f["rank_order"], f["cost_ns"], f["text"].split("\n")[0], f["look"])
            for f in _first(doc, "diagnosis.findings", shown, bad)]
    got = [(f["rank_order"], f["cost_ns"], f["head"], f["look"]) for f in shown["findings"]]
    if got != want:
        bad.append("findings: the page shows %s, the summary has %s" % (got[:3], want[:3]))
    if dx.get("time"):
        t = dx["time"]
        if not _same(shown["job_ns"], t["covered_ns"]):
            bad.append("the job's time: %s, the summary %s" % (shown["job_ns"], t["covered_ns"]))
        want = [[c, t[c + "_ns"]] for c in CATS if t[c + "_ns"]]
        if shown["job_parts"] != want:
            bad.append("the job's parts: %s, the summary %s" % (shown["job_parts"], want))
    want = [[s["step"], s["longest_ns"]] for s in _first(doc, "diagnosis.steps", shown, bad)]
    if shown["steps"] != want:
        bad.append("steps: %s..., the summary %s..." % (shown["steps"][:3], want[:3]))
    for tid, (path, name, keys) in TABLES.items():
        rows = _first(doc, path, shown, bad)
        got = shown["tables"].get(tid)
        if tid == "slow-steps":
            rows = rows[:20]
        if not rows:
            if got:
                bad.append("table %s: %d rows, the summary none" % (tid, len(got)))
            continue
        if got is None:
            bad.append("table %s missing (the summary has %d rows)" % (tid, len(rows)))
            continue
        if len(got) != len(rows):
            bad.append("table %s: %d rows, the summary %d" % (tid, len(got), len(rows)))
            continue
        for g, r in zip(got, rows):
            if name and g["name"] != r[name]:
                bad.append("table %s: row %s, the summary's %s" % (tid, g["name"], r[name]))
            w = [r.get(k) for k in keys]
            if len(g["values"]) != len(w) or not all(_same(a, b) for a, b in zip(g["values"], w)):
                bad.append("table %s, row %s: %s, the summary %s" % (tid, g["name"], g["values"], w))
    return


def _drawn(p, shown, shots, bad):
    """A screenshot of each section, which must not be blank: some share of its pixels off
    its background, in more than a few colours."""
    for sid in shown["sections"]:
        r = p.eval("(() => { const b = document.getElementById('%s').getBoundingClientRect();"
                   " return [b.left + scrollX, b.top + scrollY, b.width, b.height]; })()" % sid)
        path = os.path.join(shots, sid + ".png")
        r[3] = min(r[3], 700)   # its top: what a reader sees first (and a long one costs)
        p.screenshot_clip(path, *r)
        w, h, rows, ch = browser.png_pixels(path)
        bg, colours, off = rows[h // 2][:ch], set(), 0
        for y in range(0, h, 2):
            row = rows[y]
            for x in range(0, w * ch, 2 * ch):
                px = row[x:x + ch]
                colours.add(px)
                off += px != bg
        share = off / max(1, ((h + 1) // 2) * ((w + 1) // 2))
        if share < 0.01 or len(colours) < 4:
            bad.append("section %s looks blank: %.2f %% of its pixels drawn, %d colours (%s)"
                       % (sid, 100 * share, len(colours), path))


def report(html, summary_json, shots, *want_sections):
    """The report at html: loads with no request but itself and no error, shows the numbers
    of summary_json, and draws each section (screenshots in shots); want_sections: sections
    that must be there."""
    doc = json.load(open(summary_json))
    bad = []
    os.makedirs(shots, exist_ok=True)
    with browser.Page.open(html) as p:
        url = "file://" + os.path.abspath(html)
        if p.requests != [url]:
            bad.append("requests beyond the page itself: %s" % [u for u in p.requests if u != url])
        shown = p.eval(READ)
        if p.errors:
            bad.append("errors: %s" % p.errors)
        if shown["drawn"] != "yes":
            bad.append("the page did not finish drawing itself")
        for s in want_sections:
            if s not in shown["sections"]:
                bad.append("no section %s (there are %s)" % (s, shown["sections"]))
        _numbers(doc, shown, bad)
        for tid, (by, rows) in p.eval(BARS).items():
            top = max([v for v, _ in rows] + [0])
            if any(abs(w - (100 * v / top if top > 0 else 0)) > 0.01 for v, w in rows):
                bad.append("table %s by %s: bars %s for values %s" %
                           (tid, by, [w for _, w in rows][:5], [v for v, _ in rows][:5]))
        _drawn(p, shown, shots, bad)
        p.screenshot(os.path.join(shots, "page.png"), full=False)
    if bad:
        fail("%s:\n  %s" % (html, "\n  ".join(bad)))


def _strip(b64, bins):
    import base64
    b = base64.b64decode(b64)
    if len(b) != bins:
        fail("a strip of %d bytes, not %d" % (len(b), bins))
    return b


def timeline(html, summary_json, truth="no"):
    """The overview strips (#tprof-view): one for each process the diagnosis covers, with a
    bin holding time wherever its covered time can be; a finding's "show" zooms the timeline to
    the finding's time; + zooms in, 0 shows all.  truth "late": in the top finding's time, its
    process does something else than wait in most bins, every other process waits in most."""
    doc = json.load(open(summary_json))
    dx = doc["diagnosis"]
    bad = []
    with browser.Page.open(html) as p:
        ov = p.eval("JSON.parse(document.getElementById('tprof-view').textContent).overview")
        bins, bin_ns = ov["bins"], ov["bin_ns"]
        strips = {x["process"]: _strip(x["bins"], bins) for x in ov["processes"] if x["bins"]}
        for x in ov["processes"]:
            for st in x["streams"]:
                _strip(st["bins"], bins)
        for pr in dx["processes"]:
            i, covered = pr["process"]["index"], pr["covered_ns"]
            if not covered:
                continue
            if i not in strips:
                bad.append("process %d (%d ns diagnosed) has no strip" % (i, covered))
                continue
            held = sum(1 for b in strips[i] if b) * bin_ns
            if held + 2 * bin_ns < covered:
                bad.append("process %d: %d ns in its steps, its strip holds time in %d ns of bins"
                           % (i, covered, held))
            if any(b and (b & 31) == 0 for b in strips[i]):
                bad.append("process %d: a bin of a category with no share" % i)
        view = "JSON.parse(JSON.stringify(document.getElementById('ov-canvas').dataset))"
        f = dx["findings"][0] if dx["findings"] else None
        if f and f["longest"]["where"]["start_ns"] is not None:
            w = f["longest"]["where"]
            p.eval("document.querySelector('ol.findings > li button.show').click()")
            v = p.eval(view)
            a, z, d = int(v["view0"]), int(v["view1"]), w["end_ns"] - w["start_ns"]
            if not (a <= w["start_ns"] and z >= w["end_ns"] and
                    z - a <= max(1.5 * d + 5 * bin_ns, 9 * bin_ns)):
                bad.append("show: the timeline shows %d..%d, the finding's time is %d..%d"
                           % (a, z, w["start_ns"], w["end_ns"]))
            key = ("document.getElementById('ov-canvas').dispatchEvent(new KeyboardEvent("
                   "'keydown', {key: '%s', bubbles: true}))")
            p.eval(key % "+")
            v2 = p.eval(view)
            span, span2 = z - a, int(v2["view1"]) - int(v2["view0"])
            if span > 16 * bin_ns and abs(span2 - span / 2) > 2 * bin_ns:
                bad.append("+: the span %d ns became %d" % (span, span2))
            p.eval(key % "0")
            v3 = p.eval(view)
            if int(v3["view0"]) != 0 or int(v3["view1"]) != bins * bin_ns:
                bad.append("0: the timeline shows %s..%s, not all" % (v3["view0"], v3["view1"]))
            if truth == "late":
                late = f["process"]["index"]
                k0 = -(-w["start_ns"] // bin_ns) + 1
                k1 = w["end_ns"] // bin_ns - 1
                inside = range(k0, k1)
                if len(inside) < 4:
                    bad.append("the finding's time covers %d bins only" % len(inside))
                for i, b in strips.items():
                    waits = sum(1 for k in inside if strips[i][k] >> 5 == CATS.index("wait"))
                    if i == late and waits > 0.2 * len(inside):
                        bad.append("the late process %d waits in %d of the %d bins of its "
                                   "finding" % (i, waits, len(inside)))
                    if i != late and waits < 0.5 * len(inside):
                        bad.append("process %d waits in %d of the %d bins of the finding"
                                   % (i, waits, len(inside)))
        elif f:
            bad.append("the top finding has no time")
        if p.errors:
            bad.append("errors: %s" % p.errors)
    if bad:
        fail("%s:\n  %s" % (html, "\n  ".join(bad)))


def stepmap(html, summary_json):
    """The step map (#tprof-view): a row for each process with steps; over its columns, the
    steps each process had, and, a step a column, the longest, the most waiting and the mean
    waiting of each step equal to the summary's (float32: within 1e-6), both maps drawn."""
    import base64
    import struct
    doc = json.load(open(summary_json))
    steps = doc["diagnosis"]["steps"]
    bad = []
    with browser.Page.open(html) as p:
        m = p.eval("JSON.parse(document.getElementById('tprof-view').textContent).stepmap")
        drawn = p.eval("[...document.querySelectorAll('#stepmap canvas')].map(c => c.width * c.height)")
        if p.errors:
            bad.append("errors: %s" % p.errors)
    if len(drawn) != 2 or not all(drawn):
        bad.append("the two maps drawn: %s" % drawn)
    first, per, cols = m["first_step"], m["steps_a_column"], m["columns"]
    cells = {}
    for x in m["processes"]:
        b = base64.b64decode(x["cells"])
        if len(b) != 16 * cols:
            bad.append("process %d: %d bytes of cells, not %d" % (x["process"], len(b), 16 * cols))
            continue
        cells[x["process"]] = [struct.unpack_from("<Ifff", b, 16 * c) for c in range(cols)]
    with_steps = {pr["process"]["index"] for pr in doc["diagnosis"]["processes"] if pr["steps"]}
    if set(cells) != with_steps:
        bad.append("rows for processes %s, the summary's with steps %s" %
                   (sorted(cells)[:8], sorted(with_steps)[:8]))

    def near(a, b):
        return abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + 1

    for c in range(cols):
        inside = [s for s in steps if first + c * per <= s["step"] < first + (c + 1) * per]
        n = sum(v[c][0] for v in cells.values())
        if n != sum(s["ranks"] for s in inside):
            bad.append("column %d: %d steps, the summary %d" % (c, n, sum(s["ranks"] for s in inside)))
        if per != 1 or not inside:
            continue
        s = inside[0]
        longest = max(v[c][3] for v in cells.values() if v[c][0])
        wmax = max(v[c][2] for v in cells.values() if v[c][0])
        wmean = sum(v[c][2] for v in cells.values() if v[c][0]) / s["ranks"]
        if not (near(longest, s["longest_ns"]) and near(wmax, s["wait_max_ns"]) and
                near(wmean, s["wait_mean_ns"])):
            bad.append("step %d: longest %d, waits at most %d, %d on average; the summary %d, "
                       "%d, %d" % (s["step"], longest, wmax, wmean, s["longest_ns"],
                                   s["wait_max_ns"], s["wait_mean_ns"]))
    if bad:
        fail("%s:\n  %s" % (html, "\n  ".join(bad[:12])))


def matrix(html, summary_json):
    """The communication matrix (#tprof-view): its transfers and bytes add up to the MPI
    messages the summary matched and the NCCL sends it matched with their receives, every
    pair within the ranks, the section's totals the same, drawn; no section when there is no
    transfer."""
    doc = json.load(open(summary_json))
    msgs = (doc.get("mpi") or {}).get("messages") or {}
    p2p = ((doc.get("nccl") or {}).get("p2p") or {})
    if p2p.get("rows_omitted"):
        fail("the summary's NCCL pairs are cut (%d omitted): run it with --ranks 0" %
             p2p["rows_omitted"])
    matched = msgs.get("matched", 0) + sum(r["messages"] for r in p2p.get("rows", []))
    matched_bytes = msgs.get("matched_bytes", 0) + sum(r["bytes"] for r in p2p.get("rows", []))
    bad = []
    with browser.Page.open(html) as p:
        m = p.eval("JSON.parse(document.getElementById('tprof-view').textContent).matrix")
        sec = p.eval("(() => { const s = document.getElementById('matrix'); return s ? "
                     "{messages: Number(s.dataset.messages), bytes: Number(s.dataset.bytes), "
                     "drawn: document.getElementById('matrix-canvas').width} : null; })()")
        if p.errors:
            bad.append("errors: %s" % p.errors)
    if not matched:
        if m is not None or sec is not None:
            bad.append("no transfer matched, yet a matrix: %s" % sec)
    elif m is None or sec is None:
        bad.append("%d transfers matched, no matrix" % matched)
    else:
        n = sum(x[2] for x in m["pairs"])
        b = sum(x[3] for x in m["pairs"])
        if n != matched or b != matched_bytes:
            bad.append("the matrix holds %d transfers of %d bytes, the summary %d of %d" %
                       (n, b, matched, matched_bytes))
        if sec["messages"] != n or sec["bytes"] != b or not sec["drawn"]:
            bad.append("the section says %s, the matrix %d transfers, %d bytes" % (sec, n, b))
        blocks = m["blocks"]
        if any(not (0 <= x[0] < blocks and 0 <= x[1] < blocks) for x in m["pairs"]):
            bad.append("a pair outside the %d blocks" % blocks)
    if bad:
        fail("%s:\n  %s" % (html, "\n  ".join(bad)))


def threads(html, summary_json):
    """The thread states (#tprof-view's threads, the section): the busiest threads by time
    on a CPU, 16 at most, busiest first, each strip a byte a bin of a known state; each
    thread's time on a CPU in the section's table as in the view and, for the threads the
    summary's off-CPU table holds, as the summary says; none when no state was recorded."""
    doc = json.load(open(summary_json))
    want = {(r["process"], r["tid"]): r["running_ns"]
            for r in ((doc.get("system") or {}).get("off_cpu") or {}).get("rows", [])}
    bad = []
    with browser.Page.open(html) as p:
        v = p.eval("JSON.parse(document.getElementById('tprof-view').textContent).threads")
        rows = p.eval("(() => { const t = document.getElementById('threads-running'); return t ? "
                      "[...t.tBodies[0].rows].map(tr => [Number(tr.dataset.process), "
                      "Number(tr.dataset.tid), Number(tr.querySelector('td.num').dataset.ns)]) "
                      ": null; })()")
        drawn = p.eval("(() => { const c = document.getElementById('threads-canvas'); "
                       "return c ? c.width : 0; })()")
        if p.errors:
            bad.append("errors: %s" % p.errors)
    if not want:
        if v is not None or rows is not None:
            bad.append("no thread states in the summary, yet %s" % rows)
    elif v is None or rows is None or not drawn:
        bad.append("the summary has thread states, the page none (%s, %s)" % (v, rows))
    else:
        ts = v["threads"]
        run = [t["running_ns"] for t in ts]
        if not 0 < len(ts) <= 16 or run != sorted(run, reverse=True):
            bad.append("%d threads, by time on a CPU %s" % (len(ts), run))
        for t in ts:
            b = _strip(t["bins"], v["bins"])
            if any(x and not (x >> 5 < 4 and 1 <= x & 31 <= v["levels"]) for x in b):
                bad.append("thread %d: a byte of no state" % t["tid"])
        if rows != [[t["process"], t["tid"], t["running_ns"]] for t in ts]:
            bad.append("the table %s, the view %s" % (rows[:3], ts[:1]))
        both = [(t["process"], t["tid"]) for t in ts if (t["process"], t["tid"]) in want]
        if not both:
            bad.append("no thread of the page in the summary's off-CPU table")
        for k in both:
            got = [t["running_ns"] for t in ts if (t["process"], t["tid"]) == k][0]
            if got != want[k]:
                bad.append("thread %s: %d ns on a CPU, the summary %d" % (k, got, want[k]))
    if bad:
        fail("%s:\n  %s" % (html, "\n  ".join(bad)))


def modes(html, shots):
    """Dark and print: with the reader's setting dark, the page's background and the
    timeline's are dark and the timeline is drawn again (not blank); for print, the page
    prints (a PDF of a few pages), the section links hidden and folded tables shown."""
    bad = []
    os.makedirs(shots, exist_ok=True)
    with browser.Page.open(html) as p:
        p.call("Emulation.setEmulatedMedia",
               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        bg = p.eval("getComputedStyle(document.body).backgroundColor")
        rgb = [int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]]
        if sum(rgb) > 150:
            bad.append("dark: the page's background is %s" % bg)
        r = p.eval("(() => { const b = document.getElementById('overview').getBoundingClientRect();"
                   " return [b.left + scrollX, b.top + scrollY, b.width, b.height]; })()")
        path = os.path.join(shots, "dark-overview.png")
        p.screenshot_clip(path, *r)
        w, h, rows, ch = browser.png_pixels(path)
        px = rows[h // 2][(w // 2) * ch:(w // 2) * ch + 3]
        colours = {rows[y][x:x + 3] for y in range(0, h, 3) for x in range(0, w * ch, 3 * ch)}
        if len(colours) < 4:
            bad.append("dark: the timeline looks blank (%d colours)" % len(colours))
        if sum(rows[2][2 * ch:2 * ch + 3]) > 200:
            bad.append("dark: the timeline's section is light: %s" % list(rows[2][2 * ch:2 * ch + 3]))
        p.call("Emulation.setEmulatedMedia", {"media": "print", "features": []})
        toc = p.eval("getComputedStyle(document.getElementById('toc')).display")
        hidden = p.eval("[...document.querySelectorAll('details:not([open]) table')]"
                        ".filter(t => t.getBoundingClientRect().height === 0).length")
        if toc != "none" or hidden:
            bad.append("print: the section links %s, %d folded tables not shown" % (toc, hidden))
        pdf = base64.b64decode(p.call("Page.printToPDF", {"printBackground": True})["data"])
        if not pdf.startswith(b"%PDF") or pdf.count(b"/Type /Page") < 2:
            bad.append("print: not a PDF of pages (%d bytes, %d pages)" %
                       (len(pdf), pdf.count(b"/Type /Page")))
        if p.errors:
            bad.append("errors: %s" % p.errors)
    if bad:
        fail("%s:\n  %s" % (html, "\n  ".join(bad)))


def hostile(html, name):
    """A page whose profile names a function name (markup that would end the data element,
    run a script, open a comment): drawn, no error, no script of the profile's run, the name
    shown as text."""
    with browser.Page.open(html) as p:
        got = p.eval("(() => ({ drawn: document.body.dataset.drawn || null, owned: "
                     "document.body.dataset.owned || null, names: [...document.querySelectorAll("
                     "'#top-framework td.name')].map(td => td.textContent) }))()")
        if p.errors or got["drawn"] != "yes" or got["owned"] or name not in got["names"]:
            fail("%s: errors %s, drawn %s, the profile's script ran: %s, names %s" %
                 (html, p.errors, got["drawn"], got["owned"], got["names"]))


main(globals())
