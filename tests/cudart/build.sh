#!/bin/sh
# Build the runtime-API test programs of tests/unit/test_cudart.c with nvcc 13, as any CUDA
# program is built (-cudart shared, nvcc's default fat-binary compression), into OUTDIR
# (default: tests/cudart/bin, the prebuilt copies checked in for machines without nvcc).
# vecadd_lz4 is vecadd with --compress-mode=speed (LZ4 instead of zstd); vecadd_ptsz is vecadd
# with --default-stream per-thread (the _ptsz / _ptds entry points); wmma and wmma_sm80 are
# run by tests/unit/test_ptx_wmma.c.
#   sh tests/cudart/build.sh [OUTDIR]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/bin}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
cd "$here" # relative source names: no build paths end up in the binaries
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$out"
# -s: no symbol table, to keep the checked-in binaries small
flags="-cudart shared -O2 -Xlinker -s"
for prog in vecadd symbols reduce texture devprops badlaunch pools runtime_api managed graphs graphupdate graphedges graphmem graphcond virtual streamattr streams coop arrays textures surfaces; do
    "$NVCC" $flags -o "$out/$prog" "$prog.cu"
done
"$NVCC" $flags --compress-mode=speed -o "$out/vecadd_lz4" "vecadd.cu"
"$NVCC" $flags --default-stream per-thread -o "$out/vecadd_ptsz" "vecadd.cu"
# both APIs in one program: the driver's cuLaunchKernel on the runtime's memory and back
"$NVCC" $flags -o "$out/drvrt" "drvrt.cu" -lcuda
# driver calls in the context the runtime makes current (no cuCtx* of the program's), two threads
"$NVCC" $flags -o "$out/drvctx" "drvctx.cu" -lcuda -lpthread
# two processes sharing memory and an event (runtime IPC, a shared pool, a shareable driver allocation)
"$NVCC" $flags -o "$out/ipc" "ipc.cu" -lcuda
# tensor cores: wmma with nvcc's default sm_75, and wmma_sm80 adding the bf16 fragments of sm_80
"$NVCC" $flags -o "$out/wmma" "wmma.cu"
"$NVCC" $flags -arch=sm_80 -DWMMA_BF16 -o "$out/wmma_sm80" "wmma.cu"
# sm_80: cp.async, tf32 and f64 wmma (tests/unit/test_ptx_sm80.c)
"$NVCC" $flags -arch=sm_80 -o "$out/sm80" "sm80.cu"
# dynamic parallelism: two objects linked with relocatable device code, as CUDA programs that
# launch kernels from kernels are built (tests/unit/test_cudart.c)
"$NVCC" $flags -rdc=true -o "$out/cdp" cdp.cu cdp_leaf.cu -lcudadevrt
# small PTX features: WARP_SZ, match, bmsk, f16 arithmetic, CUB (tests/unit/test_cuda_ptxgaps.c)
"$NVCC" $flags -o "$out/ptxgaps" "ptxgaps.cu"
