"""inputs_cli.py: the command line the input generators of tools/ share (rodinia_inputs.py,
pannotia_inputs.py): `PROG OUTDIR [NAME...]` runs the generators named (default: all), each
writing its files into OUTDIR/NAME/."""
import os
import sys


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
