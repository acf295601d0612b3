/* page.js — draws the report from the summary document in #tprof-data (the JSON of
 * tprof-analyze --diagnose --summary-format json, docs/summary-json.md).  Every number shown
 * carries its exact value in a data- attribute (data-ns, data-count...) and in its tooltip;
 * no request leaves the page. */
"use strict";
(function () {
const D = JSON.parse(document.getElementById("tprof-data").textContent);
const V = JSON.parse(document.getElementById("tprof-view").textContent);
const H = D.header || {};
const DX = D.diagnosis || null;
const CATS = ["compute", "copy", "wait", "collective", "runtime", "host", "cpu_wait", "idle"];
const CAT_WORDS = {
	compute: "compute (kernels)", copy: "copies", wait: "waiting for others",
	collective: "collectives on the device", runtime: "runtime calls", host: "host (outside calls)",
	cpu_wait: "waiting for a CPU", idle: "idle"
};

/* ---- formatting, as the text summary does ---- */
function dur(ns) {
	if (ns === null || ns === undefined) return "–";
	const a = Math.abs(ns);
	if (a >= 60e9) return (ns / 60e9).toFixed(3) + " min";
	if (a >= 1e9) return (ns / 1e9).toFixed(3) + " s";
	if (a >= 1e6) return (ns / 1e6).toFixed(3) + " ms";
	if (a >= 1e3) return (ns / 1e3).toFixed(3) + " us";
	return ns + " ns";
}
function count(n) { return n === null || n === undefined ? "–" : n.toLocaleString("en-US"); }
function bytes(b) {
	if (b === null || b === undefined) return "–";
	const u = ["B", "KiB", "MiB", "GiB", "TiB"];
	let i = 0, v = b;
	while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
	return (i ? v.toFixed(1) : v) + " " + u[i];
}
function pct(p) { return p === null || p === undefined ? "–" : p.toFixed(1) + " %"; }

/* ---- elements ---- */
function el(tag, attrs, ...kids) {
	const e = document.createElement(tag);
	for (const k in attrs || {}) {
		if (k === "class") e.className = attrs[k];
		else if (k === "text") e.textContent = attrs[k];
		else e.setAttribute(k, attrs[k]);
	}
	for (const c of kids)
		if (c !== null && c !== undefined)
			e.append(c instanceof Node ? c : document.createTextNode(String(c)));
	return e;
}
/* a number cell: shown formatted, exact in data-KEY and the tooltip */
function num(tag, key, value, shown) {
	const e = el(tag, { class: "num", title: value === null ? "none" : String(value) + (key === "ns" ? " ns" : "") },
		     shown);
	if (value !== null && value !== undefined) e.dataset[key] = String(value);
	return e;
}
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
	const e = document.createElementNS(SVGNS, tag);
	for (const k in attrs) e.setAttribute(k, attrs[k]);
	return e;
}
/* A canvas of w x h CSS pixels, sharp on the screen's pixels: its context, scaled, with the
 * styles' colours (the page's own, light or dark) */
function canvas(cv, w, h) {
	const dpr = window.devicePixelRatio || 1;
	cv.width = Math.round(w * dpr);
	cv.height = Math.round(h * dpr);
	cv.style.width = w + "px";
	cv.style.height = h + "px";
	const g = cv.getContext("2d");
	g.setTransform(dpr, 0, 0, dpr, 0, 0);
	g.clearRect(0, 0, w, h);
	g.font = "11px system-ui, sans-serif";
	g.textBaseline = "middle";
	const cs = getComputedStyle(document.documentElement);
	g.colour = (name, or) => cs.getPropertyValue(name).trim() || or;
	return g;
}
/* The tooltip of a canvas (b its box) beside the mouse, saying text */
function showTip(tip, e, b, text) {
	tip.textContent = text;
	tip.style.left = Math.max(0, Math.min(e.clientX - b.left + 12, b.width - 260)) + "px";
	tip.style.top = (e.clientY - b.top + 12) + "px";
	tip.hidden = false;
}
function procName(p) {
	if (!p) return "?";
	return p.rank !== null && p.rank !== undefined ? "rank " + p.rank : "pid " + p.pid;
}

/* A list the page holds only the first rows of (the summary document has them all) */
const CUT = {};
for (const c of (D.page && D.page.cut) || []) CUT[c.path] = c;
function cutNote(path, what) {
	const c = CUT[path];
	if (!c) return null;
	const e = el("p", { class: "note cut" }, "The first " + count(c.kept) + " " + what + " of " + count(c.of) +
		": every one is in tprof-analyze DIR --diagnose --summary-format json.");
	e.dataset.kept = String(c.kept);
	e.dataset.of = String(c.of);
	e.dataset.path = path;
	return e;
}

const main = document.getElementById("sections");
const toc = document.getElementById("toc");
function section(id, title, note) {
	const s = el("section", { id: id, "aria-labelledby": id + "-h" }, el("h2", { id: id + "-h" }, title));
	if (note) s.append(el("p", { class: "note" }, note));
	main.append(s);
	toc.append(el("a", { href: "#" + id }, title));
	return s;
}
/* A long table folded away (it opens on a click, and in print) */
function fold(s, n, what, node) {
	if (n <= 32) { s.append(node); return; }
	s.append(el("details", {}, el("summary", {}, what), node));
}
function legend(cats) {
	const l = el("div", { class: "legend" });
	for (const c of cats) l.append(el("span", {}, el("i", { class: "cat-" + c }), CAT_WORDS[c]));
	return l;
}
/* a bar of the eight parts of time, each part's exact ns in its data-ns */
function stack(parts, total) {
	const s = el("div", { class: "stack", role: "img" });
	const words = [];
	for (const c of CATS) {
		const v = parts[c + "_ns"] || 0;
		if (!v || !total) continue;
		const part = el("span", { class: "cat-" + c, title: CAT_WORDS[c] + ": " + dur(v) + " (" + v + " ns)" });
		part.style.width = (100 * v / total) + "%";
		part.dataset.cat = c;
		part.dataset.ns = String(v);
		s.append(part);
		words.push(CAT_WORDS[c] + " " + dur(v));
	}
	s.setAttribute("aria-label", words.join(", "));
	return s;
}

/* ---- the header ---- */
document.getElementById("dir").textContent = D.dir || "";
document.title = "tprof report " + (D.dir || "");
const jobs = H.jobs || [];
document.getElementById("job").textContent = jobs.length
	? jobs.map(j => "job " + (j.id || "unknown") + (j.command ? ": " + j.command : "")).join("; ")
	: "";
const facts = document.getElementById("facts");
function fact(name, node) { facts.append(el("div", {}, el("dt", {}, name), el("dd", {}, node))); }
fact("wall time", num("span", "ns", H.wall_time_ns, dur(H.wall_time_ns)));
fact("started", el("span", {}, H.dated === false ? "no date" : (H.trace_start_utc || "?")));
fact("processes", num("span", "count", H.processes, count(H.processes)));
fact("threads", num("span", "count", H.threads, count(H.threads)));
fact("events", num("span", "count", H.events, count(H.events)));
if (DX && DX.step_count) fact("steps", num("span", "count", DX.step_count, count(DX.step_count)));
else if (D.steps) fact("steps", num("span", "count", D.steps.count, count(D.steps.count)));
if (H.dropped) fact("records lost", num("span", "count", H.dropped.total, count(H.dropped.total)));
if (H.window) fact("window", el("span", {}, H.window.spec));

/* ---- findings ---- */
(function findings() {
	const s = section("findings", "Findings",
		DX ? "What cost the most time, costliest first: each says who, what and how long, " +
		     "and the command that writes the step or time it concerns as a Perfetto trace."
		   : "No diagnosis in this document.");
	s.dataset.count = DX ? String(DX.findings.length) : "0";
	if (!DX) return;
	if (!DX.findings.length) {
		s.append(el("p", { class: "none" }, "None: no wait, idle device or CPU wait costs 1 % of a process's time."));
		return;
	}
	const ol = el("ol", { class: "findings" });
	for (const f of DX.findings) {
		const lines = (f.text || f.kind).split("\n");
		const li = el("li", { "data-kind": f.kind },
			num("span", "ns", f.cost_ns, dur(f.cost_ns)),
			el("div", { class: "head" }, el("span", { class: "words" }, lines[0])));
		li.firstChild.classList.add("cost");
		li.dataset.rankOrder = String(f.rank_order);
		if (lines.length > 1) li.append(el("div", { class: "more" }, lines.slice(1).join("\n")));
		if (f.look) {
			const code = el("code", {}, f.look);
			const copy = el("button", { type: "button", title: "copy the command" }, "copy");
			copy.addEventListener("click", () => {
				if (navigator.clipboard) navigator.clipboard.writeText(f.look).catch(() => {});
			});
			li.append(el("div", { class: "look" }, code, copy));
		}
		ol.append(li);
	}
	s.append(ol);
	const cut = cutNote("diagnosis.findings", "findings");
	if (cut) s.append(cut);
})();

/* ---- the overview: one strip a process and a device stream, binned (#tprof-view) ---- */
const overview = (function overview() {
	const O = V.overview;
	if (!O || !O.processes.length) return null;
	const B = O.bins, BIN = O.bin_ns, LV = O.levels;
	function bytesOf(b64) {
		const raw = atob(b64), a = new Uint8Array(raw.length);
		for (let i = 0; i < raw.length; i++) a[i] = raw.charCodeAt(i);
		return a;
	}
	const tracks = [];
	for (const p of O.processes) {
		const who = { process: p.process, rank: p.rank, label: p.label };
		if (p.bins !== null) tracks.push(Object.assign({ stream: null, data: bytesOf(p.bins) }, who));
		for (const x of p.streams) tracks.push(Object.assign({ stream: x.stream, data: bytesOf(x.bins) }, who));
	}
	const nproc = tracks.filter(t => t.stream === null).length;
	const s = section("overview", "Timeline",
		"One strip a process" + (tracks.length > nproc ? ", and under it one a device stream" : "") +
		": each column is " + dur(BIN) + " of the job (" + count(B) + " in all), coloured by what most of " +
		"that time went to, brighter the more of it (a stream: the work it ran, brighter the busier).  " +
		"Zoom with the wheel or + and −, move with the arrows or by dragging, 0 shows all; a finding's " +
		"“show” zooms to its time.  Finer than a column: the finding's command writes a Perfetto trace.");
	s.dataset.bins = String(B);
	s.dataset.binNs = String(BIN);
	s.dataset.tracks = String(tracks.length);
	const cats = CATS.filter(c => tracks.some(t => t.data.some(b => b && CATS[b >> 5] === c)));
	s.append(legend(cats));
	const streamsBox = el("input", { type: "checkbox", id: "ov-streams" });
	streamsBox.checked = tracks.length <= 256;
	const range = el("span", { id: "ov-range", class: "num" });
	const bar = el("div", { class: "ovbar" }, el("label", {}, streamsBox, " device streams"), range);
	if (tracks.length === nproc) bar.firstChild.style.display = "none";
	s.append(bar);
	const wrap = el("div", { class: "ovwrap" });
	const cv = el("canvas", { id: "ov-canvas", tabindex: "0", role: "img" });
	const tip = el("div", { class: "tip", role: "tooltip" });
	tip.hidden = true;
	wrap.append(cv, tip);
	s.append(wrap);
	const LABEL = 150, AXIS = 18;
	let v0 = 0, v1 = B, mark = null, shown = [];
	const colours = {};
	const MAXROWS = 512;
	let shownFor = null;
	/* the rows drawn: each track, or past MAXROWS tracks several a row (each bin the category
	 * with the most of their time, the mean share) */
	function rows() {
		if (shownFor !== streamsBox.checked) {
			shownFor = streamsBox.checked;
			const t = tracks.filter(t => t.stream === null || streamsBox.checked);
			const per = Math.ceil(t.length / MAXROWS);
			shown = [];
			for (let i = 0; i < t.length; i += per) {
				const g = t.slice(i, i + per);
				if (g.length === 1) { shown.push(g[0]); continue; }
				const data = new Uint8Array(B);
				for (let k = 0; k < B; k++) {
					const w = [0, 0, 0, 0, 0, 0, 0, 0];
					for (const x of g) { const b = x.data[k]; if (b) w[b >> 5] += b & 31; }
					let top = 0;
					for (let c = 1; c < 8; c++) if (w[c] > w[top]) top = c;
					if (w[top]) data[k] = top << 5 | Math.max(1, Math.round(w[top] / g.length));
				}
				shown.push({ group: g, process: g[0].process, rank: g[0].rank, label: g[0].label, stream: null, data: data });
			}
		}
		return Math.max(1, Math.min(14, Math.floor(640 / Math.max(shown.length, 1))));
	}
	function trackName(t) {
		const one = x => x.rank !== null ? "rank " + x.rank : "process " + x.process;
		if (t.group) return one(t.group[0]) + " – " + one(t.group[t.group.length - 1]) + " (" + t.group.length + ")";
		return t.stream === null ? one(t) : "  stream " + (t.stream === "other" ? "(others)" : t.stream);
	}
	function draw() {
		const rh = rows();
		const W = Math.max(300, wrap.clientWidth), Hpx = AXIS + shown.length * rh + 2;
		const g = canvas(cv, W, Hpx);
		for (const c of CATS) colours[c] = g.colour("--c-" + c, "#888");
		const fg = g.colour("--muted", "#666"), line = g.colour("--line", "#ccc");
		const plotW = W - LABEL, per = plotW / (v1 - v0);
		/* the time axis */
		g.fillStyle = fg;
		g.strokeStyle = line;
		const spanNs = (v1 - v0) * BIN, step = niceStep(spanNs / 8);
		for (let t = Math.ceil(v0 * BIN / step) * step; t <= v1 * BIN; t += step) {
			const x = LABEL + (t / BIN - v0) * per, words = tick(t, step);
			g.fillRect(x, AXIS - 5, 1, 5);
			if (x + 2 + g.measureText(words).width <= W) g.fillText(words, x + 2, 7);
		}
		/* the steps: a line at each start, when they are far enough apart */
		const st = DX && DX.steps ? DX.steps : [];
		if (st.length) {
			const xs = st.map(x => LABEL + (x.start_ns / BIN - v0) * per).filter(x => x >= LABEL && x <= W);
			let last = -10;
			g.fillStyle = line;
			for (const x of xs) if (x - last >= 4) { g.fillRect(x, AXIS, 1, Hpx - AXIS); last = x; }
		}
		/* the strips */
		const k0 = Math.max(0, Math.floor(v0)), k1 = Math.min(B, Math.ceil(v1));
		shown.forEach((t, i) => {
			const y = AXIS + i * rh, h = rh < 6 ? rh : t.stream === null ? rh - 1 : rh - 2;
			if (rh >= 9 || i % Math.ceil(24 / rh) === 0) {   /* too thin: one named in so many */
				g.fillStyle = fg;
				g.fillText(trackName(t), 2, y + Math.max(rh, 9) / 2, LABEL - 6);
			}
			if (per >= 1) {
				for (let k = k0; k < k1; k++) {
					const b = t.data[k];
					if (!b) continue;
					g.globalAlpha = 0.2 + 0.8 * (b & 31) / LV;
					g.fillStyle = colours[CATS[b >> 5]];
					/* whole pixels: no seams between bins */
					const xa = Math.round(LABEL + (k - v0) * per), xb = Math.round(LABEL + (k + 1 - v0) * per);
					g.fillRect(Math.max(LABEL, xa), y, Math.max(1, xb - Math.max(LABEL, xa)), h);
				}
			} else {
				/* several bins a pixel: the category with the most of their time */
				for (let px = 0; px < plotW; px++) {
					const a = Math.floor(v0 + px / per), z = Math.min(k1, Math.floor(v0 + (px + 1) / per));
					const w = new Float64Array(8);
					let n = 0;
					for (let k = a; k < z; k++) { const b = t.data[k]; n++; if (b) w[b >> 5] += b & 31; }
					let top = 0;
					for (let c = 1; c < 8; c++) if (w[c] > w[top]) top = c;
					if (!w[top] || !n) continue;
					g.globalAlpha = 0.2 + 0.8 * w[top] / (n * LV);
					g.fillStyle = colours[CATS[top]];
					g.fillRect(LABEL + px, y, 1, h);
				}
			}
			g.globalAlpha = 1;
		});
		if (mark) {
			g.strokeStyle = colours.wait;
			g.lineWidth = 2;
			const x0 = LABEL + (mark.t0 / BIN - v0) * per, x1 = LABEL + (mark.t1 / BIN - v0) * per;
			const i = shown.findIndex(t => t.stream === null && (t.group ? t.group.some(x => x.process === mark.process)
										  : t.process === mark.process));
			const y = i < 0 ? AXIS : AXIS + i * rh;
			g.strokeRect(Math.max(LABEL, x0), i < 0 ? AXIS : y - 1, Math.max(2, Math.min(W, x1) - Math.max(LABEL, x0)),
				     i < 0 ? Hpx - AXIS : rh + 1);
			g.lineWidth = 1;
		}
		range.textContent = dur(Math.round(v0 * BIN)) + " – " + dur(Math.round(v1 * BIN));
		cv.dataset.view0 = String(Math.round(v0 * BIN));
		cv.dataset.view1 = String(Math.round(v1 * BIN));
		cv.dataset.shown = String(shown.length);
		cv.setAttribute("aria-label", "timeline of " + nproc + " processes from " + range.textContent);
	}
	/* a tick's time in the unit of its step, no more digits than the step needs */
	function tick(t, step) {
		const u = step >= 1e9 ? [1e9, "s"] : step >= 1e6 ? [1e6, "ms"] : step >= 1e3 ? [1e3, "us"] : [1, "ns"];
		const digits = Math.max(0, -Math.floor(Math.log10(step / u[0]) + 1e-9));
		return (t / u[0]).toFixed(Math.min(digits, 3)) + " " + u[1];
	}
	function niceStep(x) {
		const p = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1))));
		for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
		return 10 * p;
	}
	function set(a, b) {
		const minSpan = Math.min(B, 8);
		if (b - a < minSpan) { const c = (a + b) / 2; a = c - minSpan / 2; b = c + minSpan / 2; }
		if (b - a > B) { a = 0; b = B; }
		if (a < 0) { b -= a; a = 0; }
		if (b > B) { a -= b - B; b = B; }
		v0 = Math.max(0, a);
		v1 = Math.min(B, b);
		draw();
	}
	function zoom(f, at) {
		const c = at === undefined ? (v0 + v1) / 2 : at;
		set(c - (c - v0) * f, c + (v1 - c) * f);
	}
	function binAt(ev) {
		const r = cv.getBoundingClientRect(), x = ev.clientX - r.left - LABEL;
		return v0 + x / ((r.width - LABEL) / (v1 - v0));
	}
	cv.addEventListener("keydown", e => {
		const w = v1 - v0;
		if (e.key === "+" || e.key === "=") zoom(0.5);
		else if (e.key === "-" || e.key === "_") zoom(2);
		else if (e.key === "ArrowLeft") set(v0 - w / 4, v1 - w / 4);
		else if (e.key === "ArrowRight") set(v0 + w / 4, v1 + w / 4);
		else if (e.key === "0" || e.key === "Home") { mark = null; set(0, B); }
		else return;
		e.preventDefault();
	});
	cv.addEventListener("wheel", e => {
		e.preventDefault();
		zoom(e.deltaY < 0 ? 0.8 : 1.25, binAt(e));
	}, { passive: false });
	let drag = null;
	cv.addEventListener("mousedown", e => { drag = { x: e.clientX, v0: v0, v1: v1 }; });
	window.addEventListener("mouseup", () => { drag = null; });
	cv.addEventListener("mousemove", e => {
		const r = cv.getBoundingClientRect();
		if (drag) {
			const d = (e.clientX - drag.x) / ((r.width - LABEL) / (drag.v1 - drag.v0));
			set(drag.v0 - d, drag.v1 - d);
			return;
		}
		const k = Math.floor(binAt(e)), i = Math.floor((e.clientY - r.top - AXIS) / rows());
		const t = shown[i];
		if (!t || k < v0 || k >= B || e.clientX - r.left < LABEL) { tip.hidden = true; return; }
		const b = t.data[k];
		const who = t.group ? trackName(t) : (t.rank !== null ? "rank " + t.rank : "process " + t.process) +
			(t.label ? " (" + t.label + ")" : "") + (t.stream === null ? "" : ", stream " + (t.stream === "other" ? "(the others)" : t.stream));
		const what = !b ? "nothing recorded" : t.stream === null
			? "mostly " + CAT_WORDS[CATS[b >> 5]] + ": " + Math.round(100 * (b & 31) / LV) + " % of it"
			: "busy " + Math.round(100 * (b & 31) / LV) + " %, mostly " + CAT_WORDS[CATS[b >> 5]];
		showTip(tip, e, r, who + "\n" + dur(k * BIN) + " – " + dur((k + 1) * BIN) + " (" + k * BIN + " – " +
			(k + 1) * BIN + " ns)\n" + what);
	});
	cv.addEventListener("mouseleave", () => { tip.hidden = true; });
	streamsBox.addEventListener("change", draw);   /* rows() sees the box changed */
	window.addEventListener("resize", draw);
	draw();
	return {
		/* shows t0..t1 (ns from the trace start) with some time either side, process marked */
		show(t0, t1, process) {
			mark = { t0: t0, t1: t1, process: process };
			const pad = Math.max((t1 - t0) / BIN * 0.25, 2);
			set(t0 / BIN - pad, t1 / BIN + pad);
			s.scrollIntoView({ block: "start" });
			cv.focus({ preventScroll: true });
		}
	};
})();
if (overview)
	for (const li of document.querySelectorAll("ol.findings > li")) {
		const f = DX.findings[Number(li.dataset.rankOrder) - 1];
		const w = f && f.longest && f.longest.where;
		if (!w || w.start_ns === null || w.start_ns === undefined) continue;
		const b = el("button", { type: "button", class: "show", title: "show its time on the timeline" }, "show");
		b.addEventListener("click", () => overview.show(w.start_ns, w.end_ns, f.process ? f.process.index : null));
		li.querySelector(".head").append(b);
	}

/* ---- where the time went: the job's split and each process's ---- */
(function time() {
	if (!DX || !DX.time) return;
	const s = section("time", "Where the time went",
		"The time of every process (" + (DX.covers === "steps" ? "in its steps" : "over its run") +
		") split into what it was doing; the parts add up to the time they split.");
	const t = DX.time;
	s.append(legend(CATS));
	const job = stack(t, t.covered_ns);
	job.id = "time-job";
	job.dataset.ns = String(t.covered_ns);
	s.append(el("h3", {}, "The job: ", num("span", "ns", t.covered_ns, dur(t.covered_ns))), job);
	const procs = DX.processes || [];
	if (!procs.length) return;
	const max = Math.max(...procs.map(p => p.covered_ns || 0), 1);
	const table = el("table", { id: "time-procs" },
		el("thead", {}, el("tr", {}, el("th", {}, "process"), el("th", { class: "num" }, "time"),
			el("th", { class: "num" }, "steps"), el("th", {}, "split"))));
	const tb = el("tbody");
	for (const p of procs) {
		const bar = stack(p, p.covered_ns);
		bar.style.width = (100 * (p.covered_ns || 0) / max) + "%";
		const tr = el("tr", {}, el("td", {}, procName(p.process)),
			num("td", "ns", p.covered_ns, dur(p.covered_ns)),
			num("td", "count", p.steps, count(p.steps)), el("td", { class: "barcell" }, bar));
		tr.dataset.process = String(p.process.index);
		tb.append(tr);
	}
	table.append(tb);
	fold(s, procs.length, "each of the " + procs.length + " processes",
	     el("div", {}, el("h3", {}, "Each process"), cutNote("diagnosis.processes", "processes"), table));
})();

/* ---- steps: each step's longest rank, the slow ones marked ---- */
(function steps() {
	if (!DX || !DX.steps || !DX.steps.length) return;
	const st = DX.steps;
	const median = DX.slow_steps ? DX.slow_steps.median_ns : null;
	const s = section("steps", "Steps",
		"Each step's time on its slowest rank; a step longer than 110 % of the median (" +
		dur(median) + ") is marked.  The critical path of a step runs through the ranks that made it last.");
	const W = 1000, Hh = 180, pad = 30;
	const max = Math.max(...st.map(x => x.longest_ns), 1);
	const g = svg("svg", { viewBox: "0 0 " + W + " " + (Hh + pad), class: "chart", id: "steps-chart", role: "img",
			      "aria-label": st.length + " steps, the longest " + dur(max) });
	const bw = (W - pad) / st.length;
	g.append(svg("line", { x1: pad, y1: Hh, x2: W, y2: Hh, class: "axis" }));
	const top = svg("text", { x: 0, y: 10 });
	top.textContent = dur(max);
	g.append(top);
	st.forEach((x, i) => {
		const h = Math.max(1, Hh * x.longest_ns / max);
		const slow = median !== null && x.longest_ns > 1.1 * median;
		const r = svg("rect", { x: pad + i * bw, y: Hh - h, width: Math.max(bw * 0.85, 0.5), height: h,
					fill: slow ? "var(--c-wait)" : "var(--accent)" });
		r.dataset.step = String(x.step);
		r.dataset.ns = String(x.longest_ns);
		const tt = svg("title", {});
		tt.textContent = "step " + x.step + ": " + dur(x.longest_ns) + " (" + x.longest_ns + " ns)\n" + (x.cause || "");
		r.append(tt);
		g.append(r);
	});
	s.append(g);
	const cut = cutNote("diagnosis.steps", "steps");
	if (cut) s.append(cut);
	const slow = DX.slow_steps && DX.slow_steps.rows ? DX.slow_steps.rows : [];
	if (slow.length) {
		const table = el("table", { id: "slow-steps" },
			el("thead", {}, el("tr", {}, el("th", { class: "num" }, "step"), el("th", { class: "num" }, "time"),
				el("th", {}, "why"))));
		const tb = el("tbody");
		for (const r of slow.slice(0, 20))
			tb.append(el("tr", {}, num("td", "step", r.step, String(r.step)), num("td", "ns", r.ns, dur(r.ns)),
				     el("td", { class: "name" }, r.cause)));
		table.append(tb);
		s.append(el("h3", {}, "The slow steps, longest first"), table);
	} else {
		s.append(el("p", { class: "none" }, "No step is slow."));
	}
})();

/* each process's label, from the overview (the step map's rows say only the number) */
const LABELS = new Map(((V.overview && V.overview.processes) || []).map(p => [p.process, p.label]));

/* ---- the step map: step time and waiting, rank by step (#tprof-view) ---- */
(function stepmap() {
	const M = V.stepmap;
	if (!M || !M.processes.length) return;
	const C = M.columns, W = M.steps_a_column, S0 = M.first_step;
	const rows = M.processes.map(p => {
		const raw = atob(p.cells), buf = new ArrayBuffer(raw.length), u = new Uint8Array(buf);
		for (let i = 0; i < raw.length; i++) u[i] = raw.charCodeAt(i);
		const dv = new DataView(buf), n = new Uint32Array(C), time = new Float64Array(C),
		      wait = new Float64Array(C), longest = new Float64Array(C);
		for (let c = 0; c < C; c++) {
			n[c] = dv.getUint32(c * 16, true);
			time[c] = dv.getFloat32(c * 16 + 4, true);
			wait[c] = dv.getFloat32(c * 16 + 8, true);
			longest[c] = dv.getFloat32(c * 16 + 12, true);
		}
		return { process: p.process, rank: p.rank, label: LABELS.get(p.process) || null, n: n, time: time, wait: wait, longest: longest };
	});
	const s = section("stepmap", "Steps × ranks",
		"Each rank's steps" + (W > 1 ? ", " + count(W) + " step numbers a column" : "") +
		": above, their mean time, below, their mean wait for other ranks; the darker, the longer " +
		"(from the shortest of each map to its longest).  A rank slower than the others is a dark row; a step slow " +
		"everywhere a dark column; waiting shows the ranks that waited for it.");
	s.dataset.columns = String(C);
	s.dataset.stepsAColumn = String(W);
	s.dataset.rows = String(rows.length);
	const MAXROWS = 256;
	const per = Math.ceil(rows.length / MAXROWS);
	/* past MAXROWS ranks, neighbours share a row: its cells the most of theirs */
	const shown = [];
	for (let i = 0; i < rows.length; i += per) {
		const g = rows.slice(i, i + per);
		if (g.length === 1) { shown.push(g[0]); continue; }
		const r = { group: g, n: new Uint32Array(C), time: new Float64Array(C), wait: new Float64Array(C), longest: new Float64Array(C) };
		for (const x of g)
			for (let c = 0; c < C; c++) {
				r.n[c] += x.n[c];
				r.time[c] = Math.max(r.time[c], x.time[c]);
				r.wait[c] = Math.max(r.wait[c], x.wait[c]);
				r.longest[c] = Math.max(r.longest[c], x.longest[c]);
			}
		shown.push(r);
	}
	const slow = new Set(((DX && DX.slow_steps && DX.slow_steps.rows) || []).map(r => Math.floor((r.step - S0) / W)));
	const who = x => x.rank !== null ? "rank " + x.rank : "process " + x.process;
	const rowName = r => r.group ? who(r.group[0]) + " – " + who(r.group[r.group.length - 1]) : who(r);
	const LABEL = 110, TOP = 16;
	function map(id, title, key, colourVar) {
		const wrap = el("div", { class: "ovwrap" });
		const cv = el("canvas", { id: id, role: "img" });
		const tip = el("div", { class: "tip", role: "tooltip" });
		tip.hidden = true;
		/* from the least to the most: what differs stands out */
		let max = 0, min = Infinity;
		for (const r of shown)
			for (let c = 0; c < C; c++)
				if (r.n[c]) { max = Math.max(max, r[key][c]); min = Math.min(min, r[key][c]); }
		if (min === Infinity) min = 0;
		const shade = v => max > min ? 0.06 + 0.94 * (v - min) / (max - min) : 0.35;
		cv.dataset.maxNs = String(Math.round(max));
		cv.dataset.minNs = String(Math.round(min));
		const scale = el("div", { class: "scale" }, num("span", "ns", Math.round(min), dur(Math.round(min))),
			el("i", { style: "background: linear-gradient(to right, transparent, var(" + colourVar + "))" }),
			num("span", "ns", Math.round(max), dur(Math.round(max))));
		wrap.append(cv, tip);
		s.append(el("h3", {}, title), scale, wrap);
		function draw() {
			const Wpx = Math.max(300, wrap.clientWidth);
			const rh = Math.max(1, Math.min(14, Math.floor(320 / shown.length)));
			const Hpx = TOP + shown.length * rh + 2, cw = (Wpx - LABEL) / C;
			const g = canvas(cv, Wpx, Hpx);
			const colour = g.colour(colourVar, "#c33"), fg = g.colour("--muted", "#666");
			g.fillStyle = fg;
			/* the first step of a column every so often, and the slow steps marked */
			const every = Math.max(1, Math.ceil(60 / cw));
			for (let c = 0; c < C; c += every) g.fillText(String(S0 + c * W), LABEL + c * cw + 1, 7);
			g.fillStyle = g.colour("--c-wait", "#c33");
			for (const c of slow) if (c >= 0 && c < C) g.fillRect(LABEL + c * cw, TOP - 3, Math.max(cw - 1, 1), 3);
			shown.forEach((r, i) => {
				const y = TOP + i * rh;
				if (rh >= 9 || i % Math.ceil(24 / rh) === 0) {
					g.fillStyle = fg;
					g.globalAlpha = 1;
					g.fillText(rowName(r), 2, y + Math.max(rh, 9) / 2, LABEL - 6);
				}
				g.fillStyle = colour;
				for (let c = 0; c < C; c++) {
					if (!r.n[c]) continue;
					g.globalAlpha = shade(r[key][c]);
					const xa = Math.round(LABEL + c * cw), xb = Math.round(LABEL + (c + 1) * cw);
					g.fillRect(xa, y, Math.max(1, xb - xa - (cw > 4 ? 1 : 0)), rh > 4 ? rh - 1 : rh);
				}
				g.globalAlpha = 1;
			});
			cv.setAttribute("aria-label", title + ": " + shown.length + " rows of " + C + " columns, the most " + dur(Math.round(max)));
		}
		cv.addEventListener("mousemove", e => {
			const b = cv.getBoundingClientRect();
			const rh = Math.max(1, Math.min(14, Math.floor(320 / shown.length)));
			const c = Math.floor((e.clientX - b.left - LABEL) / ((b.width - LABEL) / C)), i = Math.floor((e.clientY - b.top - TOP) / rh);
			const r = shown[i];
			if (!r || c < 0 || c >= C) { tip.hidden = true; return; }
			const a = S0 + c * W, z = a + W - 1;
			showTip(tip, e, b, rowName(r) + (r.group ? " (the most of " + r.group.length + ")" : r.label ? " (" + r.label + ")" : "") + "\n" +
				(W > 1 ? "steps " + a + "–" + z : "step " + a) + ": " + count(r.n[c]) + " step" + (r.n[c] === 1 ? "" : "s") +
				(r.n[c] ? "\nmean time " + dur(Math.round(r.time[c])) + ", waiting " + dur(Math.round(r.wait[c])) +
					  "\nlongest " + dur(Math.round(r.longest[c])) : "") + (slow.has(c) ? "\na slow step" : ""));
		});
		cv.addEventListener("mouseleave", () => { tip.hidden = true; });
		window.addEventListener("resize", draw);
		draw();
	}
	map("stepmap-time", "Step time", "time", "--accent");
	map("stepmap-wait", "Waiting for other ranks", "wait", "--c-wait");
})();

/* ---- top tables as bar charts ---- */
/* A table of the top rows with a bar a row: by the first number column at first, by any
 * other on a click of its heading (calls, bytes, bandwidth...); the bars are to the most of
 * the column. */
function timeTable(id, title, rows, cols) {
	const table = el("table", { id: id });
	const head = el("tr", {}, el("th", {}, "name"));
	head.append(...cols.map((c, i) => {
		const b = el("button", { type: "button", class: "measure", title: "bars by " + c[0] }, c[0]);
		b.addEventListener("click", () => barsBy(i));
		return el("th", { class: "num" }, b);
	}));
	head.append(el("th", {}, ""));
	table.append(el("thead", {}, head));
	const tb = el("tbody"), cells = [], bars = [];
	for (const r of rows) {
		const tr = el("tr", {}, el("td", { class: "name" }, r.name));
		const mine = cols.map(c => c[1](r));
		tr.append(...mine);
		const bar = el("div", { class: "bar" });
		tr.append(el("td", { class: "barcell" }, bar));
		cells.push(mine);
		bars.push(bar);
		tb.append(tr);
	}
	table.append(tb);
	const value = td => { const k = Object.keys(td.dataset)[0]; return k === undefined ? 0 : Number(td.dataset[k]) || 0; };
	function barsBy(i) {
		const max = Math.max(...cells.map(c => value(c[i])), 0);
		cells.forEach((c, k) => {
			bars[k].style.width = (max > 0 ? 100 * value(c[i]) / max : 0) + "%";
			bars[k].title = cols[i][0] + ": " + c[i].textContent;
		});
		table.dataset.bars = cols[i][0];
		head.querySelectorAll("button.measure").forEach((b, k) => b.classList.toggle("on", k === i));
	}
	barsBy(0);
	return el("div", {}, el("h3", {}, title), table);
}
const T = ["time", r => num("td", "ns", r.time_ns, dur(r.time_ns))];
const N = ["calls", r => num("td", "count", r.calls, count(r.calls))];
const AVG = ["average", r => num("td", "ns", r.avg_ns, dur(r.avg_ns))];
const SHARE = ["share", r => num("td", "pct", r.total_pct, pct(r.total_pct))];

(function tops() {
	const parts = [];
	if (D.kernels && D.kernels.rows && D.kernels.rows.length)
		parts.push(timeTable("top-kernels", "Kernels", D.kernels.rows, [T, N, AVG, SHARE]));
	const calls = [["hip_api", "HIP calls"], ["cuda_api", "CUDA calls"], ["nrt_api", "Neuron runtime calls"]];
	if (D.mpi && D.mpi.calls) calls.push(["mpi", "MPI calls"]);
	if (D.nccl && D.nccl.calls) calls.push(["nccl", "NCCL calls"]);
	for (const [key, title] of calls) {
		const t = key === "mpi" || key === "nccl" ? D[key].calls : D[key];
		if (t && t.rows && t.rows.length)
			parts.push(timeTable("top-" + key, title, t.rows, [T, N, AVG, SHARE]));
	}
	if (D.framework_ops && D.framework_ops.rows && D.framework_ops.rows.length)
		parts.push(timeTable("top-framework", "Framework operations (imported)",
			D.framework_ops.rows.map(r => Object.assign({ time_ns: r.self_ns, calls: r.count }, r)),
			[["self time", r => num("td", "ns", r.self_ns, dur(r.self_ns))], ["count", r => num("td", "count", r.count, count(r.count))]]));
	if (D.nccl && D.nccl.collectives && D.nccl.collectives.rows && D.nccl.collectives.rows.length)
		parts.push(timeTable("top-nccl-collectives", "NCCL collectives", D.nccl.collectives.rows, [
			["time", r => num("td", "ns", r.total_ns, dur(r.total_ns))],
			["calls", r => num("td", "count", r.calls, count(r.calls))],
			["size", r => num("td", "bytes", r.size_bytes, bytes(r.size_bytes))],
			["bus GB/s", r => num("td", "gbps", r.busbw_GBps, r.busbw_GBps === null ? "–" : r.busbw_GBps.toFixed(2))]]));
	if (D.mpi && D.mpi.collectives && D.mpi.collectives.rows && D.mpi.collectives.rows.length)
		parts.push(timeTable("top-mpi-collectives", "MPI collectives", D.mpi.collectives.rows, [
			["time", r => num("td", "ns", r.total_ns, dur(r.total_ns))],
			["instances", r => num("td", "count", r.instances, count(r.instances))],
			["waited", r => num("td", "ns", r.wait_ns, dur(r.wait_ns))],
			["bandwidth", r => num("td", "bps", r.bandwidth_Bps, r.bandwidth_Bps === null ? "–" : bytes(r.bandwidth_Bps) + "/s")]]));
	if (D.copies && D.copies.rows && D.copies.rows.length)
		parts.push(timeTable("top-copies", "Copies", D.copies.rows.map(r => Object.assign({ name: r.direction }, r)), [
			T, N, ["bytes", r => num("td", "bytes", r.bytes, bytes(r.bytes))],
			["GB/s", r => num("td", "gbps", r.bandwidth_GBps, r.bandwidth_GBps.toFixed(2))]]));
	const s = section("tops", "Kernels, calls and collectives",
		"The most time first (the first rows of each: --top says how many); each bar is to the longest of its table.");
	if (!parts.length) {
		s.append(el("p", { class: "none" }, "No kernel, call or collective was recorded."));
		return;
	}
	const grid = el("div", { class: "grid2" });
	for (const p of parts) grid.append(p);
	s.append(grid);
})();

/* ---- the communication matrix: point-to-point transfers between ranks (#tprof-view) ---- */
(function matrix() {
	const X = V.matrix;
	if (!X || !X.pairs.length) return;
	const K = X.ranks_a_block, N = X.blocks;
	const what = K > 1 ? "blocks of " + K + " ranks" : "ranks";
	const s = section("matrix", "Communication",
		"The point-to-point transfers between " + what + " (MPI messages, NCCL sends matched with their " +
		"receives): a row a sender, a column a receiver, darker the more (a logarithmic scale, to the most " +
		"of any pair).  An MPI message's time runs from when both ends were there to the receive's " +
		"completion; an NCCL send's, from when both devices had started it to the receive's end.  " +
		"Collectives are not in it: they are in the tables above.");
	let messages = 0, bytesAll = 0, nsAll = 0;
	for (const p of X.pairs) { messages += p[2]; bytesAll += p[3]; nsAll += p[4]; }
	s.dataset.messages = String(messages);
	s.dataset.bytes = String(bytesAll);
	s.dataset.ns = String(nsAll);
	s.dataset.pairs = String(X.pairs.length);
	const keys = [["bytes", 3, bytes], ["time", 4, v => dur(v)], ["transfers", 2, count]];
	const pick = el("div", { class: "ovbar" });
	let shown = 0;
	keys.forEach(([name], i) => {
		const r = el("input", { type: "radio", name: "matrix-what", value: name, id: "matrix-" + name });
		if (!i) r.checked = true;
		r.addEventListener("change", () => { shown = i; draw(); });
		pick.append(el("label", {}, r, " " + name));
	});
	pick.append(el("span", {}, "in all: ", num("span", "count", messages, count(messages)), " transfers, ",
		num("span", "bytes", bytesAll, bytes(bytesAll)), ", ", num("span", "ns", nsAll, dur(nsAll))));
	s.append(pick);
	const wrap = el("div", { class: "ovwrap" });
	const cv = el("canvas", { id: "matrix-canvas", role: "img" });
	const tip = el("div", { class: "tip", role: "tooltip" });
	tip.hidden = true;
	wrap.append(cv, tip);
	s.append(wrap);
	const M = 40;   /* room for the names of the first and last */
	const cell = Math.max(1, Math.min(24, Math.floor(560 / N)));
	const at = new Map();
	for (const p of X.pairs) at.set(p[0] * N + p[1], p);
	const name = b => K > 1 ? "ranks " + b * K + "–" + (b * K + K - 1) : "rank " + b;
	function draw() {
		const side = N * cell, Wpx = side + M + 2, Hpx = side + M + 2;
		const g = canvas(cv, Wpx, Hpx);
		const colour = g.colour("--accent", "#1f6feb"), fg = g.colour("--muted", "#666");
		g.fillStyle = fg;
		const every = Math.max(1, Math.ceil(24 / cell));
		for (let b = 0; b < N; b += every) {
			g.fillText(String(b * K), 2, M + b * cell + cell / 2, M - 4);
			g.save();
			g.translate(M + b * cell + cell / 2, M - 4);
			g.rotate(-Math.PI / 2);
			g.fillText(String(b * K), 0, 0, M - 4);
			g.restore();
		}
		g.strokeStyle = g.colour("--line", "#ccc");
		g.strokeRect(M - 0.5, M - 0.5, side + 1, side + 1);
		const k = keys[shown][1];
		let max = 0;
		for (const p of X.pairs) max = Math.max(max, p[k]);
		g.fillStyle = colour;
		for (const p of X.pairs) {
			if (!p[k]) continue;
			g.globalAlpha = 0.12 + 0.88 * Math.log1p(p[k]) / Math.log1p(max);
			g.fillRect(M + p[1] * cell, M + p[0] * cell, cell, cell);
		}
		g.globalAlpha = 1;
		cv.dataset.max = String(max);
		cv.setAttribute("aria-label", "transfers between " + N + " " + what + " by " + keys[shown][0] + ", the most " + keys[shown][2](max));
	}
	cv.addEventListener("mousemove", e => {
		const b = cv.getBoundingClientRect();
		const c = Math.floor((e.clientX - b.left - M) / cell), r = Math.floor((e.clientY - b.top - M) / cell);
		if (c < 0 || r < 0 || c >= N || r >= N) { tip.hidden = true; return; }
		const p = at.get(r * N + c);
		showTip(tip, e, b, name(r) + " → " + name(c) + "\n" + (p ? count(p[2]) + " transfers, " + bytes(p[3]) +
			" (" + p[3] + " B), " + dur(p[4]) : "no transfer"));
	});
	cv.addEventListener("mouseleave", () => { tip.hidden = true; });
	window.addEventListener("resize", draw);
	draw();
})();

/* ---- MPI by rank ---- */
(function ranks() {
	const r = D.mpi && D.mpi.ranks;
	if (!r || !r.rows || !r.rows.length) return;
	const s = section("ranks", "MPI by rank",
		"Time in MPI calls per rank, of its covered time; imbalance " + r.imbalance.toFixed(2) +
		" (the most over the mean).");
	const rows = r.rows.map(x => Object.assign({ name: x.rank === null ? x.label : "rank " + x.rank }, x));
	const cut = cutNote("mpi.ranks.rows", "ranks");
	if (cut) s.append(cut);
	fold(s, rows.length, "each of the " + rows.length + " ranks", timeTable("mpi-ranks", "", rows, [
		["in MPI", x => num("td", "ns", x.time_ns, dur(x.time_ns))],
		["share", x => num("td", "pct", x.share_pct, pct(x.share_pct))],
		["late sender", x => num("td", "ns", x.late_sender_ns, dur(x.late_sender_ns))]]));
})();

/* ---- the system profile ---- */
(function system() {
	const y = D.system;
	if (!y) return;
	const have = (y.cpu_cores && y.cpu_cores.rows && y.cpu_cores.rows.length) ||
		     (y.memory && y.memory.rows && y.memory.rows.length) ||
		     (y.off_cpu && y.off_cpu.rows && y.off_cpu.rows.length);
	if (!have) return;
	const s = section("system", "System", "What tprof-inspect --sample recorded: CPU use per core, memory, thread states.");
	const grid = el("div", { class: "grid2" });
	if (y.cpu_cores && y.cpu_cores.rows.length) {
		const rows = y.cpu_cores.rows.map(c => Object.assign({ name: c.host + " cpu " + c.cpu }, c));
		grid.append(timeTable("cpu-cores", "CPU use per core", rows, [
			["mean", c => num("td", "pct", c.avg_pct, pct(c.avg_pct))],
			["max", c => num("td", "pct", c.max_pct, pct(c.max_pct))]]));
	}
	if (y.memory && y.memory.rows.length) {
		const rows = y.memory.rows.map(m => Object.assign({
			name: m.kind === "host" ? "host " + m.host : m.process_label }, m));
		grid.append(timeTable("memory", "Memory (peak)", rows, [
			["peak", m => num("td", "bytes", m.peak_bytes, bytes(m.peak_bytes))],
			["of", m => num("td", "bytes", m.total_bytes, bytes(m.total_bytes))]]));
	}
	if (y.off_cpu && y.off_cpu.rows.length) {
		const rows = y.off_cpu.rows.map(t => Object.assign({ name: t.thread + " — " + t.process_label }, t));
		grid.append(timeTable("off-cpu", "Threads off the CPU: their states", rows, [
			["off the CPU", t => num("td", "ns", t.off_cpu_ns, dur(t.off_cpu_ns))],
			["running", t => num("td", "ns", t.running_ns, dur(t.running_ns))],
			["waiting for a CPU", t => num("td", "ns", t.runnable_ns, dur(t.runnable_ns))],
			["sleeping", t => num("td", "ns", t.sleeping_ns, dur(t.sleeping_ns))],
			["blocked", t => num("td", "ns", t.blocked_ns, dur(t.blocked_ns))]]));
	}
	s.append(grid);
})();

/* ---- the thread states of the busiest threads, over time ---- */
(function threads() {
	const X = V.threads;
	if (!X || !X.threads.length) return;
	const B = X.bins, BIN = X.bin_ns, LV = X.levels;
	const STATES = ["running", "runnable", "sleeping", "blocked"];
	const WORDS = { running: "running", runnable: "waiting for a CPU", sleeping: "sleeping",
			blocked: "blocked (I/O) or stopped" };
	const s = section("threads", "Thread states",
		"The " + count(X.threads.length) + " threads with the most time on a CPU: a row a thread, each column " +
		dur(BIN) + " of the job (" + count(B) + " in all), coloured by the state it spent most of it in, " +
		"brighter the more of it.");
	s.dataset.threads = String(X.threads.length);
	s.dataset.bins = String(B);
	const l = el("div", { class: "legend" });
	for (const c of STATES) l.append(el("span", {}, el("i", { class: "st-" + c }), WORDS[c]));
	s.append(l);
	const rows = X.threads.map(t => {
		const raw = atob(t.bins), a = new Uint8Array(raw.length);
		for (let i = 0; i < raw.length; i++) a[i] = raw.charCodeAt(i);
		return Object.assign({ data: a }, t);
	});
	const label = t => (t.name || "thread") + " (tid " + t.tid + ") — " +
		(t.rank !== null ? "rank " + t.rank : t.label || "process " + t.process);
	const wrap = el("div", { class: "ovwrap" });
	const cv = el("canvas", { id: "threads-canvas", role: "img" });
	const tip = el("div", { class: "tip", role: "tooltip" });
	tip.hidden = true;
	wrap.append(cv, tip);
	s.append(wrap);
	const LABEL = 260, RH = 16, AXIS = 18;
	function draw() {
		const W = Math.max(400, wrap.clientWidth), Hpx = AXIS + rows.length * RH + 2;
		const g = canvas(cv, W, Hpx);
		const colours = STATES.map(c => g.colour("--s-" + c, "#888"));
		const fg = g.colour("--muted", "#666");
		const per = (W - LABEL) / B;
		g.fillStyle = fg;
		g.fillText("0", LABEL, AXIS / 2);
		g.textAlign = "right";
		g.fillText(dur(B * BIN), W - 2, AXIS / 2);
		g.textAlign = "left";
		rows.forEach((t, i) => {
			const y = AXIS + i * RH;
			g.globalAlpha = 1;
			g.fillStyle = fg;
			g.fillText(label(t), 2, y + RH / 2, LABEL - 6);
			for (let k = 0; k < B; k++) {
				const b = t.data[k];
				if (!b) continue;
				g.fillStyle = colours[b >> 5] || fg;
				g.globalAlpha = 0.25 + 0.75 * (b & 31) / LV;
				const x0 = Math.floor(LABEL + k * per), x1 = Math.floor(LABEL + (k + 1) * per);
				g.fillRect(x0, y + 1, Math.max(x1 - x0, 1), RH - 2);
			}
		});
		g.globalAlpha = 1;
		cv.setAttribute("aria-label", "the states of " + rows.length + " threads over " + dur(B * BIN));
	}
	cv.addEventListener("mousemove", e => {
		const r = cv.getBoundingClientRect();
		const k = Math.floor((e.clientX - r.left - LABEL) / ((r.width - LABEL) / B));
		const t = rows[Math.floor((e.clientY - r.top - AXIS) / RH)];
		if (!t || k < 0 || k >= B) { tip.hidden = true; return; }
		const b = t.data[k];
		showTip(tip, e, r, label(t) + "\n" + dur(k * BIN) + " – " + dur((k + 1) * BIN) + " (" + k * BIN +
			" – " + (k + 1) * BIN + " ns)\n" + (b ? "mostly " + WORDS[STATES[b >> 5]] + ": " +
			Math.round(100 * (b & 31) / LV) + " % of it" : "no state recorded"));
	});
	cv.addEventListener("mouseleave", () => { tip.hidden = true; });
	window.addEventListener("resize", draw);
	draw();
	/* each thread's time on a CPU, exact, as the summary's thread tables say it */
	s.append(timeTable("threads-running", "Time on a CPU", rows.map(t => Object.assign({}, t, { name: label(t) })), [
		["running", t => num("td", "ns", t.running_ns, dur(t.running_ns))]]));
	[...s.querySelector("#threads-running").tBodies[0].rows].forEach((tr, i) => {
		tr.dataset.process = String(rows[i].process);
		tr.dataset.tid = String(rows[i].tid);
	});
})();

/* the canvases take their colours from the styles: drawn again when the reader's light or
 * dark setting changes, as on a resize */
if (window.matchMedia)
	matchMedia("(prefers-color-scheme: dark)").addEventListener("change",
		() => window.dispatchEvent(new Event("resize")));

document.body.dataset.drawn = "yes";
})();
