"""sys-analyze.py — the checks of func/t-sys-analyze.sh, on what tprof-analyze made of the
system images that tools/mk-sysimage wrote: its JSON summaries (--summary=json) and its
Chrome traces.  elf-addresses is not a check: it prints the shell assignments of the test
binary's executable segment and function addresses."""
import json
import struct
import subprocess

from checklib import fail, main
from chrome_trace import events, load

MS = 1000000


def _system(path):
    """The "system" part of a JSON summary."""
    return json.load(open(path))["system"]


def elf_addresses(path):
    """Prints MSTART, MEND and MOFF, the executable segment of the binary at PATH mapped at a
    PIE base, and C_IP, CPP_IP and CPP_RET, addresses in its two functions there (nm), as
    the sampler would find them."""
    b = open(path, "rb").read()
    phoff, = struct.unpack_from("<Q", b, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", b, 0x36)
    base = 0x555555554000
    for i in range(phnum):
        t, flags, off, vaddr, _, filesz, memsz, _ = struct.unpack_from(
            "<IIQQQQQQ", b, phoff + i * phentsize)
        if t == 1 and flags & 1:
            print("MSTART=%#x MEND=%#x MOFF=%#x" % (base + (vaddr & ~0xfff),
                  base + ((vaddr + memsz + 0xfff) & ~0xfff), off & ~0xfff))
    syms = {}
    nm = subprocess.run(["nm", "-S", path], capture_output=True, text=True).stdout
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    c, cpp = syms["tprof_sys_c_function"], syms["_ZN5tprof4test6Worker7computeEi"]
    print("C_IP=%#x CPP_IP=%#x CPP_RET=%#x" %
          (base + c[0] + 1, base + cpp[0] + 2, base + cpp[0] + cpp[1] - 1))


# ---- a known mix: 3 samples in the C function called from the C++ method, 1 in the method

def mix_functions(summary):
    """CPU samples by function: the C function 75 % self, the C++ method demangled, 25 % self
    and 100 % total."""
    s = _system(summary)
    f = {r["function"]: r for r in s["cpu_functions"]["rows"]}
    c, cpp = "tprof_sys_c_function", "tprof::test::Worker::compute(int)"
    want = {c: (3, 75.0, 3, 75.0), cpp: (1, 25.0, 4, 100.0)}
    got = {k: (f[k]["self_samples"], f[k]["self_pct"], f[k]["total_samples"], f[k]["total_pct"])
           for k in want if k in f}
    if got != want or s["cpu_functions"]["samples"] != 4:
        fail("functions: %s" % s["cpu_functions"])


def mix_off_cpu(summary):
    """The sleeping thread is in the off-CPU table (48 ms sleeping, 10 ms runnable, 10 ms
    blocked) and not in the CPU one."""
    s = _system(summary)
    thr = [(r["thread"], r["samples"], r["share_pct"]) for r in s["cpu_threads"]["rows"]]
    off = {r["thread"]: r for r in s["off_cpu"]["rows"]}
    sl = off.get("sleeper (tid 103)")
    if thr != [("compute (tid 101)", 4, 100.0)]:
        fail("threads: %s" % thr)
    if not sl or (sl["sleeping_ns"], sl["runnable_ns"], sl["running_ns"], sl["blocked_ns"]) != \
            (48 * MS, 10 * MS, 10 * MS, 10 * MS):
        fail("sleeper: %s" % sl)
    if s["off_cpu"]["total"]["off_cpu_ns"] != 68 * MS:
        fail("total: %s" % s["off_cpu"]["total"])


def mix_cores_memory_lost(summary):
    """Utilisation per core, host and process memory peaks, and 3 samples lost."""
    d = json.load(open(summary))
    s = d["system"]
    cores = [(r["cpu"], r["avg_pct"], r["max_pct"]) for r in s["cpu_cores"]["rows"]]
    mem = sorted((r["kind"], r["peak_bytes"]) for r in s["memory"]["rows"])
    if cores != [(0, 50.0, 75.0), (1, 100.0, 100.0)] or mem != [("host", 3e9), ("process", 5e7)]:
        fail("cores %s memory %s" % (cores, mem))
    if s["lost"]["samples_lost"] != 3 or d["header"]["dropped"]["samples_lost"] != 3:
        fail("lost: %s %s" % (s["lost"], d["header"]["dropped"]))


def mix_chrome(trace):
    """Chrome: the sleeper's state track holds its four states; counters on the system
    process, the app and the thread."""
    d = load(trace)
    ev = events(d)
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"]
             if e["name"] == "thread_name"}
    pn = {e["pid"]: e["args"]["name"] for e in d["traceEvents"] if e["name"] == "process_name"}
    app = [p for p, n in pn.items() if n.startswith("app (node1, pid 100)")][0]
    sysp = [p for p, n in pn.items() if n == "system (node1)"][0]
    st = sorted((e["name"], e["ts"], e["dur"]) for e in ev
                if e.get("cat") == "state" and names.get((e["pid"], e["tid"])) == "sleeper state")
    want = [("Blocked (I/O)", 69000.0, 10000.0), ("Runnable", 49000.0, 10000.0),
            ("Running", 59000.0, 10000.0), ("Sleeping", 1000.0, 48000.0)]
    ctr = {(e["pid"], e["name"]) for e in ev if e["ph"] == "C"}
    wantc = {(sysp, "CPU 0 busy %"), (sysp, "CPU 1 busy %"), (sysp, "host memory used"),
             (app, "RSS"), (app, "page faults (compute, tid 101)")}
    if st != want:
        fail("states %s" % st)
    if ctr != wantc:
        fail("counters %s" % ctr)
    if (app, 101) not in names or names[(app, 101)] != "compute":
        fail("no track for the thread that recorded nothing: %s" % names)
    o = {(e["pid"], e["tid"]): e["args"]["sort_index"] for e in d["traceEvents"]
         if e["name"] == "thread_sort_index"}
    sl = [k for k, n in names.items() if n == "sleeper state"][0]
    if o[sl] != o[(app, 103)] + 1 if (app, 103) in o else o[sl] != 3 * 103 + 4:
        fail("the state track does not sort right after its thread: %s" % o)


def window_clips(summary, trace):
    """A window keeps no sample outside it and clips the states at its edges."""
    s = _system(summary)
    off = {r["thread"]: r for r in s["off_cpu"]["rows"]}
    sl = off["sleeper (tid 103)"]
    if s["cpu_functions"]["samples"] != 0 or \
            (sl["runnable_ns"], sl["running_ns"], sl["sleeping_ns"]) != (5 * MS, 5 * MS, 0):
        fail("window: %s %s" % (s["cpu_functions"], sl))
    d = json.load(open(trace))
    st = sorted((e["name"], e["ts"], e["dur"], e.get("args", {}).get("clipped"))
                for e in d["traceEvents"] if e.get("cat") == "state")
    if st != [("Runnable", 54000.0, 5000.0, True), ("Running", 59000.0, 5000.0, True)]:
        fail("states %s" % st)


# ---- exec, a process that recorded nothing, kernel frames, odd input

def odd_processes(summary):
    """A pid that execs: its samples before the exec go to a process made for it, after to
    the recorded image; a process that recorded nothing gets one."""
    d = json.load(open(summary))
    labels = sorted(p["label"] for p in d["header"]["process_list"])
    only = sorted(p["label"] for p in d["header"]["process_list"] if p["sampled_only"])
    want = ["app2 (node1, pid 300)", "helper (node1, pid 400)",
            "sh (node1, pid 300, before exec)", "system (node1)"]
    if labels != want or only != ["helper (node1, pid 400)", "sh (node1, pid 300, before exec)"]:
        fail("processes %s, made %s" % (labels, only))
    thr = sorted((r["process_label"], r["thread"], r["samples"])
                 for r in d["system"]["cpu_threads"]["rows"])
    if thr != [("app2 (node1, pid 300)", "app2 (tid 300)", 1),
               ("helper (node1, pid 400)", "helper-io (tid 401)", 1),
               ("sh (node1, pid 300, before exec)", "sh (tid 300)", 1)]:
        fail("threads %s" % thr)


def odd_frames(summary):
    """Kernel frames named by KSYM (a return address at address - 1), unresolved frames as
    0xADDR and file+0xOFF."""
    s = _system(summary)
    f = {r["function"]: (r["self_samples"], r["total_samples"]) for r in s["cpu_functions"]["rows"]}
    want = {"schedule": (1, 1), "do_syscall_64": (0, 1), "0x7777": (1, 2),
            "libgone.so+0x10": (1, 1)}
    if f != want:
        fail("functions %s" % f)
    lost = s["lost"]
    if (lost["unattributed"], lost["missing_files"]) != (1, 1) or \
            lost["unresolved_addresses"] < 2:
        fail("lost %s" % lost)


def odd_chrome_tracks(trace):
    """Chrome: the made process and its thread have tracks (the thread with its state
    track)."""
    d = load(trace)
    pn = {e["pid"]: e["args"]["name"] for e in d["traceEvents"] if e["name"] == "process_name"}
    names = {(pn.get(e["pid"]), e["args"]["name"]) for e in d["traceEvents"]
             if e["name"] == "thread_name"}
    for want in [("helper (node1, pid 400)", "helper-io"),
                 ("helper (node1, pid 400)", "helper-io state"),
                 ("sh (node1, pid 300, before exec)", "sh")]:
        if want not in names:
            fail("no track %s in %s" % (want, sorted(names)))


# ---- a truncated image (no END, a sample cut short) still reads

def cut_samples(summary):
    """A system image without END still gives its samples."""
    s = _system(summary)
    if s["cpu_functions"]["samples"] != 1:
        fail("samples %s" % s["cpu_functions"])


# ---- a state track that missed a switch

def missed_switch(trace):
    """A thread shown Runnable whose samples say it runs is Running from its first sample on;
    a sample within 1 ms of a switch away (the switch's own race) leaves the new state
    alone."""
    d = json.load(open(trace))
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}

    def states(who):
        return sorted((e["name"], e["ts"] / 1e3, (e["ts"] + e["dur"]) / 1e3)
                      for e in d["traceEvents"]
                      if e.get("cat") == "state" and names.get((e["pid"], e["tid"])) == who)
    spin = sorted(states("spin state"), key=lambda s: s[1])
    base = spin[0][1] - 5 if spin else 0
    got = [(n, round(a - base), round(b - base)) for n, a, b in spin][:4]
    want = [("Running", 5, 10), ("Runnable", 10, 20), ("Running", 20, 30), ("Runnable", 30, 40)]
    nap = [n for n, _, _ in states("napper state")]
    if got != want or "Sleeping" not in nap:
        fail("spin %s (want %s); napper %s" % (got, want, nap))


main(globals())
