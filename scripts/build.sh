#!/bin/sh
# build.sh [DIR [CONFIGURE-ARGS...]] — configures and builds tprof out of tree, in DIR
# (default build/ at the top of the checkout).  Regenerates the build system when needed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}
[ $# -gt 0 ] && shift
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
mkdir -p "$dir"
cd "$dir"
[ -f Makefile ] || "$top/configure" -q "$@"
make -j"$(nproc)" >/dev/null
echo "build: built in $dir"
