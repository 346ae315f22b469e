#!/bin/sh
# coverage.sh: how much of a public CUDA suite runs on warpsim. Builds each program of a list with
# nvcc 13 (-cudart shared), runs it under `warpsim exec` and writes a table of the outcomes. The
# suite's sources are not part of warpsim: give their folder in SUITE_DIR.
#
#   SUITE_DIR=/path/to/cuda-samples sh tools/coverage.sh [LIST] [OUT]
#
# LIST (default tools/coverage.list): one program a line, `name source [args...]`, where source
# is a .cu file, a folder (all its .cu and .cpp files are compiled together) or a comma-separated
# list of source files (their folders are include paths; the first one's is where it runs),
# relative to SUITE_DIR; '#'
# starts a comment (tools/coverage.list: cuda-samples; tools/coverage-polybench.list:
# PolyBench/GPU; tools/coverage-rodinia.list: Rodinia 3.1; tools/coverage-pannotia.list:
# Pannotia). Input files a suite does not ship:
# INPUTS names a command that writes them, run once as `$INPUTS "$WORK/inputs"` before the
# first program (e.g. INPUTS="python3 tools/rodinia_inputs.py"); in a line's arguments, @inputs
# stands for that folder's absolute path, and a first argument @cd=DIR (DIR may use @inputs)
# runs the program in DIR instead of its source's folder. A line that uses @inputs without
# INPUTS set is not built (its row says so). More leading arguments, in any order: @nvcc=FLAGS
# adds nvcc flags for this program (commas for spaces, @suite for SUITE_DIR; e.g.
# @nvcc=-lcuda,-lnvrtc), and @kernel=SRC:OUT builds SRC (a .cu beside the program's source) into
# OUT with nvcc -fatbin, -ptx or -cubin by OUT's extension, for programs that load their device
# code at run time, and @link=PATH links PATH (@cuda: the CUDA toolkit's folder, CUDA_HOME or
# nvcc's) into the program's folder, for headers an NVRTC program compiles with; such a program
# runs in a folder of its own holding them and links to its source folder's files;
# @expect-fault marks a program whose test is a kernel fault it handles (simpleAssert), and
# @exec=ARGS runs this program with these `warpsim exec` options instead of WARPSIM_EXEC_ARGS
# (commas for spaces; e.g. @exec=--functional,--quiet,--preset,a100 for a program that requires
# compute capability 8.0). OUT
# (default coverage.md): the table, one row a program: built or not, the exit status under
# warpsim, the run's wall-clock seconds, and the first line warpsim or the program said about a
# failure. A program runs to completion when it exits 0 and no kernel faulted (the status of its
# results, --json): a program may ignore its kernel's fault and exit 0, as it would on a GPU. Variables: NVCC (nvcc), NVCC_FLAGS (extra flags, e.g. -I"$SUITE_DIR/Common"
# is added when that folder exists), WARPSIM_EXEC_ARGS (default "--functional --quiet --preset
# qv100": the suites are written for GPUs of today, which the Volta preset is, and check the
# compute capability; "--preset qv100 --quiet" for the timing model), TIMEOUT (seconds a run may
# take, default 600), WORK (build folder, default a temporary one, removed at the end).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$here/tools/coverage.list}
out=${2:-coverage.md}
: "${SUITE_DIR:?set SUITE_DIR to the suite's source folder}"
[ -d "$SUITE_DIR" ] || { echo "coverage.sh: SUITE_DIR $SUITE_DIR is not a folder" >&2; exit 1; }
[ -r "$list" ] || { echo "coverage.sh: cannot read the list $list" >&2; exit 1; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cuda_home=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}
args=${WARPSIM_EXEC_ARGS:---functional --quiet --preset qv100}
timeout=${TIMEOUT:-600}
warpsim=$here/build/warpsim
[ -x "$warpsim" ] || { echo "coverage.sh: build warpsim first (make)" >&2; exit 1; }
# Functions and a device property CUDA 13 removed, mapped to the replacements CUDA documented,
# so that older suites (PolyBench/GPU, Rodinia) build unmodified; a program that does not use
# them is not affected.
compat="-DcudaThreadSynchronize=cudaDeviceSynchronize -DcudaThreadExit=cudaDeviceReset"
compat="$compat -DdeviceOverlap=asyncEngineCount"
flags="$compat ${NVCC_FLAGS:-}"
# Fields of cudaDeviceProp CUDA 13 removed, read instead by cudaDeviceGetAttribute as CUDA's
# notes say: a source that names one (`prop.clockRate`, `p->memoryClockRate`, ...) is built
# from a copy in the build folder where each such read calls the attribute of the current
# device (a program reading another device's properties would see the current one's; none of
# the listed programs does), with `#line` so that messages still cite the original file.
removed_fields="clockRate:ClockRate memoryClockRate:MemoryClockRate computeMode:ComputeMode"
removed_fields="$removed_fields kernelExecTimeoutEnabled:KernelExecTimeout"
removed_names="" removed_script=""
for f in $removed_fields; do
    removed_names="$removed_names|${f%%:*}"
    removed_script="$removed_script;s/[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?[[:space:]]*(\.|->)[[:space:]]*${f%%:*}\b/coverage_attribute(cudaDevAttr${f#*:})/g"
done
compat_copy() { # SOURCE COPY: 0 when SOURCE names a removed field and COPY was written
    grep -qE "(\.|->)[[:space:]]*(${removed_names#|})\b" "$1" || return 1
    {
        echo '#include <cuda_runtime.h>'
        echo 'static int coverage_attribute(cudaDeviceAttr a)'
        echo '{ int d = 0, v = 0; cudaGetDevice(&d); cudaDeviceGetAttribute(&v, a, d); return v; }'
        echo "#line 1 \"$1\""
        sed -E "${removed_script#;}" "$1"
    } > "$2"
}
linebuf=$(command -v stdbuf >/dev/null 2>&1 && echo "stdbuf -oL")
[ -d "$SUITE_DIR/Common" ] && flags="$flags -I$SUITE_DIR/Common"
keep_work=1
if [ -z "${WORK:-}" ]; then
    WORK=$(mktemp -d)
    keep_work=0
fi
mkdir -p "$WORK"
inputs=""
if [ -n "${INPUTS:-}" ]; then
    WORK=$(cd "$WORK" && pwd)
    inputs=$WORK/inputs
    mkdir -p "$inputs"
    # shellcheck disable=SC2086
    $INPUTS "$inputs" || { echo "coverage.sh: the input generator failed: $INPUTS" >&2; exit 1; }
fi

total=0 built=0 passed=0
rows=$WORK/rows
: > "$rows"
while read -r name src rest; do
    case $name in '' | '#'*) continue ;; esac
    total=$((total + 1))
    rundir=""
    case " $rest " in
    *@inputs*)
        if [ -z "$inputs" ]; then
            printf '| %s | no | | | needs generated inputs (@inputs): set INPUTS |\n' "$name" >> "$rows"
            continue
        fi
        rest=$(printf '%s\n' "$rest" | sed "s|@inputs|$inputs|g") ;;
    esac
    # leading directives: @cd=DIR, @nvcc=FLAGS, @kernel=SRC:OUT, @link=PATH, @expect-fault,
    # @exec=ARGS (any order, each once or more)
    line_flags="" kernels="" links="" expect_fault=0 line_args=$args
    while :; do
        word=${rest%% *}
        case $word in
        @cd=*) rundir=${word#@cd=} ;;
        @nvcc=*) line_flags="$line_flags $(printf '%s' "${word#@nvcc=}" | tr ',' ' ' | sed "s|@suite|$SUITE_DIR|g")" ;;
        @kernel=*) kernels="$kernels ${word#@kernel=}" ;;
        @link=*) links="$links $(printf '%s' "${word#@link=}" | sed "s|@cuda|$cuda_home|g")" ;;
        @expect-fault) expect_fault=1 ;;
        @exec=*) line_args=$(printf '%s' "${word#@exec=}" | tr ',' ' ') ;;
        *) break ;;
        esac
        case $rest in *' '*) rest=${rest#* } ;; *) rest="" ;; esac
    done
    path=$SUITE_DIR/$src
    if [ -d "$path" ]; then
        files=$(ls "$path"/*.cu "$path"/*.cpp 2>/dev/null)
        inc="-I$path"
    elif [ "${src#*,}" != "$src" ]; then
        files=$(echo "$src" | tr ',' '\n' | sed "s|^|$SUITE_DIR/|")
        path=$(echo "$files" | head -n 1)
        inc=$(for f in $files; do echo "-I$(dirname "$f")"; done | sort -u | tr '\n' ' ')
        for f in $files; do [ -f "$f" ] || files=""; done
    else
        files=$path
        inc="-I$(dirname "$path")"
    fi
    bin=$WORK/$name
    if [ -n "$files" ]; then
        copies=""
        for f in $files; do
            c=$WORK/$name.compat.$(basename "$f")
            if compat_copy "$f" "$c"; then copies="$copies $c"; else copies="$copies $f"; fi
        done
        files=$copies
    fi
    log=$WORK/$name.log
    : > "$log.build"
    srcdir=$(dirname "$path")
    [ ! -d "$path" ] || srcdir=$path
    # @kernel: device code the program loads at run time, built as its own build does, into a
    # run folder of its own that mirrors the source folder (data/ and the rest, by links)
    kbuild=0
    if [ -n "$kernels$links" ]; then
        rundir=$WORK/$name.run
        rm -rf "$rundir" && mkdir -p "$rundir"
        for f in "$srcdir"/*; do ln -s "$f" "$rundir/"; done
        for f in $links; do ln -sfn "$f" "$rundir/"; done
        for k in $kernels; do
            kout=$rundir/${k#*:}
            case $kout in
            *.fatbin) kind=-fatbin ;; *.ptx) kind=-ptx ;; *.cubin) kind=-cubin ;;
            *) kind="" ;;
            esac
            rm -f "$kout"
            if [ -z "$kind" ]; then
                echo "coverage.sh: error: @kernel=$k: the output must end in .fatbin, .ptx or .cubin" >> "$log.build"
                kbuild=1
            elif ! "$NVCC" $kind $flags $inc -o "$kout" "$srcdir/${k%%:*}" >> "$log.build" 2>&1; then
                kbuild=1
            fi
        done
    fi
    if [ -z "$files" ] || [ $kbuild -ne 0 ] ||
        ! "$NVCC" -cudart shared -O2 $flags $line_flags $inc -o "$bin" $files >> "$log.build" 2>&1; then
        why=$(grep -m1 -i "error" "$log.build" 2>/dev/null || echo "no .cu source at $src")
        printf '| %s | no | | | %s |\n' "$name" "$(echo "$why" | tr '|' '/' | cut -c1-160)" >> "$rows"
        continue
    fi
    built=$((built + 1))
    # shellcheck disable=SC2086
    # run in the program's own folder, where the samples look for their data/ files (or in
    # @cd's); stdout line-buffered where stdbuf exists, so that a run that times out keeps what
    # it printed
    start=$(date +%s)
    json=$WORK/$name.json
    rm -f "$json"
    (cd "$srcdir" && { [ -z "$rundir" ] || cd "$rundir"; } &&
        $linebuf timeout "$timeout" "$warpsim" exec $line_args --json "$json" "$bin" $rest) > "$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    # the run's status: a kernel that faulted, even in a program that went on to exit 0
    fault=$(grep -m1 -o '"status": *"fault: [^"]*' "$json" 2>/dev/null | sed 's/^"status": *"//')
    if [ $rc -eq 0 ] && [ -n "$fault" ] && [ $expect_fault -eq 0 ]; then
        why="a kernel faulted, and the program exited 0: $fault"
    elif [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        why=""
        [ -z "$fault" ] || why="(its kernel's fault, expected: $fault)"
    elif [ $rc -eq 124 ]; then
        why="timed out after ${timeout} s"
    else
        # warpsim's message, the program's error, or its reason for waiving itself
        why=$(grep -m1 -E "^warpsim: |error|Error|FAIL|fail|requires|[Ww]aiv" "$log" || tail -n 1 "$log")
    fi
    printf '| %s | yes | %s | %s | %s |\n' "$name" "$rc" "$secs" "$(echo "$why" | tr '|' '/' | cut -c1-160)" >> "$rows"
done < "$list"

{
    echo "# warpsim coverage: $(basename "$list")"
    echo
    echo "warpsim exec $args (a line's @exec: its own); $passed of $total programs run to completion: exit 0, no kernel fault ($built built)."
    echo
    echo "| program | built | exit | seconds | first failure message |"
    echo "| --- | --- | --- | ---: | --- |"
    cat "$rows"
} > "$out"
echo "coverage.sh: $passed of $total programs run to completion ($built built): $out"
[ $keep_work -eq 1 ] || rm -rf "$WORK"
