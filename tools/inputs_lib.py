"""inputs_lib.py: what the input generators of tools/ share (rodinia_inputs.py,
pannotia_inputs.py): a random generator a file, line-by-line writing, and the command line
`PROG OUTDIR [NAME...]`, which runs the generators named (default: all), each writing its files
into OUTDIR/NAME/."""
import os
import random
import sys


def rng(seed, name):
    # one generator a file, so that each file is the same whatever else is generated
    return random.Random("%d:%s" % (seed, name))


def write_lines(path, lines):
    with open(path, "w") as f:
        chunk = []
        for line in lines:
            chunk.append(line)
            if len(chunk) >= 65536:
                f.write("\n".join(chunk) + "\n")
                chunk = []
        if chunk:
            f.write("\n".join(chunk) + "\n")


def main(prog, generators, argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: %s OUTDIR [%s]...\n" % (prog, "|".join(generators)))
        return 2
    out = argv[1]
    names = argv[2:] or list(generators)
    for name in names:
        if name not in generators:
            sys.stderr.write("%s: no generator for %s\n" % (prog, name))
            return 2
    for name in names:
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        generators[name](d)
    return 0
