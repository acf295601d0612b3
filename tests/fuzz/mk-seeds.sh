#!/bin/sh
# mk-seeds.sh BUILD OUT — writes the fuzz targets' seeds into OUT/{tpf,spool,json,render,live}
# from what the functional tests' programs record and write, in the build directory BUILD (a
# normal build, after make check has built the test programs).  tests/fuzz/corpus holds its
# output as committed (add the inputs of findings by hand): small profiles of a few
# threads, ranks and runtimes; spools of processes that ended without their final flush,
# with their slots cut to what they use; JSON traces in every form the importer reads.
set -eu
B=$(cd "$1" && pwd)
OUT=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PYTHON3:-python3}
APPS="$B/tests/apps"
PRELOAD="$B/preload/.libs/libtrace_preload.so"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$OUT/tpf" "$OUT/spool" "$OUT/json" "$OUT/render" "$OUT/live"

rec() { _d=$1; shift; TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$W/$_d" TPROF_BUFFER_KB=16 \
	LD_PRELOAD="$PRELOAD" "$@" >/dev/null 2>&1 || true; }
rec threads "$APPS/threads" 2 20
rec steps "$APPS/steps" 4
rec marks "$APPS/marks" 2 20
rec names "$APPS/names"
rec forkexec "$APPS/forkexec"
for m in _exit abort kill; do rec "exit$m" "$APPS/exits" "$m" 40 "$W/ready"; done
"$APPS/mpi-synth" "$W/mpi" >/dev/null
"$APPS/nccl-synth" "$W/nccl" >/dev/null
"$APPS/dev-synth" "$W/dev" >/dev/null
[ -x "$APPS/nrt-synth" ] && "$APPS/nrt-synth" "$W/nrt" >/dev/null
(cd "$W" && TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$W/imp" LD_PRELOAD="$PRELOAD" \
	"$APPS/imp-writer" "$W/imp/w.pt.trace.json" base 2 2 >/dev/null 2>&1) || true
# Jobs of three ranks that hang (apps/hang-job, built where mpicc and the stand-ins are): a
# deadlock and a rank that skips an all-reduce, killed by their hang report.
if [ -x "$APPS/hang-job" ] && command -v mpirun >/dev/null 2>&1; then
	for s in deadlock nccl-skip; do
		LD_LIBRARY_PATH="$B/tests/stand-ins/.libs" STANDIN_NCCL_TIMEOUT_S=60 \
			STANDIN_HIP_KERNEL_US="step_kernel:2000,default:10" \
			"$B/cli/tprof-inspect" --buffer-kb 16 --hang-report 2 --hang-action kill \
			-o "$W/hang-$s" -- mpirun --allow-run-as-root --oversubscribe -np 3 \
			"$APPS/hang-job" "$s" >/dev/null 2>&1 || true
	done
fi

# Chunk files: each under 8 KiB.  Spools: cut to their header page and used slots.
for f in "$W"/*/*.tpf; do
	[ "$(wc -c <"$f")" -le 8192 ] && cp "$f" "$OUT/tpf/$(basename "$(dirname "$f")")-$(basename "$f")"
done
"$PY" - "$OUT/spool" "$W"/*/*.spool <<'EOF'
# Each spool rewritten with slots just large enough for the most any slot uses (the header's
# slot_bytes and CRC, each slot header's capacity), FREE slots left out.
import os, struct, sys, zlib
out = sys.argv[1]
for path in sys.argv[2:]:
    b = open(path, "rb").read()
    sb = struct.unpack_from("<I", b, 28)[0]
    slots = []
    for off in range(4096, len(b) - sb + 1, sb):
        magic, state = struct.unpack_from("<II", b, off)
        if magic != 0x4c535054 or state == 0:
            continue
        cap = (sb - 64) // 32
        n = 0
        while n < cap:
            u = off + 64 + 32 * n
            kind, ext = struct.unpack_from("<HB", b, u)
            if kind == 0 or n + 1 + ext > cap:
                break
            n += 1 + ext
        slots.append((b[off:off + 64], b[off + 64:off + 64 + 32 * n], n))
    if not slots:
        continue
    units = max(1, max(n for _, _, n in slots))
    nsb = 64 + 32 * units
    h = bytearray(b[:4096])
    struct.pack_into("<I", h, 28, nsb)
    struct.pack_into("<I", h, 60, zlib.crc32(bytes(h[:60])))
    body = bytearray()
    for sh, data, n in slots:
        sh = bytearray(sh)
        struct.pack_into("<I", sh, 20, units)
        body += sh + data + bytes(32 * (units - n))
    name = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path)
    open(os.path.join(out, name), "wb").write(bytes(h) + bytes(body))
EOF

# The live target's (a byte, the number of spools less one, the length of each but the last
# as four bytes little-endian, then the spools): each spool of a process that ended without
# its final flush, and the three ranks' of each hung job.
live_seed() {
	"$PY" - "$@" <<'EOF'
import struct, sys
spools = [open(p, "rb").read() for p in sys.argv[2:]]
head = bytes([len(spools) - 1]) + b"".join(struct.pack("<I", len(s)) for s in spools[:-1])
open(sys.argv[1], "wb").write(head + b"".join(spools))
EOF
}
for f in "$OUT"/spool/exit*.spool; do live_seed "$OUT/live/$(basename "$f" .spool)" "$f"; done
for s in deadlock nccl-skip; do
	ls "$OUT"/spool/hang-$s-*.spool >/dev/null 2>&1 &&
		live_seed "$OUT/live/hang-$s" "$OUT"/spool/hang-$s-*.spool
done

# The render target's inputs: a selector byte (each output in turn), the chunk file's
# length, the chunk file, the spool (cut as above) when the process left one.
i=0
for f in "$OUT"/tpf/*.tpf; do
	s="$OUT/spool/$(basename "${f%.tpf}").spool"
	[ -f "$s" ] || s=/dev/null
	"$PY" - "$f" "$s" "$((i % 7 | (i / 7 % 4) << 3))" "$OUT/render/$(basename "${f%.tpf}")" <<'EOF'
import struct, sys
t = open(sys.argv[1], "rb").read()
s = open(sys.argv[2], "rb").read()
open(sys.argv[4], "wb").write(bytes([int(sys.argv[3])]) + struct.pack("<I", len(t)) + t + s)
EOF
	i=$((i + 1))
done

# JSON: the generator's forms (object, array, gzipped, epoch times, cut short, no members),
# the imp-writer's Kineto-like trace, the every-phase file of func/t-import.sh, and the Chrome
# traces tprof writes of two profiles (plain and gzipped).
GEN="$B/tests/tools/mk-chrome-trace"
for o in "" -a -z -e -c -M "-e -z -s 7"; do
	# shellcheck disable=SC2086
	"$GEN" -n 60 $o -o "$OUT/json/gen$(echo "$o" | tr -d ' -')".json >/dev/null
done
cp "$W/imp/w.pt.trace.json" "$OUT/json/imp-writer.json" 2>/dev/null || true
sed -n "/^cat >\"\$T\/all.json\" <<'EOF'$/,/^EOF$/p" "$top/tests/func/t-import.sh" | sed '1d;$d' \
	>"$OUT/json/every-phase.json"
"$B/analyze/tprof-analyze" "$W/steps" -f chrome -o "$OUT/json/tprof-steps.json" 2>/dev/null
"$B/analyze/tprof-analyze" "$W/mpi" -f chrome -o "$OUT/json/tprof-mpi.json.gz" 2>/dev/null
du -sh "$OUT"/*
