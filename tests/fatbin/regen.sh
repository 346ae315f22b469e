#!/bin/sh
# Regenerate the fat-binary fixtures of tests/unit/test_fatbin.c from kernel.cu. Run from
# anywhere; needs nvcc 13 (older ones lack --compress-mode). Each fixture is what nvcc puts in
# the .nv_fatbin section of a host object (-fatbin writes exactly those bytes): an sm_75 cubin
# and compute_75 / compute_86 PTX.
#   kernel.default.fatbin  nvcc's defaults: zstd PTX, cubin stored raw
#   kernel.zstd.fatbin     every entry zstd-compressed
#   kernel.lz4.fatbin      every entry LZ4-compressed (--compress-mode=speed)
#   kernel.none.fatbin     nothing compressed
#   kernel.ptx             `nvcc -ptx` for compute_86: the PTX the decoder must recover
#   kernel.ptxinfo         ptxas -v for the sm_75 cubin: the register counts it must report
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
GEN="-gencode arch=compute_75,code=[sm_75,compute_75] -gencode arch=compute_86,code=compute_86"
"$NVCC" $GEN -fatbin kernel.cu -o kernel.default.fatbin
"$NVCC" $GEN -fatbin -Xfatbin -compress-all kernel.cu -o kernel.zstd.fatbin
"$NVCC" $GEN -fatbin --compress-mode=speed -Xfatbin -compress-all kernel.cu -o kernel.lz4.fatbin
"$NVCC" $GEN -fatbin --no-compress kernel.cu -o kernel.none.fatbin
"$NVCC" -arch=compute_86 -ptx kernel.cu -o kernel.ptx
"$NVCC" -gencode arch=compute_75,code=sm_75 -Xptxas -v -c kernel.cu -o /dev/null 2>&1 |
    grep -v 'Compile time' > kernel.ptxinfo
