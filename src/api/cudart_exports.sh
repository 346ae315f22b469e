#!/bin/sh
# The CUDA runtime's exports that warpsim's libcudart.so.13 does not define yet, from a CUDA
# toolkit's libcudart.so.13 (NVIDIA's) and warpsim's (built by `make`): the lines to put in
# src/api/runtime_unsupported.def when the toolkit changes, and the list tests/cudart/cudart13.syms
# that the tests hold the library to.
#   sh src/api/cudart_exports.sh [NVIDIA_LIBCUDART [WARPSIM_LIBCUDART]]
set -e
real=${1:-${CUDA_HOME:-/usr/local/cuda}/lib64/libcudart.so.13}
ours=${2:-build/lib/libcudart.so.13}
names() { nm -D --defined-only "$1" | awk '{print $3}' | sed 's/@.*//' | grep -E '^(__)?cuda' | sort -u; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names "$real" >"$tmp/real"
names "$ours" >"$tmp/ours"
echo "# exports of $real: $(wc -l <"$tmp/real"), of which warpsim lacks:" >&2
comm -23 "$tmp/real" "$tmp/ours" | sed 's/.*/RT_UNSUPPORTED(&)/'
