#!/bin/sh
# `make demo`, run on both Soft-RoCE guests by tests/vm/run --two: ndinfo
# on each, then ndpingpong with the server on A and the client on B, in
# polling and in blocking mode.  Two Windows programs under two ndrun
# processes on two machines, talking through nd2prov.dll and rxe0.
set -u
cd "$NDSHIM_VM_PROJECT"
build=$NDSHIM_VM_BUILD
# Commands are shown with paths relative to the project folder.
rel=${build#"$NDSHIM_VM_PROJECT"/}

run() {
	echo "\$ $rel/ndrun $rel/samples/$*"
	exe=$1
	shift
	timeout 300 "$build/ndrun" "$build/samples/$exe" "$@"
	rc=$?
	[ $rc -eq 0 ] || echo "(exit status $rc)"
	return $rc
}

for f in ndrun nd2prov.dll samples/ndinfo.exe samples/ndpingpong.exe; do
	if [ ! -e "$build/$f" ]; then
		echo "demo: $rel/$f is missing (make)"
		exit 1
	fi
done

echo "=== host $NDSHIM_VM_HOST ($NDSHIM_VM_ADDR, rxe0 on $NDSHIM_VM_NETDEV)"
run ndinfo.exe || exit 1
echo
if [ "$NDSHIM_VM_HOST" = A ]; then
	run ndpingpong.exe -s "$NDSHIM_VM_ADDR:54321" || exit 1
	echo
	run ndpingpong.exe -s "$NDSHIM_VM_ADDR:54322" -b || exit 1
else
	# -w: A's server may not be listening yet.
	run ndpingpong.exe -c "$NDSHIM_VM_PEER:54321" -w 60 -n 100 || exit 1
	echo
	run ndpingpong.exe -c "$NDSHIM_VM_PEER:54322" -w 60 -n 100 -b || exit 1
fi
