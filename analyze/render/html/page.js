/* page.js — draws the report from the summary document in #tprof-data (the JSON of
 * tprof-analyze --diagnose --summary-format json, docs/summary-json.md).  Every number shown
 * carries its exact value in a data- attribute (data-ns, data-count...) and in its tooltip;
 * no request leaves the page. */
"use strict";
(function () {
const D = JSON.parse(document.getElementById("tprof-data").textContent);
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
function procName(p) {
	if (!p) return "?";
	return p.rank !== null && p.rank !== undefined ? "rank " + p.rank : "pid " + p.pid;
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
			el("div", { class: "head" }, lines[0]));
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
})();

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
	fold(s, procs.length, "each of the " + procs.length + " processes", el("div", {}, el("h3", {}, "Each process"), table));
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

/* ---- top tables as bar charts ---- */
function timeTable(id, title, rows, cols) {
	const max = Math.max(...rows.map(r => r.time_ns || r.total_ns || 0), 1);
	const table = el("table", { id: id });
	const head = el("tr", {}, el("th", {}, "name"));
	for (const c of cols) head.append(el("th", { class: "num" }, c[0]));
	head.append(el("th", {}, ""));
	table.append(el("thead", {}, head));
	const tb = el("tbody");
	for (const r of rows) {
		const t = r.time_ns !== undefined ? r.time_ns : r.total_ns;
		const tr = el("tr", {}, el("td", { class: "name" }, r.name));
		for (const c of cols) tr.append(c[1](r));
		const bar = el("div", { class: "bar", title: dur(t) });
		bar.style.width = (100 * (t || 0) / max) + "%";
		tr.append(el("td", { class: "barcell" }, bar));
		tb.append(tr);
	}
	table.append(tb);
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

/* ---- MPI by rank ---- */
(function ranks() {
	const r = D.mpi && D.mpi.ranks;
	if (!r || !r.rows || !r.rows.length) return;
	const s = section("ranks", "MPI by rank",
		"Time in MPI calls per rank, of its covered time; imbalance " + r.imbalance.toFixed(2) +
		" (the most over the mean).");
	const rows = r.rows.map(x => Object.assign({ name: x.rank === null ? x.label : "rank " + x.rank }, x));
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
		const rows = y.cpu_cores.rows.map(c => Object.assign({ name: c.host + " cpu " + c.cpu, time_ns: c.avg_pct }, c));
		grid.append(timeTable("cpu-cores", "CPU use per core", rows, [
			["mean", c => num("td", "pct", c.avg_pct, pct(c.avg_pct))],
			["max", c => num("td", "pct", c.max_pct, pct(c.max_pct))]]));
	}
	if (y.memory && y.memory.rows.length) {
		const rows = y.memory.rows.map(m => Object.assign({
			name: m.kind === "host" ? "host " + m.host : m.process_label, time_ns: m.peak_bytes }, m));
		grid.append(timeTable("memory", "Memory (peak)", rows, [
			["peak", m => num("td", "bytes", m.peak_bytes, bytes(m.peak_bytes))],
			["of", m => num("td", "bytes", m.total_bytes, bytes(m.total_bytes))]]));
	}
	if (y.off_cpu && y.off_cpu.rows.length) {
		const rows = y.off_cpu.rows.map(t => Object.assign({ name: t.thread + " — " + t.process_label, time_ns: t.off_cpu_ns }, t));
		grid.append(timeTable("off-cpu", "Threads off the CPU", rows, [
			["running", t => num("td", "ns", t.running_ns, dur(t.running_ns))],
			["waiting for a CPU", t => num("td", "ns", t.runnable_ns, dur(t.runnable_ns))],
			["sleeping", t => num("td", "ns", t.sleeping_ns, dur(t.sleeping_ns))],
			["blocked", t => num("td", "ns", t.blocked_ns, dur(t.blocked_ns))]]));
	}
	s.append(grid);
})();

document.body.dataset.drawn = "yes";
})();
