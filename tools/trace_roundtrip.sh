#!/bin/sh
# trace_roundtrip.sh: write each suite workload's run (small size) as an Accel-Sim trace, run the
# trace, and compare the two runs' statistics, which must be identical (docs/traces.md).
# Usage: tools/trace_roundtrip.sh BUILD [WORKLOAD...]   (no workload: every one of warpsim list)
# Prints one line per workload and "N same, N different"; exit status 1 if any differs.
# TRACE_RT_DIR keeps the traces and stats there (default: a temporary folder, removed).
set -u
build=$1
shift
ws=$build/warpsim
[ -x "$ws" ] || { echo "trace_roundtrip.sh: no $ws (run make first)" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- $("$ws" list | awk 'NR > 1 { print $1 }')
fi
keep=${TRACE_RT_DIR:-}
dir=${keep:-$(mktemp -d)}
mkdir -p "$dir"
same=0 diff=0
# The run's wall time and name differ by nature; sim.faults is counted only for PTX runs.
filter() { grep -v -e '^workload ' -e '^wall_seconds ' -e '^sim.faults ' "$1"; }
for w in "$@"; do
    t=$dir/$w
    rm -rf "$t"
    if ! "$ws" run --quiet --preset gtx480 "$w" --size small --trace-out "$t" --stats "$t.ptx.txt" >"$t.log" 2>&1; then
        echo "$w: the PTX run failed (see $t.log)"
        diff=$((diff + 1))
        continue
    fi
    if ! "$ws" trace run --quiet --preset gtx480 "$t" --stats "$t.trace.txt" >>"$t.log" 2>&1; then
        echo "$w: the trace run failed: $(tail -1 "$t.log")"
        diff=$((diff + 1))
        continue
    fi
    filter "$t.ptx.txt" >"$t.a"
    filter "$t.trace.txt" >"$t.b"
    if cmp -s "$t.a" "$t.b"; then
        echo "$w: same stats ($(grep -c . "$t.a") lines, $(du -sk "$t" | cut -f1) KiB of trace)"
        same=$((same + 1))
    else
        echo "$w: DIFFERENT stats: $(diff "$t.a" "$t.b" | grep -c '^<') lines differ, first: $(diff "$t.a" "$t.b" | sed -n 2p)"
        diff=$((diff + 1))
    fi
    [ -n "$keep" ] || rm -rf "$t" "$t".*
done
[ -n "$keep" ] || rm -rf "$dir"
echo "$same same, $diff different"
[ "$diff" -eq 0 ]
