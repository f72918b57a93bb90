#!/bin/sh
# The second guest of make bench-vm: the instructions per ND2 call under
# callgrind (nd2calls.sh), then provider start-up against REF_SO
# (nd2startup.sh).
#   nd2cost.sh ITERATIONS [REF_SO]
set -u
d=$(dirname "$0")
rc=0
"$d/nd2calls.sh" --iters "$1" || rc=1
"$d/nd2startup.sh" "${2:-}" || rc=1
exit $rc
