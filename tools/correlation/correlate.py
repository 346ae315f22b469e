#!/usr/bin/env python3
"""correlate.py: warpsim against GPGPU-Sim on the suite's correlation set (docs/correlation.md).

Runs every workload of tools/correlation/set on warpsim with GPGPU-Sim's GTX480 machine
(--gpgpusim-config configs/gpgpusim/gtx480.config) and writes a markdown table of warpsim's and
GPGPU-Sim's cycles, IPC, L1D and L2 miss rates and DRAM traffic, the ratio per workload, the mean
absolute cycle error and the largest ratio.

The GPGPU-Sim column is measured live when GPGPUSIM_ROOT names a built GPGPU-Sim (its source
tree, with lib/*/*/release/libcudart.so, or set GPGPUSIM_LIB to that library's folder), otherwise
it is read from tools/correlation/gpgpusim-gtx480.tsv, the stored reference. Live runs build
each workload's host program for GPGPU-Sim's libcudart through tools/correlation/rtdrv.c (the
same host.c, wl.c and checked-in PTX as on warpsim) and need ptxas ($CUDA_HOME/bin, default
/usr/local/cuda; GPGPU-Sim reads register counts from it) and a C compiler ($CC, default cc).

    tools/correlation/correlate.py [--only a,b] [--jobs N] [--reference] [--write-reference]
                                   [--gpgpusim-opt '-option value']... [--timeout S]
                                   [--dir DIR] [--out FILE]

Results go to $BUILD/correlation/ (BUILD as the Makefile's, default build; or --dir):
warpsim/<name>.json, gpgpusim/<name>/ (program, run folder and log), gpgpusim.tsv (the live
measurements) and table.md (also printed). Exit status 1 if a run failed or did not print its
PASS line. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "tools", "correlation")
SET_FILE = os.path.join(HERE, "set")
REF_FILE = os.path.join(HERE, "gpgpusim-gtx480.tsv")
WARPSIM_CONFIG = os.path.join("configs", "gpgpusim", "gtx480.config")
BUILD = os.environ.get("BUILD", "build")  # warpsim's build folder, as the Makefile's BUILD
GPGPUSIM_CONFIG_DIR = os.path.join("configs", "tested-cfgs", "SM2_GTX480")
# Appended to the copy of GPGPU-Sim's file: a build without the power model has no power options
# to turn on, and the power model does not change the performance numbers.
GPGPUSIM_CONFIG_EXTRA = "\n# correlate.py: no power model\n-power_simulation_enabled 0\n"

# Columns of the reference file, in order.
COLUMNS = ["workload", "args", "cycles", "thread_insts", "ipc", "l1d_access", "l1d_miss",
           "l2_access", "l2_miss", "l2_read_access", "l2_read_miss", "dram_read", "dram_write",
           "wall_s"]


def die(msg):
    sys.stderr.write("correlate: %s\n" % msg)
    sys.exit(1)


def read_manifest():
    """name -> (suite, small args) from workloads/manifest."""
    entries = {}
    with open(os.path.join(ROOT, "workloads", "manifest")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split("|")]
            head = fields[0].split()
            entries[head[0]] = (head[1], fields[1] if len(fields) > 1 else "")
    return entries


def read_set():
    """[(name, args)] from tools/correlation/set: NAME then key=value arguments."""
    out = []
    with open(SET_FILE) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                out.append((line[0], " ".join(line[1:])))
    return out


def full_args(manifest, name, args):
    """The program's arguments: the manifest's small size, then the set's (later keys win)."""
    return manifest[name][1].split() + args.split()


# ---- warpsim -------------------------------------------------------------------------------

def run_warpsim(out_dir, manifest, name, args):
    path = os.path.join(out_dir, "warpsim", name + ".json")
    cmd = [os.path.join(ROOT, BUILD, "warpsim"), "run", name, "--gpgpusim-config", WARPSIM_CONFIG,
           "--quiet", "--json", path, "--"] + args.split()
    t0 = time.time()
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    wall = time.time() - t0
    if p.returncode != 0 or "%s: PASS" % name not in p.stdout:
        sys.stderr.write(p.stdout)
        sys.stderr.write("correlate: warpsim run of %s failed (exit status %d)\n" % (name, p.returncode))
        return None
    with open(path) as f:
        total = json.load(f)["total"]

    def stat(key):
        # A stat the model no longer registers shows as missing rather than stopping the report.
        return total.get(key)

    def add(*keys):
        vals = [stat(k) for k in keys]
        return None if any(v is None for v in vals) else sum(vals)

    return {
        "cycles": stat("sim.cycles"),
        "thread_insts": stat("sim.thread_insts"),
        "ipc": stat("sim.ipc"),
        # L1D: global and local loads (accepted accesses: hits, misses and merges), as below
        "l1d_access": stat("sm.l1d.access"),
        "l1d_miss": stat("sm.l1d.miss"),
        # L2: reads and atomics (l2.access), plus writes (l2.write) for the total
        "l2_access": add("l2.access", "l2.write"),
        "l2_miss": stat("l2.miss"),
        "l2_read_access": stat("l2.access"),
        "l2_read_miss": stat("l2.miss"),
        "dram_read": stat("dram.reads"),
        "dram_write": stat("dram.writes"),
        "wall_s": wall,
    }


# ---- GPGPU-Sim -----------------------------------------------------------------------------

def find_gpgpusim():
    """(source root, folder of libcudart.so) of a built GPGPU-Sim, or None."""
    root = os.environ.get("GPGPUSIM_ROOT")
    if not root:
        return None
    lib = os.environ.get("GPGPUSIM_LIB")
    if not lib:
        libdir = os.path.join(root, "lib")
        found = []
        for dirpath, _, files in os.walk(libdir):
            if "libcudart.so" in files and os.path.basename(dirpath) == "release":
                found.append(dirpath)
        if not found:
            die("GPGPUSIM_ROOT=%s: no lib/*/*/release/libcudart.so (build GPGPU-Sim, or set "
                "GPGPUSIM_LIB)" % root)
        lib = sorted(found)[-1]
    if not os.path.exists(os.path.join(lib, "libcudart.so")):
        die("%s: no libcudart.so" % lib)
    if not os.path.exists(os.path.join(root, GPGPUSIM_CONFIG_DIR, "gpgpusim.config")):
        die("GPGPUSIM_ROOT=%s: no %s/gpgpusim.config" % (root, GPGPUSIM_CONFIG_DIR))
    return root, lib


def prepare_gpgpusim(out_dir, lib):
    """The folders a live GPGPU-Sim run needs, under build/correlation/gpgpusim/:
    stub/   libcudart.so.13 built from cudart_stub.c, which programs are linked against;
    lib/    libcudart.so.13 -> GPGPU-Sim's libcudart.so, put first on LD_LIBRARY_PATH (GPGPU-Sim
            checks with ldd that a program runs libcudart.so.<its CUDA major>);
    cuda/   GPGPU-Sim's $CUDA_INSTALL_PATH at run time: bin/cuobjdump (ours) and bin/ptxas."""
    base = os.path.join(out_dir, "gpgpusim")
    stub, libdir, cuda = (os.path.join(base, d) for d in ("stub", "lib", os.path.join("cuda", "bin")))
    for d in (stub, libdir, cuda):
        os.makedirs(d, exist_ok=True)
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    if not os.path.exists(ptxas):
        die("no ptxas at %s (set CUDA_HOME)" % ptxas)
    links = {os.path.join(libdir, "libcudart.so.13"): os.path.join(lib, "libcudart.so"),
             os.path.join(cuda, "cuobjdump"): os.path.join(HERE, "cuobjdump"),
             os.path.join(cuda, "ptxas"): ptxas}
    for link, target in links.items():
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.abspath(target), link)
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-shared", "-fPIC", "-Wl,-soname,libcudart.so.13", "-o",
                    os.path.join(stub, "libcudart.so.13"), os.path.join(HERE, "cudart_stub.c")],
                   check=True)
    return {"stub": stub, "lib": libdir, "cuda": os.path.dirname(cuda)}


def build_gpgpusim_program(out_dir, gs, manifest, name):
    suite = manifest[name][0]
    src = os.path.join("workloads", suite, name)
    d = os.path.join(out_dir, "gpgpusim", name)
    os.makedirs(d, exist_ok=True)
    ptx_c = os.path.join(d, "ptx.c")
    with open(ptx_c, "w") as f:
        subprocess.run(["sh", "workloads/common/embed.sh", os.path.join(src, "kernel.ptx"),
                        os.path.join(src, "kernel.ptxinfo")], cwd=ROOT, stdout=f, check=True)
    prog = os.path.join(d, "host")
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-O2", "-Iinclude/cuda",
                    "-Iworkloads/common", "-o", prog, os.path.join(src, "host.c"), ptx_c,
                    "workloads/common/wl.c", "tools/correlation/rtdrv.c", "-L" + gs["stub"],
                    "-l:libcudart.so.13", "-lm"], cwd=ROOT, check=True)
    return prog


def last_int(text, pattern):
    m = re.findall(pattern, text, re.M)
    return int(m[-1]) if m else None


def parse_gpgpusim(log):
    """The run's totals from GPGPU-Sim's output (printed after each kernel, cumulative)."""
    r = {
        "cycles": last_int(log, r"^gpu_tot_sim_cycle = (\d+)"),
        "thread_insts": last_int(log, r"^gpu_tot_sim_insn = (\d+)"),
        "l2_access": last_int(log, r"^L2_total_cache_accesses = (\d+)"),
        "l2_miss": last_int(log, r"^L2_total_cache_misses = (\d+)"),
    }
    # DRAM: each channel's line after its "DRAM[i]:" header, printed after every kernel with
    # the counts since the start; the last line of each channel is the run's. Reads and writes
    # are column commands (one per 32-byte sector request), writes including L2 write-backs.
    chans = {}
    for ch, line in re.findall(r"^DRAM\[(\d+)\]:[^\n]*\n(n_cmd=[^\n]*)", log, re.M):
        chans[ch] = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", line))
    if chans:
        r["dram_read"] = sum(c.get("n_rd", 0) + c.get("n_rd_L2_A", 0) for c in chans.values())
        r["dram_write"] = sum(c.get("n_write", 0) + c.get("n_wr_bk", 0) for c in chans.values())
    if r["cycles"] and r["thread_insts"] is not None:
        r["ipc"] = r["thread_insts"] / r["cycles"]
    # Loads only, like warpsim's counters: global and local reads that were accepted (hit,
    # hit on a line being filled, miss, sector miss); misses are misses and sector misses.
    # The breakdowns are cumulative too, so the last block is the run's.
    def breakdown(prefix, kinds, outcomes):
        total = 0
        for k in kinds:
            for o in outcomes:
                v = last_int(log, r"%s\[%s\]\[%s\] = (\d+)" % (re.escape(prefix), k, o))
                total += v or 0
        return total
    loads = ("GLOBAL_ACC_R", "LOCAL_ACC_R")
    accepted = ("HIT", "HIT_RESERVED", "MISS", "SECTOR_MISS")
    missed = ("MISS", "SECTOR_MISS")
    r["l1d_access"] = breakdown("Total_core_cache_stats_breakdown", loads, accepted)
    r["l1d_miss"] = breakdown("Total_core_cache_stats_breakdown", loads, missed)
    r["l2_read_access"] = breakdown("L2_cache_stats_breakdown", loads, accepted)
    r["l2_read_miss"] = breakdown("L2_cache_stats_breakdown", loads, missed)
    return r


def run_gpgpusim(out_dir, gs, manifest, name, args, timeout):
    root, _ = gs["found"]
    prog = build_gpgpusim_program(out_dir, gs, manifest, name)
    run = os.path.join(out_dir, "gpgpusim", name, "run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run)
    cfg_dir = os.path.join(root, GPGPUSIM_CONFIG_DIR)
    for f in os.listdir(cfg_dir):
        if not f.endswith(".xml"):
            shutil.copy(os.path.join(cfg_dir, f), run)
    with open(os.path.join(run, "gpgpusim.config"), "a") as f:
        f.write(GPGPUSIM_CONFIG_EXTRA)
        for opt in gs["extra"]:
            f.write(opt + "\n")
    env = dict(os.environ)
    env["CUDA_INSTALL_PATH"] = os.path.abspath(gs["cuda"])
    env["LD_LIBRARY_PATH"] = os.path.abspath(gs["lib"])
    # What GPGPU-Sim's setup_environment exports for CUDA 6 and later: the PTX comes from
    # cuobjdump's per-file extraction (without CUOBJDUMP_SIM_FILE it looks for sections the
    # CUDA 6+ extraction never makes, and stops).
    env.update(CUOBJDUMP_SIM_FILE="jj", PTX_SIM_USE_PTX_FILE="1.ptx", PTX_SIM_KERNELFILE="_1.ptx")
    env["RTDRV_PTX"] = os.path.join(os.path.abspath(run), "kernel.ptx")
    log_path = os.path.join(out_dir, "gpgpusim", name, "gpgpusim.log")
    t0 = time.time()
    with open(log_path, "w") as log:
        try:
            # Line-buffered, so that the log shows GPGPU-Sim's progress lines as they come.
            line = ["stdbuf", "-oL"] if shutil.which("stdbuf") else []
            p = subprocess.run(line + [os.path.abspath(prog)] + full_args(manifest, name, args), cwd=run,
                               env=env, stdout=log, stderr=subprocess.STDOUT, timeout=timeout)
            status = p.returncode
        except subprocess.TimeoutExpired:
            status = "timeout after %d s" % timeout
    wall = time.time() - t0
    with open(log_path, errors="replace") as f:
        text = f.read()
    if status != 0 or "%s: PASS" % name not in text:
        sys.stderr.write("correlate: GPGPU-Sim run of %s failed (%s); see %s\n" % (name, status, log_path))
        return None
    r = parse_gpgpusim(text)
    r["wall_s"] = wall
    return r


# ---- the reference file and the table ------------------------------------------------------

def read_reference():
    ref = {}
    with open(REF_FILE) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            vals = line.rstrip("\n").split("\t")
            if vals[0] == "workload":
                continue
            row = dict(zip(COLUMNS, vals))
            for k in COLUMNS[2:]:
                row[k] = float(row[k]) if row.get(k) not in (None, "", "-") else None
            ref[row["workload"]] = row
    return ref


def write_tsv(path, rows, header):
    with open(path + ".tmp", "w") as f:
        f.write(header)
        f.write("\t".join(COLUMNS) + "\n")
        for row in rows:
            vals = []
            for k in COLUMNS:
                v = row.get(k)
                if v is None:
                    vals.append("-")
                elif k == "ipc":
                    vals.append("%.4f" % v)
                elif k == "wall_s":
                    vals.append("%.0f" % v)
                elif isinstance(v, float):
                    vals.append(str(int(v)))  # a counter read back from the file
                else:
                    vals.append(str(v))
            f.write("\t".join(vals) + "\n")
    os.replace(path + ".tmp", path)


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(v, digits=0):
    if v is None:
        return "-"
    if digits:
        return "%.*f" % (digits, v)
    return "{:,}".format(int(round(v)))


def table(rows, source):
    out = ["| workload | args | cycles warpsim | cycles GPGPU-Sim | ratio | IPC warpsim | IPC GPGPU-Sim "
           "| L1D miss rate warpsim | L1D miss rate GPGPU-Sim | L2 read miss rate warpsim "
           "| L2 read miss rate GPGPU-Sim | DRAM rd+wr warpsim | DRAM rd+wr GPGPU-Sim |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    errors, ratios = [], []
    for name, args, w, g in rows:
        w = w or {}  # a failed run: its columns stay empty
        r = ratio(w.get("cycles"), g.get("cycles")) if g else None
        if r is not None:
            errors.append(abs(r - 1))
            ratios.append((r, name))
        g = g or {}

        def dram(x):
            return None if x.get("dram_read") is None or x.get("dram_write") is None \
                else x["dram_read"] + x["dram_write"]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, args or "(small)", fmt(w.get("cycles")), fmt(g.get("cycles")), fmt(r, 2),
            fmt(w.get("ipc"), 1), fmt(g.get("ipc"), 1),
            fmt(ratio(w.get("l1d_miss"), w.get("l1d_access")), 3),
            fmt(ratio(g.get("l1d_miss"), g.get("l1d_access")), 3),
            fmt(ratio(w.get("l2_read_miss"), w.get("l2_read_access")), 3),
            fmt(ratio(g.get("l2_read_miss"), g.get("l2_read_access")), 3),
            fmt(dram(w)), fmt(dram(g))))
    out.append("")
    # Both run the same PTX with the same arguments, so their thread instruction counts should
    # agree; a difference means the two columns did not run the same program.
    diffs = [(abs(w["thread_insts"] - g["thread_insts"]) / g["thread_insts"], name)
             for name, _, w, g in rows
             if w and g and w.get("thread_insts") is not None and g.get("thread_insts")]
    if diffs:
        same = sum(1 for d, _ in diffs if d == 0)
        worst = max(diffs)
        out.append("Thread instructions: the same in %d of %d workloads%s." % (
            same, len(diffs), "" if worst[0] == 0 else
            "; largest difference %.2f%% (%s)" % (100 * worst[0], worst[1])))
    if errors:
        worst = max(ratios, key=lambda x: max(x[0], 1 / x[0]))
        out.append("Mean absolute cycle error (mean of |warpsim - GPGPU-Sim| / GPGPU-Sim) over %d "
                   "workloads: %.1f%%. Largest ratio: %.2fx (%s)." % (
                       len(errors), 100 * sum(errors) / len(errors), worst[0], worst[1]))
    else:
        out.append("No GPGPU-Sim numbers to compare with.")
    out.append("GPGPU-Sim column: %s." % source)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated workloads of the set")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    ap.add_argument("--reference", action="store_true",
                    help="use the stored GPGPU-Sim reference even when GPGPUSIM_ROOT is set")
    ap.add_argument("--write-reference", action="store_true",
                    help="after live GPGPU-Sim runs, store them as the reference")
    ap.add_argument("--gpgpusim-opt", action="append", default=[], metavar="'-OPTION VALUE'",
                    help="an option line appended to GPGPU-Sim's configuration (repeatable); "
                         "for experiments, so not with --write-reference")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per GPGPU-Sim run")
    ap.add_argument("--dir", help="the results folder (default BUILD/correlation)")
    ap.add_argument("--out", help="the table's file (default DIR/table.md)")
    a = ap.parse_args()

    os.chdir(ROOT)
    out_dir = a.dir or os.path.join(BUILD, "correlation")
    os.makedirs(os.path.join(out_dir, "warpsim"), exist_ok=True)
    manifest = read_manifest()
    wl_set = read_set()
    for name, _ in wl_set:
        if name not in manifest:
            die("%s: '%s' is not in workloads/manifest" % (SET_FILE, name))
    if a.only:
        keep = a.only.split(",")
        for k in keep:
            if k not in dict(wl_set):
                die("--only: '%s' is not in %s" % (k, SET_FILE))
        wl_set = [x for x in wl_set if x[0] in keep]

    found = None if a.reference else find_gpgpusim()
    if a.write_reference and not found:
        die("--write-reference needs GPGPUSIM_ROOT (a built GPGPU-Sim)")
    if a.write_reference and a.gpgpusim_opt:
        die("--write-reference: the reference is GPGPU-Sim's own configuration (no --gpgpusim-opt)")
    if subprocess.run(["make", "-s", "BUILD=" + BUILD, "all"], cwd=ROOT).returncode != 0:
        die("make failed")

    gs = None
    if found:
        gs = prepare_gpgpusim(out_dir, found[1])
        gs["found"] = found
        gs["extra"] = a.gpgpusim_opt
        source = "measured now (GPGPU-Sim at %s%s)" % (
            found[0], "".join(", " + o for o in a.gpgpusim_opt))
    else:
        source = "the stored reference, tools/correlation/gpgpusim-gtx480.tsv"
    ref = {} if gs else read_reference()

    lock = threading.Lock()
    measured = {}
    header = ("# GPGPU-Sim on its SM2_GTX480 configuration (power model off), measured by "
              "tools/correlation/correlate.py\n")
    failed = []

    def save(name, args, g):
        """Keep a live GPGPU-Sim measurement at once (a long set may be stopped half-way)."""
        with lock:
            g = dict(g, workload=name, args=args)
            measured[name] = g
            order = [n for n, _ in wl_set]
            write_tsv(os.path.join(out_dir, "gpgpusim.tsv"),
                      [measured[n] for n in order if n in measured], header)
            if a.write_reference:
                with open(REF_FILE) as f:
                    keep = "".join(l for l in f if l.startswith("#"))
                old = read_reference()
                old[name] = g
                order = [n for n, _ in read_set()]
                write_tsv(REF_FILE, [old[n] for n in order if n in old], keep)

    def one(item):
        name, args = item
        w = run_warpsim(out_dir, manifest, name, args)
        if gs:
            g = run_gpgpusim(out_dir, gs, manifest, name, args, a.timeout)
            if g:
                save(name, args, g)
        else:
            g = ref.get(name)
            if g and g["args"] != args:
                sys.stderr.write("correlate: %s: the reference was measured with '%s', the set "
                                 "now says '%s'; its GPGPU-Sim column is left out\n" %
                                 (name, g["args"], args))
                g = None
        if w is None or (gs and g is None):
            failed.append(name)
        sys.stderr.write("correlate: %s done\n" % name)
        return name, args, w, g

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        rows = list(ex.map(one, wl_set))

    md = table(rows, source)
    out = a.out or os.path.join(out_dir, "table.md")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write(md)
    sys.stdout.write(md)
    if failed:
        die("failed: %s" % " ".join(failed))


if __name__ == "__main__":
    main()
