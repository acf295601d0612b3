#!/bin/sh
# install-deps.sh — installs, from Debian 12's packages, what building and testing tprof
# needs and this machine lacks.  Run as root (or with sudo available); prints what it does.
set -eu

# Build: compiler, autotools, zlib, libdeflate (the recorder's compressor), cJSON, libunwind.  Tests: python3 (JSON checks).
# HIP tests: hipcc and the HIP headers (programs run against the stand-in HIP runtime).
# OTF2 output: libotf2-trace-dev; its tests: otf2-tools (otf2-print).  MPI tests: Open MPI
# (openmpi-bin, libopenmpi-dev) and mpi4py for Debian's python3 (python3-mpi4py); gfortran for
# the Fortran MPI programs (mpif90); MPICH (mpich, libmpich-dev: mpicc.mpich, mpif90.mpich and
# its Hydra launcher, mpirun.mpich, whose job identity the recorder reads differently; Open MPI
# stays the default mpicc and mpirun, which have the higher alternatives priority).  SQLite
# output: libsqlite3-dev; its tests query the database with the sqlite3 shell.  Perfetto
# output tests: protoc (protobuf-compiler) decodes every trace they write.  System profile:
# clang and llvm compile the BPF programs, bpftool makes vmlinux.h and their skeletons,
# libbpf-dev loads them; the analyzer resolves sampled frames with elfutils (libdw-dev).
# Python module tests: PyTorch for Debian's python3 (python3-torch), for tprof.torch.
# make fuzz (scripts/fuzz.sh): clang's libFuzzer and sanitizer runtimes (libclang-rt-14-dev;
# clang itself only recommends them).
# Private profiles: strace shows how each file is created (func/t-private.sh); setpriv
# (util-linux, essential on Debian) runs the recorder as another user.  The man pages'
# test renders them with groff (groff-base).  The HTML report's tests open it in a real
# browser: Debian's headless Chromium (chromium-headless-shell), with a font to draw text in
# (fonts-dejavu-core).  make bench measures HPC Challenge (hpcc) recorded
# against plain, and func/t-bench.sh checks that those rows are reported.
PACKAGES="build-essential autoconf automake libtool pkg-config zlib1g-dev libdeflate-dev libcjson-dev libunwind-dev python3 hipcc libamdhip64-dev libotf2-trace-dev otf2-tools python3-otf2 openmpi-bin libopenmpi-dev python3-mpi4py gfortran mpich libmpich-dev libsqlite3-dev sqlite3 protobuf-compiler clang llvm bpftool libbpf-dev libelf-dev libdw-dev python3-torch libclang-rt-14-dev strace groff-base hpcc chromium-headless-shell fonts-dejavu-core"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: everything needed is installed"
	exit 0
fi
echo "install-deps: installing$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: not root and no sudo; run as root: apt-get install -y$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: done"
