#!/bin/sh
# Build every program here (tests/unit/test_hostile.c runs them) with nvcc 13, -cudart shared
# and nvcc's defaults otherwise, into OUTDIR: by default bin/ beside this script, the prebuilt
# copies checked in for machines without nvcc. Sources are named relative to this folder, so
# no build path ends up in a binary (assert messages carry the file name nvcc was given).
#   sh tests/hostile/build.sh [OUTDIR]
set -e
dest=${1:-$(dirname "$0")/bin}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
cd "$(dirname "$0")"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
for src in *.cu; do
    # -Xlinker -s: no symbol table, to keep the checked-in binaries small
    "$nvcc" -cudart shared -O2 -Xlinker -s -o "$dest/${src%.cu}" "$src"
done
