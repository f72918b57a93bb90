#!/bin/sh
# Provider start-up in a Soft-RoCE guest: `ndrun ndinfo.exe -l` (load
# nd2prov.dll, its Linux side, list the adapters and addresses) with this
# build's nd2prov_unix.so and with REF_SO, another build of it (e.g. one
# that reads the GID slots through sysfs), interleaved: the median wall
# time of RUNS runs each, the openat calls of one run each (strace), and
# that both print the same list.
#
#   nd2startup.sh REF_SO [RUNS]
set -u
ref=${1:-}
runs=${2:-21}
b=$NDSHIM_VM_BUILD
out=$NDSHIM_VM_RESULTS/bench-vm
mkdir -p "$out"
if [ -z "$ref" ] || [ ! -f "$ref" ]; then
	echo "bench: nd2 provider start-up not measured: no reference nd2prov_unix.so given"
	exit 1
fi
ms() { # SO -> milliseconds of one ndinfo -l
	_t0=$(date +%s%N)
	NDSHIM_ND_UNIX=$1 "$b/ndrun" "$b/samples/ndinfo.exe" -l > /dev/null 2>&1 || { echo x; return; }
	_t1=$(date +%s%N)
	echo $(((_t1 - _t0) / 1000))
}
NDSHIM_ND_UNIX=$b/nd2prov_unix.so "$b/ndrun" "$b/samples/ndinfo.exe" -l > "$out/ndinfo-ours.txt" 2>&1
NDSHIM_ND_UNIX=$ref "$b/ndrun" "$b/samples/ndinfo.exe" -l > "$out/ndinfo-ref.txt" 2>&1
if cmp -s "$out/ndinfo-ours.txt" "$out/ndinfo-ref.txt"; then
	echo "ndinfo -l: the same adapters and addresses with both:"
	sed 's/^/    | /' "$out/ndinfo-ours.txt"
else
	echo "FAIL: ndinfo -l differs:"; diff "$out/ndinfo-ref.txt" "$out/ndinfo-ours.txt"; exit 1
fi
: > "$out/startup.txt"
i=0
while [ $i -lt "$runs" ]; do
	echo "$(ms "$b/nd2prov_unix.so") $(ms "$ref")" >> "$out/startup.txt"
	i=$((i + 1))
done
for so in "$b/nd2prov_unix.so" "$ref"; do
	NDSHIM_ND_UNIX=$so strace -f -qq -e trace=openat -o "$out/strace.txt" "$b/ndrun" "$b/samples/ndinfo.exe" -l > /dev/null 2>&1
	echo "openat calls with $so: $(grep -c 'openat(' "$out/strace.txt") ($(grep -c 'gid_attrs' "$out/strace.txt") under gid_attrs, $(grep -c ENOENT\\\|EINVAL "$out/strace.txt") failing)"
done
# The first run of each is a warm-up.
awk 'NR > 1 && $1 != "x" && $2 != "x" { k++; a[k] = $1; r[k] = $2 }
function med(v, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
END { if (!k) { print "bench: nd2 provider start-up not measured: ndinfo failed"; exit 1 }
	o = med(a, k) / 1000; b = med(r, k) / 1000
	printf "bench: nd2 provider start-up (ndinfo -l) ours=%.1fms baseline=%.1fms (GID slots read through sysfs) ratio=%.3f (%d runs each)\n", o, b, o / b, k }' "$out/startup.txt"
