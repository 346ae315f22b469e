#!/bin/sh
# regen.sh [--check] [DIR...]: compile each workload's kernel.cu to the checked-in kernel.ptx
# (nvcc -arch=compute_75 -ptx) and record ptxas's register and shared-memory report for sm_75 in
# kernel.ptxinfo. With --check, compare instead of writing and exit 1 on any difference.
# DIRs default to every workloads/<suite>/<name>. Needs nvcc (CUDA_HOME, default /usr/local/cuda).
set -e
cd "$(dirname "$0")"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
PTXAS=${PTXAS:-$CUDA_HOME/bin/ptxas}
check=0
if [ "$1" = "--check" ]; then check=1; shift; fi
[ $# -gt 0 ] || set -- */*/kernel.cu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for d in "$@"; do
    d=${d%/kernel.cu}
    d=${d#workloads/}
    "$NVCC" -arch=compute_75 -ptx "$d/kernel.cu" -o "$tmp/kernel.ptx"
    # ptxas reports on stdout; its compile-time line differs from run to run
    "$PTXAS" -arch=sm_75 -v "$tmp/kernel.ptx" -o /dev/null 2>&1 | grep -v 'Compile time' > "$tmp/kernel.ptxinfo"
    for f in kernel.ptx kernel.ptxinfo; do
        if [ $check = 1 ]; then
            if ! cmp -s "$tmp/$f" "$d/$f"; then
                echo "$d/$f differs from what nvcc produces from $d/kernel.cu (run workloads/regen.sh $d)" >&2
                status=1
            fi
        else
            cp "$tmp/$f" "$d/$f"
        fi
    done
done
exit $status
