#!/bin/bash
# Run the suite's workloads and the CUDA test programs natively, on a machine with an NVIDIA GPU
# and its driver, through NVIDIA's libcuda and libcudart instead of warpsim's: every workload's
# own CPU check then tells whether the kernel is right on hardware. Build first (`make`), then:
#   tools/native_check.sh [TIMEOUT_SECONDS] > native.txt
# One line per run: name, size, exit status, wall time, and the last lines of its output. The
# workloads' host programs find libcuda.so.1 through their RUNPATH (build/lib, warpsim's); the
# script puts the driver's first by preloading it. CUDA_LIB (default /usr/local/cuda/lib64)
# must hold NVIDIA's libcudart.so.13 for the test programs.
set -u
limit=${1:-60}
cd "$(dirname "$0")/.."
drv=$(ldconfig -p | awk '/libcuda\.so\.1 / {print $NF; exit}')
[ -n "$drv" ] || { echo "native_check: no NVIDIA driver (libcuda.so.1) on this machine" >&2; exit 1; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
one() { # name suite size args...
    local n=$1 s=$2 z=$3 f t0 t1 rc
    shift 3
    f=$(mktemp)
    t0=$(date +%s%N)
    LD_PRELOAD=$drv timeout "$limit" "build/workloads/$s/$n/host" "$@" >"$f" 2>&1
    rc=$?
    t1=$(date +%s%N)
    echo "$n $z rc=$rc $(((t1 - t0) / 1000000))ms | $(tail -3 "$f" | tr '\n' ' ')"
    rm -f "$f"
}
export -f one
export drv limit
grep -v '^#' workloads/manifest | grep . | while IFS='|' read -r head small paper; do
    set -- $head
    echo "$1 $2 small $small"
    echo "$1 $2 paper $paper"
done | sed 's/[[:space:]]*$//' | xargs -P "$(nproc)" -L 1 bash -c 'one "$@"' _ | sort
for p in tests/cudart/bin/*; do
    echo "$p: $(LD_LIBRARY_PATH=${CUDA_LIB:-/usr/local/cuda/lib64} timeout 30 "$p" 2>&1 | tail -2 | tr '\n' ' ')"
done
# The texture unit's filter weights (tools/native/texprobe.cu), where nvcc is at hand: compare
# with the same program under warpsim, e.g.
#   diff <(grep '^[wci]' texprobe.txt) <(LD_LIBRARY_PATH=build/lib ./texprobe | grep '^[wci]')
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
if [ -x "$nvcc" ] || command -v "$nvcc" >/dev/null; then
    probe=$(mktemp -d)/texprobe
    "$nvcc" -cudart shared -o "$probe" tools/native/texprobe.cu &&
        LD_LIBRARY_PATH=${CUDA_LIB:-/usr/local/cuda/lib64} "$probe" >"${TEXPROBE_OUT:-texprobe.txt}" &&
        echo "texprobe: $(grep -c . "${TEXPROBE_OUT:-texprobe.txt}") fetches in ${TEXPROBE_OUT:-texprobe.txt}"
fi
