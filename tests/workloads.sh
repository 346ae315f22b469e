#!/bin/sh
# workloads.sh BUILD: every suite workload at its small size on the timing model (the sweep of
# experiments/suite-small; each host program checks its output against its CPU reference, so a
# failed check fails its run), then, when nvcc is present, the checked-in PTX against what nvcc
# produces. Ends with "N passed, N failed" like the unit tests.
set -u
build=${1:-build}
results=$build/suite-small
rm -rf "$results"
"$build/warpsim" sweep experiments/suite-small -j 2 --results "$results"
sweep=$?
"$build/warpsim" report "$results" > /dev/null || sweep=1
total=$(ls "$results"/runs/*.json 2>/dev/null | wc -l)
n=$(grep -c '^[a-z0-9]' workloads/manifest)
failed=$((n - total))
[ $sweep -eq 0 ] || [ $failed -gt 0 ] || failed=1
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if command -v nvcc >/dev/null 2>&1 || [ -x "$nvcc" ]; then
    if sh workloads/regen.sh --check; then
        echo "workload PTX matches what nvcc produces"
    else
        failed=$((failed + 1))
    fi
else
    echo "nvcc not found: the PTX regeneration check is skipped"
fi
echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
