#!/usr/bin/env python3
"""rodinia_inputs.py OUTDIR [PROGRAM...]: input files for the Rodinia 3.1 CUDA programs that read
files of Rodinia's separate data download, which is not part of its source repository.

The files are our own, generated from a fixed seed (the same bytes on every run), in the formats
the programs' reading code expects; their values are random but plausible, not Rodinia's data.
Each program's files go to OUTDIR/PROGRAM/, named as in the data download where the size is the
same. tools/coverage.sh runs this once as `$INPUTS "$WORK/inputs"` and tools/coverage-rodinia.list
names the files as @inputs/PROGRAM/FILE. PROGRAM names (default: all) pick some of them:

  bfs        graph65536.txt (the `run` script's input) and graph1MW_6.txt (1,000,000 nodes): a
             node count, a line "first-edge edge-count" a node, the source node, an edge count,
             a line "node cost" an edge; connected (a random spanning tree plus random edges,
             each edge listed in both directions), about 6 edges a node.
  b+tree     mil.txt: a count, then 1,000,000 keys (a permutation of 0..999999) a line;
             command.txt: the `j` (range) and `k` (key) queries the program runs on the GPU
             (its parser takes j's first number for both its count and its range size).
  cfd        fvcorr.domn.16416: an element count, then per element its volume and, for each of
             its 4 faces, the neighbour (1-based; 0 a wall, -1 the far field) and the face's
             outward area vector; a tetrahedral mesh around a cube. The data set of the `run`
             script has 97,046 elements; this one has 6 x (14^3 - 2^3) = 16,416, as the program
             runs 2000 iterations of 7 launches over every element (5 to 7 s interpreted per
             1,000 elements: 97 K would take about 10 minutes).
  dwt2d      dwt2d/data/dwt2d/192.bmp: a 192 x 192 24-bit BMP. The program prepends
             ../../data/dwt2d/ to its argument, so it must run in dwt2d/cuda/dwt2d (created
             empty here), where that path names the file.
  hotspot    temp_512, power_512: 512 x 512 values, one a line, row by row: temperatures
             between 300 and 350 K and the power of each cell (W), from rectangular blocks of
             different power density.
  hotspot3D  temp_512x8, power_512x8: 512 x 512 x 8 values, one a line, the layer index
             fastest (the program reads them so).
  huffman    test1024.in: 1 MiB, 1024 blocks of 256 4-byte words (the program encodes a word a
             thread; the 1024 of the `run` script's test1024_H2.206587175259.in), of bytes with
             about 2.2 bits of entropy a byte (that name's H2.2).
  kmeans     kdd_cup: 494,020 lines of an id and 34 features, space-separated. (The program
             does not build with CUDA 12 and later: it uses texture references.)
  nn         cane4_0.db .. cane4_3.db: 42,760 hurricane records of 48 characters (latitude at
             column 28, longitude at 33); filelist_4 lists them by absolute path (the program
             reads at most 63 characters of each).

Not generated: heartwall and leukocyte read AVI video (uncompressed frames in a RIFF file with
its index, a format of its own to write); leukocyte and mummergpu do not build with CUDA 12 and
later either (texture references).
"""
import math
import os
import struct
import sys

import inputs_lib

SEED = 20260101


def rng(name):
    return inputs_lib.rng(SEED, name)


write_lines = inputs_lib.write_lines


# ---------------------------------------------------------------------------------------- bfs
def bfs_graph(path, nodes, extra_per_node):
    r = rng("bfs:" + os.path.basename(path))
    # undirected edges: node i > 0 to a random earlier node (connected), plus random pairs
    src, dst = [], []
    for i in range(1, nodes):
        src.append(i)
        dst.append(r.randrange(i))
    for _ in range(extra_per_node * nodes):
        a, b = r.randrange(nodes), r.randrange(nodes)
        if a != b:
            src.append(a)
            dst.append(b)
    deg = [0] * nodes
    for a, b in zip(src, dst):
        deg[a] += 1
        deg[b] += 1
    start = [0] * nodes
    total = 0
    for i in range(nodes):
        start[i] = total
        total += deg[i]
    fill = start[:]
    adj = [0] * total
    for a, b in zip(src, dst):
        adj[fill[a]] = b
        fill[a] += 1
        adj[fill[b]] = a
        fill[b] += 1
    del src, dst, fill

    def lines():
        yield str(nodes)
        for i in range(nodes):
            yield "%d %d" % (start[i], deg[i])
        yield ""
        yield "0"  # the source node
        yield ""
        yield str(total)
        rr = r.randrange
        for e in adj:
            yield "%d %d" % (e, 1 + rr(10))

    write_lines(path, lines())


def gen_bfs(out):
    bfs_graph(os.path.join(out, "graph65536.txt"), 65536, 2)
    bfs_graph(os.path.join(out, "graph1MW_6.txt"), 1000000, 2)


# ------------------------------------------------------------------------------------- b+tree
def gen_btree(out):
    r = rng("b+tree")
    n = 1000000
    keys = list(range(n))
    r.shuffle(keys)
    write_lines(os.path.join(out, "mil.txt"), [str(n)] + [str(k) for k in keys])
    # `j COUNT RSIZE`: COUNT range queries of RSIZE keys; `k COUNT`: COUNT key look-ups
    # (at most 65,535, one block each)
    with open(os.path.join(out, "command.txt"), "w") as f:
        f.write("j 6000 3000\nk 10000\n")


# ---------------------------------------------------------------------------------------- cfd
def gen_cfd(out, grow=6, ratio=1.6, side=0.01):
    # A box around a cube-shaped body of 2 x 2 x 2 cells (its faces walls), surrounded on every
    # side by `grow` layers of cells that widen by `ratio` each (a mesh graded away from the
    # body; the far field, the box's sides, lies some 20 body sizes away, far enough for the
    # bow shock of the program's Mach 1.2 flow), each cell split into the 6 tetrahedra along
    # its main diagonal (a conforming mesh). The areas the program reads are the volumes.
    widths = [ratio ** g for g in range(grow, 0, -1)] + [1.0, 1.0] + \
        [ratio ** g for g in range(1, grow + 1)]
    n = len(widths)
    edges = [0.0]
    for w in widths:
        edges.append(edges[-1] + w)
    scale = side / edges[-1]
    edges = [e * scale for e in edges]
    body = (grow, grow + 2)

    def solid(i, j, k):
        return all(body[0] <= c < body[1] for c in (i, j, k))

    def vid(i, j, k):
        return (i * (n + 1) + j) * (n + 1) + k

    def coord(v):
        k = v % (n + 1)
        j = (v // (n + 1)) % (n + 1)
        i = v // ((n + 1) * (n + 1))
        return (edges[i], edges[j], edges[k])

    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    tets = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if solid(i, j, k):
                    continue
                for p in perms:
                    c = [i, j, k]
                    verts = [vid(*c)]
                    for axis in p:
                        c[axis] += 1
                        verts.append(vid(*c))
                    tets.append(verts)
    faces = {}
    for t, verts in enumerate(tets):
        for f in range(4):
            key = tuple(sorted(verts[:f] + verts[f + 1:]))
            faces.setdefault(key, []).append(t)

    def sub(a, b):
        return (a[0] - b[0], a[1] - b[1], a[2] - b[2])

    def cross(a, b):
        return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])

    def dot(a, b):
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]

    out_lines = [str(len(tets))]
    for t, verts in enumerate(tets):
        p = [coord(v) for v in verts]
        vol = abs(dot(sub(p[1], p[0]), cross(sub(p[2], p[0]), sub(p[3], p[0])))) / 6.0
        fields = ["%.9g" % vol]
        for f in range(4):
            tri = [p[m] for m in range(4) if m != f]
            nrm = cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]))
            nrm = (0.5 * nrm[0], 0.5 * nrm[1], 0.5 * nrm[2])
            if dot(nrm, sub(tri[0], p[f])) < 0:  # point away from the opposite vertex
                nrm = (-nrm[0], -nrm[1], -nrm[2])
            key = tuple(sorted(verts[:f] + verts[f + 1:]))
            owners = faces[key]
            if len(owners) == 2:
                nb = (owners[0] if owners[1] == t else owners[1]) + 1
            else:
                cx = [sum(q[a] for q in tri) / 3.0 for a in range(3)]
                on_box = any(abs(x) < 1e-9 * side or abs(x - side) < 1e-9 * side for x in cx)
                nb = -1 if on_box else 0
            fields.append("%d %.9g %.9g %.9g" % (nb, nrm[0] + 0.0, nrm[1] + 0.0, nrm[2] + 0.0))
        out_lines.append(" ".join(fields))
    write_lines(os.path.join(out, "fvcorr.domn.%d" % len(tets)), out_lines)


# -------------------------------------------------------------------------------------- dwt2d
def gen_dwt2d(out):
    r = rng("dwt2d")
    w = hgt = 192
    data = os.path.join(out, "data", "dwt2d")
    os.makedirs(data, exist_ok=True)
    os.makedirs(os.path.join(out, "cuda", "dwt2d"), exist_ok=True)
    rowlen = (w * 3 + 3) & ~3
    pix = bytearray()
    for y in range(hgt):  # bottom-up rows of blue, green, red
        row = bytearray()
        for x in range(w):
            d = math.hypot(x - 96, y - 80)
            disc = 1.0 if d < 40 else 0.0
            rr = 60 + x * 0.8 + 90 * disc + r.gauss(0, 6)
            gg = 40 + y * 0.9 + 40 * math.sin(x / 9.0) + r.gauss(0, 6)
            bb = 200 - (x + y) * 0.4 - 80 * disc + r.gauss(0, 6)
            for v in (bb, gg, rr):
                row.append(max(0, min(255, int(v))))
        row += bytes(rowlen - len(row))
        pix += row
    header = struct.pack("<2sIHHI", b"BM", 54 + len(pix), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, hgt, 1, 24, 0, len(pix), 2835, 2835, 0, 0)
    with open(os.path.join(data, "192.bmp"), "wb") as f:
        f.write(header + info + pix)


# -------------------------------------------------------------------------------- hotspot(3D)
def _blocks(r, n, count):
    # rectangular functional blocks: (x0, y0, x1, y1, power density in W/m^3)
    blocks = []
    for _ in range(count):
        bw, bh = r.randrange(n // 16, n // 4), r.randrange(n // 16, n // 4)
        x0, y0 = r.randrange(n - bw), r.randrange(n - bh)
        blocks.append((x0, y0, x0 + bw, y0 + bh, r.uniform(0.2e6, 3.0e6)))
    return blocks


def _fields(r, n):
    # per cell (row-major): a temperature of 300-350 K, warmer over the busy blocks, and a
    # power density; the programs' chip is 16 mm x 16 mm x 0.5 mm
    blocks = _blocks(r, n, 24)
    dens = [0.05e6] * (n * n)
    for x0, y0, x1, y1, pd in blocks:
        for y in range(y0, y1):
            base = y * n
            for x in range(x0, x1):
                dens[base + x] = pd
    spots = [(r.uniform(0, n), r.uniform(0, n), r.uniform(n / 16, n / 5), r.uniform(5, 25))
             for _ in range(8)]
    temp = [0.0] * (n * n)
    for y in range(n):
        for x in range(n):
            t = 318.0
            for sx, sy, rad, amp in spots:
                dx, dy = x - sx, y - sy
                d2 = dx * dx + dy * dy
                if d2 < 9 * rad * rad:
                    t += amp * math.exp(-d2 / (2 * rad * rad))
            temp[y * n + x] = min(349.5, t + dens[y * n + x] * 2e-6 + r.uniform(-1, 1))
    return temp, dens


def gen_hotspot(out, n=512):
    r = rng("hotspot")
    temp, dens = _fields(r, n)
    cell = (0.016 / n) * (0.016 / n) * 0.0005
    write_lines(os.path.join(out, "temp_%d" % n), ("%.4f" % t for t in temp))
    write_lines(os.path.join(out, "power_%d" % n), ("%.6g" % (d * cell) for d in dens))


def gen_hotspot3d(out, n=512, layers=8):
    r = rng("hotspot3D")
    temp, dens = _fields(r, n)
    cell = (0.016 / n) * (0.016 / n) * (0.0005 / layers)
    # layer k: the top one (0) dissipates, those below get less of it and are cooler
    scale = [1.0 / (1 + k) for k in range(layers)]
    cool = [k * 1.5 for k in range(layers)]
    u = r.uniform

    def temps():
        for c in range(n * n):
            t = temp[c]
            for k in range(layers):
                yield "%.4f" % max(300.0, t - cool[k] + u(-0.3, 0.3))

    def powers():
        for c in range(n * n):
            p = dens[c] * cell
            for k in range(layers):
                yield "%.6g" % (p * scale[k])

    write_lines(os.path.join(out, "temp_%dx%d" % (n, layers)), temps())
    write_lines(os.path.join(out, "power_%dx%d" % (n, layers)), powers())


# ------------------------------------------------------------------------------------ huffman
def gen_huffman(out):
    r = rng("huffman")
    # 12 letters with probabilities falling by 0.55 each: about 2.2 bits a byte, and Huffman
    # codes of at most 11 bits (the program packs 4 codewords into 64 bits)
    symbols = b"etaoinshrdlu"
    weights = [0.55 ** k for k in range(len(symbols))]
    data = bytes(r.choices(symbols, weights, k=1024 * 256 * 4))
    with open(os.path.join(out, "test1024.in"), "wb") as f:
        f.write(data)


# ------------------------------------------------------------------------------------- kmeans
def gen_kmeans(out, points=494020, features=34):
    r = rng("kmeans")
    # network-connection-like records: a few kinds of traffic (the clusters), each feature a
    # count, a byte total or a rate
    kinds = []
    for _ in range(5):
        kinds.append([(r.choice("cbr"), r.uniform(0.0, 1.0)) for _ in range(features)])
    ri, ru, rg = r.randrange, r.uniform, r.gauss

    def lines():
        for p in range(points):
            kind = kinds[ri(5)]
            vals = [str(p + 1)]
            for typ, m in kind:
                if typ == "c":  # a count of 0..511
                    vals.append(str(max(0, min(511, int(rg(m * 511, 30))))))
                elif typ == "b":  # bytes
                    vals.append(str(int(m * 5000 * ru(0.5, 1.5)) if ri(4) else 0))
                else:  # a rate of 0..1
                    vals.append("%.2f" % max(0.0, min(1.0, rg(m, 0.1))))
            yield " ".join(vals)

    write_lines(os.path.join(out, "kdd_cup"), lines())


# ----------------------------------------------------------------------------------------- nn
def gen_nn(out, records=42760, files=4):
    r = rng("nn")
    names = ["ARLENE", "BRET", "CINDY", "DENNIS", "EMILY", "FRANKLIN", "GERT", "HARVEY",
             "IRMA", "JOSE", "KATIA", "LEE", "MARIA", "NATE", "OPHELIA", "PHILIPPE", "RINA",
             "SEAN", "TAMMY", "VINCE", "WHITNEY"]
    hours = (0, 6, 12, 18)
    paths = []
    for fi in range(files):
        path = os.path.join(out, "cane%d_%d.db" % (files, fi))
        lines = []
        for _ in range(records // files):
            # year month day hour storm name lat lon speed pressure: 48 characters
            lines.append("%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d" % (
                r.randrange(1950, 2005), r.randrange(1, 13), r.randrange(1, 29), r.choice(hours),
                r.randrange(1, 29), r.choice(names), r.uniform(7.0, 70.0), r.uniform(0.0, 358.0),
                r.randrange(10, 165), r.randrange(900, 1020)))
        write_lines(path, lines)
        paths.append(os.path.abspath(path))
    if max(len(p) for p in paths) > 63:
        sys.stderr.write("rodinia_inputs.py: nn reads at most 63 characters of a file name; "
                         "%s is longer\n" % paths[0])
    write_lines(os.path.join(out, "filelist_%d" % files), paths)


GENERATORS = {
    "bfs": gen_bfs,
    "b+tree": gen_btree,
    "cfd": gen_cfd,
    "dwt2d": gen_dwt2d,
    "hotspot": gen_hotspot,
    "hotspot3D": gen_hotspot3d,
    "huffman": gen_huffman,
    "kmeans": gen_kmeans,
    "nn": gen_nn,
}


if __name__ == "__main__":
    sys.exit(inputs_lib.main("rodinia_inputs.py", GENERATORS, sys.argv))
