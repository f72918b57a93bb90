# samples/ndmesh.exe with its ND2 part (--nd) under ndrun on rxe0: one
# guest runs 4 ranks (the shared-memory part, then every pair over ND2);
# with two guests each runs 2 ranks and all 4 connect across the link,
# A's ranks being 0-1 and B's 2-3.  Then a rank SIGKILLed while the ranks
# hold: the launcher exits 137 and no rank is left; and one that SIGKILLs
# itself holding the named mutex after the ND2 part: one survivor gets
# WAIT_ABANDONED, the others WAIT_OBJECT_0, all see it end, the launcher
# exits 137.  Sourced by the rig's
# batched boots after lib.sh.  The outputs are kept in
# $NDSHIM_VM_RESULTS/ndmesh/.
nm_exe=$NDSHIM_VM_BUILD/samples/ndmesh.exe
nm_out=$NDSHIM_VM_RESULTS/ndmesh
nm_tag=$NDSHIM_VM_HOSTS-$NDSHIM_VM_HOST
mkdir -p "$nm_out"

# nm_cr matches text mode's \r (vm_lf) in output still being written.
nm_cr=$(printf '\r')

nm_run() { # NAME WANT-RANKS ARGS...
	_o=$nm_out/$1-$nm_tag.txt
	_want=$2
	shift 2
	timeout 240 "$NDSHIM_VM_BUILD/ndrun" "$nm_exe" "$@" > "$_o" 2>&1 || { vm_lf "$_o"; cat "$_o"; return 1; }
	vm_lf "$_o"
	cat "$_o"
	grep -q "^ndmesh: .*ND2 between all $_want ranks of .*: ok\$" "$_o" &&
		[ "$(grep -c 'ND2 with .* peers: ok$' "$_o")" -eq "$(sed -n 's/^ndmesh: \([0-9]*\) ranks.*/\1/p' "$_o")" ]
}

# PID is gone within 5 s (a zombie counts as gone: ended, not yet reaped
# by whoever inherited it).
nm_gone() {
	_i=0
	while [ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2> /dev/null; do
		[ $_i -lt 50 ] || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 0
}

# The launcher ends with the killed rank's status, the job ends the rest.
nm_kill() {
	_o=$nm_out/kill-$nm_tag.txt
	timeout 240 "$NDSHIM_VM_BUILD/ndrun" "$nm_exe" -n 4 --bytes 65536 --hold-ms 60000 > "$_o" 2>&1 &
	_launcher=$!
	_victim=
	_n=0
	until [ -n "$_victim" ] || [ $_n -ge 300 ]; do
		_victim=$(sed -n "s/^rank 1: pid \\([0-9]*\\)$nm_cr*\$/\\1/p" "$_o")
		sleep 0.2
		_n=$((_n + 1))
	done
	if [ -z "$_victim" ]; then
		# timeout passes SIGTERM on to the launcher; its job ends the ranks.
		kill -TERM $_launcher 2> /dev/null || true
		wait $_launcher || true
		cat "$_o"
		return 1
	fi
	sleep 2
	kill -KILL "$_victim"
	# Not _rc: vm_check's own status variable (shell variables are global).
	_nm_status=0
	wait $_launcher || _nm_status=$?
	vm_lf "$_o"
	cat "$_o"
	for _p in $(sed -n 's/^rank [0-9]*: pid \([0-9]*\)$/\1/p' "$_o"); do
		if ! nm_gone "$_p"; then
			echo "rank pid $_p still alive"
			kill -KILL "$_p" 2> /dev/null
			return 1
		fi
	done
	if [ "$_nm_status" = 137 ] && grep -q 'rank 1 failed with status 137' "$_o"; then
		return 0
	fi
	return 1
}

# A rank dies holding the named mutex after the ND2 part.
nm_abandon() {
	_o=$nm_out/abandon-$nm_tag.txt
	_nm_status=0
	timeout 240 "$NDSHIM_VM_BUILD/ndrun" "$nm_exe" -n 4 --bytes 65536 --nd "$NDSHIM_VM_ADDR" --abandon 2 \
		--by sigkill > "$_o" 2>&1 || _nm_status=$?
	vm_lf "$_o"
	cat "$_o"
	[ "$_nm_status" = 137 ] && grep -q '^ndmesh: rank 2 died holding the mutex (SIGKILL): .*: ok$' "$_o" &&
		[ "$(grep -c '^rank [0-9]: the mutex: WAIT_ABANDONED, rank 2.s process: ended' "$_o")" = 1 ] &&
		[ "$(grep -c '^rank [0-9]: the mutex: WAIT_OBJECT_0, rank 2.s process: ended' "$_o")" = 2 ]
}

if [ ! -f "$nm_exe" ]; then
	echo "FAIL: $(vm_name "ndmesh: $nm_exe is missing (make)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	vm_check "ndmesh: 4 ranks on one host, shared memory then every pair over ND2" \
		nm_run one 4 -n 4 --bytes 1048576 --nd "$NDSHIM_VM_ADDR"
	vm_check "ndmesh: a rank SIGKILLed, the launcher exits 137, no rank left" nm_kill
	vm_check "ndmesh: a rank SIGKILLed holding the named mutex, the others get WAIT_ABANDONED" nm_abandon
elif [ "$NDSHIM_VM_HOST" = A ]; then
	vm_check "ndmesh: 2 ranks here, 2 on B, every pair over ND2" \
		nm_run two 4 -n 2 --bytes 1048576 --nd "$NDSHIM_VM_ADDR,$NDSHIM_VM_PEER" --host 0
else
	vm_check "ndmesh: 2 ranks here, 2 on A, every pair over ND2" \
		nm_run two 4 -n 2 --bytes 1048576 --nd "$NDSHIM_VM_PEER,$NDSHIM_VM_ADDR" --host 1
fi
