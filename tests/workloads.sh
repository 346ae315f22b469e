#!/bin/sh
# workloads.sh BUILD [SPEC]: every suite workload at its small size on the timing model (the sweep
# of experiments/suite-small; each host program checks its output against its CPU reference, so
# a failed check fails its run), the same on two threads (experiments/suite-threads: the stats
# must not change), then, when nvcc is present, the checked-in PTX against what nvcc
# produces. With SPEC (`make asan`: experiments/suite-asan), the runs of that experiment only,
# and no PTX check. Ends with "N passed, N failed" like the unit tests.
set -u
build=${1:-build}
spec=${2:-experiments/suite-small}
results=$build/$(basename "$spec")
rm -rf "$results"
"$build/warpsim" sweep "$spec" -j 2 --results "$results"
sweep=$?
"$build/warpsim" report "$results" > /dev/null || sweep=1
total=$(ls "$results"/runs/*.json 2>/dev/null | wc -l)
# The runs the sweep had to do: the workloads of the experiment it wrote (suites expanded).
n=$(grep -c '^workload ' "$results/experiment" 2>/dev/null)
[ -n "$n" ] && [ "$n" -gt 0 ] || { n=1; sweep=1; }
failed=$((n - total))
[ $sweep -eq 0 ] || [ $failed -gt 0 ] || failed=1
# The same runs with the SMs on two threads (experiments/suite-threads), one run at a time so
# that both threads have a core: every stat must equal the one-thread run's (the result files
# from their kernels on; what precedes is the configuration, the wall time and the memory).
if [ "$spec" = experiments/suite-small ] && [ $sweep -eq 0 ]; then
    tresults=$build/suite-threads
    rm -rf "$tresults"
    "$build/warpsim" sweep experiments/suite-threads -j 1 --results "$tresults" || failed=$((failed + 1))
    same=0
    for base in "$results"/runs/*__base.json; do
        name=$(basename "$base" __base.json)
        other=$tresults/runs/${name}__threads2.json
        if [ -f "$other" ] && [ "$(sed -n '/^  "kernels"/,$p' "$base")" = "$(sed -n '/^  "kernels"/,$p' "$other")" ]; then
            same=$((same + 1))
        else
            echo "FAIL: $name: its stats on two threads differ from one thread's ($other)"
            failed=$((failed + 1))
        fi
    done
    echo "$same of $total workloads: the same stats on two threads as on one"
fi
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if [ "$spec" != experiments/suite-small ]; then
    :
elif command -v nvcc >/dev/null 2>&1 || [ -x "$nvcc" ]; then
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
