#!/bin/sh
# run.sh: run one fuzz harness for a while, seeded from the repository's own inputs.
# Usage: tests/fuzz/run.sh BUILD TARGET SECONDS. The corpus grows in BUILD/corpus/TARGET (never in
# the source tree); a finding leaves its input as BUILD/crash-* (or leak-, timeout-, oom-) and
# the exit status is non-zero.
set -eu
build=$1 target=$2 seconds=$3
corpus=$build/corpus/$target
mkdir -p "$corpus"
case $target in
ptx) seeds="tests/ptx/*.ptx tests/fatbin/kernel.ptx workloads/*/*/kernel.ptx" ;;
fatbin | elf) seeds="tests/fatbin/*.fatbin" ;;
lz4) seeds="tests/fuzz/seeds/lz4/*" ;;
config) seeds="configs/*.cfg" ;;
gpgpusim) seeds="tests/fixtures/gpgpusim/*.config configs/gpgpusim/*.config" ;;
synth) seeds="workloads/synthetic/*.syn" ;;
spec) seeds="experiments/fup experiments/fup-small experiments/suite-small" ;;
manifest) seeds="workloads/manifest" ;;
json) seeds="tests/fuzz/seeds/json/*" ;;
trace) seeds="tests/fixtures/trace/*/*" ;;
*) echo "run.sh: unknown fuzz target '$target'" >&2; exit 2 ;;
esac
for f in $seeds; do
    [ -f "$f" ] && cp "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"
done
# -timeout: an input that takes longer is a hang; -rss_limit_mb: unbounded memory is a finding.
exec "$build/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$build/" -print_final_stats=1 "$corpus"
