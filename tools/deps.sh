#!/bin/sh
# deps.sh: make sure the one library warpsim builds against (libzstd, for nvcc's compressed fat
# binaries) is installed, so that `make run` and `make test` work on a fresh Debian machine.
# Usage: deps.sh CC. Installs libzstd-dev with apt-get (through sudo when not root) if the
# compiler cannot find <zstd.h>; fails with a clear message when it cannot.
cc=${1:-cc}
if echo '#include <zstd.h>' | "$cc" -E - >/dev/null 2>&1; then
    exit 0
fi
echo "warpsim: <zstd.h> not found: installing libzstd-dev" >&2
if [ "$(id -u)" = 0 ]; then
    sudo=
elif command -v sudo >/dev/null 2>&1; then
    sudo=sudo
else
    echo "warpsim: run as root, or install libzstd-dev (Debian) / the zstd headers yourself" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "warpsim: no apt-get here: install the zstd development headers (libzstd-dev) yourself" >&2
    exit 1
fi
$sudo apt-get update -qq && $sudo apt-get install -y -qq libzstd-dev >/dev/null || {
    echo "warpsim: installing libzstd-dev failed" >&2
    exit 1
}
echo '#include <zstd.h>' | "$cc" -E - >/dev/null 2>&1
