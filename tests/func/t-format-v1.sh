#!/bin/sh
# A profile written by an earlier tprof still reads: traces/tprof-v1/ holds chunks of the
# record codec's version 1 (extension units verbatim, encoding 1), and the analyzer of today
# shows every event, duration and argument of it as the analyzer of that time did (its Chrome
# output's fingerprint, kept beside it).  A profile recorded now is written in version 2.
. "$(dirname "$0")/lib.sh"
plan 6

V1="$top_srcdir/tests/traces/tprof-v1"

# encodings FILE...: the set of chunk encodings in the trace files, one per line.
ENCODINGS='
import struct, sys
seen = set()
for path in sys.argv[1:]:
    b = open(path, "rb").read()
    off = 64
    while off + 64 <= len(b):
        magic, enc, comp = b[off:off + 4], struct.unpack_from("<I", b, off + 52)[0], \
            struct.unpack_from("<I", b, off + 44)[0]
        assert magic == b"TPCK", "no chunk at %d of %s" % (off, path)
        seen.add(enc)
        off += 64 + comp
    assert off == len(b), "trailing bytes in " + path
print("\n".join(str(e) for e in sorted(seen)))
'
[ "$(py "$ENCODINGS" "$V1"/*.tpf)" = 1 ]
ok $? "the kept profile is of the old format: every chunk of encoding 1"

mkdir "$T/v1" && cp "$V1"/*.tpf "$T/v1/"
"$ANALYZE" "$T/v1" --format chrome -o "$T/v1.json" 2>"$T/v1.err" && ! grep -q warning "$T/v1.err"
ok $? "it converts to Chrome JSON without a warning"

# The fingerprint: per (phase, category, name) the events and their summed duration (ns),
# and per name each set of arguments with how many events carry it.
FINGERPRINT='
import collections, json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
count, dur, args = collections.Counter(), collections.Counter(), collections.Counter()
for e in ev:
    if e.get("ph") == "M":
        continue
    k = (e.get("ph"), e.get("cat", ""), e.get("name", ""))
    count[k] += 1
    dur[k] += round(e.get("dur", 0) * 1000)
    a = e.get("args")
    if a:
        args[(k[2],) + tuple(sorted((x, str(y)) for x, y in a.items()
                                    if x not in ("correlation", "id")))] += 1
for k in sorted(count):
    print("event", *k, count[k], dur[k], sep="\t")
for k in sorted(args):
    print("args", *k, args[k], sep="\t")
'
py "$FINGERPRINT" "$T/v1.json" >"$T/v1.fp" && diff "$V1/chrome-fingerprint.txt" "$T/v1.fp" >"$T/v1.diff"
ok $? "every event, duration and argument as the analyzer of its time showed them" ||
	head -n 20 "$T/v1.diff" | sed 's/^/# /'
grep -q 'hipLaunchKernel.*3000' "$T/v1.fp" && grep -q '^event	X	kernel	.*	3000	' "$T/v1.fp"
ok $? "its 3,000 launches (extension units) and their kernels are there"

"$ANALYZE" "$T/v1" --summary >"$T/v1.sum" 2>&1 && grep -q 'events: 7,751' "$T/v1.sum" &&
	grep -q '^  dropped: *0' "$T/v1.sum" && grep -q '^  skipped: *0' "$T/v1.sum"
ok $? "its summary counts 7,751 events, none dropped or skipped"

record_env "$T/now" "$APPS/threads" 2 100 >/dev/null 2>"$T/now.err"
[ "$(py "$ENCODINGS" "$T/now"/*.tpf)" = 3 ]
ok $? "a profile recorded now is written in the codec's version 2 (encoding 3)"
finish
