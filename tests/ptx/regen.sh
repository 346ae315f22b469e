#!/bin/sh
# Regenerate the checked-in PTX of the functional tests from the CUDA sources next to it.
# Run from anywhere; needs nvcc (CUDA 12 or newer). The tests read only the .ptx files.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
for f in *.cu; do
    "$NVCC" -arch=compute_75 -ptx "$f" -o "${f%.cu}.ptx"
done
# The driver-API test loads driver_api.ptx with cuModuleLoad, which reads ptxas's report beside it.
PTXAS=${PTXAS:-$(dirname "$(command -v "$NVCC")")/ptxas}
"$PTXAS" -arch=sm_75 -v driver_api.ptx -o /dev/null 2>&1 | grep -v 'Compile time' > driver_api.ptxinfo
