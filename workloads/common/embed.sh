#!/bin/sh
# embed.sh KERNEL.ptx [KERNEL.ptxinfo]: write C source defining `const char wl_ptx[]`, the PTX
# text followed by ptxas's -v report as `//` comment lines (warpsim reads register counts from
# them; a real driver ignores comments).
set -e
{
    cat "$1"
    if [ -n "$2" ] && [ -f "$2" ]; then sed 's|^|// |' "$2"; fi
} | awk 'BEGIN { print "const char wl_ptx[] =" }
         { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "    \"" $0 "\\n\"" }
         END { print "    \"\";" }'
