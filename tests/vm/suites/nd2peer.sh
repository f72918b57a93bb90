# What foreign ND2 clients rely on when the peer misbehaves or goes away:
# tests/nd2/nd2peer_rig.exe under ndrun (see the top of that file).
# Sourced by the rig's batched boots after lib.sh.  One guest: server and
# client are two ndrun processes; two guests: A serves, B connects.
# Each process gets NDSHIM_ND2PEER_TIMEOUT seconds (default 120); the logs
# are kept in $NDSHIM_VM_RESULTS/nd2peer-HOST/.  Then the gone- pair: the client exits while connected, is killed with
# SIGKILL while connected, exits with its request waiting for the Accept,
# and a last client connects.  Any "leaking a memory registration" from
# the provider's Linux side fails the run.
# NDSHIM_ND2PEER_NDRUN picks another ndrun (and the nd2prov.dll beside it).
# NDSHIM_ND2PEER_WRITES sets the length of the RDMA Write stream and
# NDSHIM_ND2PEER_PINGS the round trips of the RDMA Write ping-pong (make
# check-long runs 500000 and 250000).
nd2peer_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2peer_rig.exe
nd2peer_ndrun=${NDSHIM_ND2PEER_NDRUN:-$NDSHIM_VM_BUILD/ndrun}
# The logs go where the host sees them even when the guest times out.
nd2peer_logs=$vm_tmp
if [ -n "${NDSHIM_VM_RESULTS:-}" ] && mkdir -p "$NDSHIM_VM_RESULTS/nd2peer-${NDSHIM_VM_HOST:-A}" 2> /dev/null; then
	nd2peer_logs=$NDSHIM_VM_RESULTS/nd2peer-${NDSHIM_VM_HOST:-A}
fi

# nd2peer_one TAG ARGS...: one ndrun process, its log and status kept.
nd2peer_one() {
	_tag=$1
	shift
	_rc=0
	timeout "${NDSHIM_ND2PEER_TIMEOUT:-120}" "$nd2peer_ndrun" "$nd2peer_exe" "$@" > "$nd2peer_logs/$_tag.log" 2>&1 || _rc=$?
	vm_lf "$nd2peer_logs/$_tag.log"
	echo $_rc > "$nd2peer_logs/$_tag.rc"
}

# nd2peer_kill TAG ARGS...: a client that waits to be killed once it says
# it is ready; SIGKILL, as a crashing or killed rank would end.
nd2peer_kill() {
	_tag=$1
	shift
	"$nd2peer_ndrun" "$nd2peer_exe" "$@" > "$nd2peer_logs/$_tag.log" 2>&1 &
	_pid=$!
	_n=0
	until grep -q '^ready to be killed' "$nd2peer_logs/$_tag.log" || [ $_n -ge 240 ]; do
		kill -0 $_pid 2> /dev/null || break
		sleep 0.5
		_n=$((_n + 1))
	done
	# The boots' scripts run under set -e: a killed child's status (137)
	# must not end them.
	if grep -q '^ready to be killed' "$nd2peer_logs/$_tag.log"; then
		kill -KILL $_pid || true
		wait $_pid 2> /dev/null || true
		echo 0 > "$nd2peer_logs/$_tag.rc"
	else
		kill -KILL $_pid 2> /dev/null || true
		wait $_pid 2> /dev/null || true
		echo "never became ready" >> "$nd2peer_logs/$_tag.log"
		echo 1 > "$nd2peer_logs/$_tag.rc"
	fi
}

nd2peer_report() {
	_log=$nd2peer_logs/$1.log
	_pre=$(vm_name '')
	vm_report "$_log" "$(cat "$nd2peer_logs/$1.rc")" "nd2peer $1"
	if grep -q 'leaking a memory registration' "$_log"; then
		echo "FAIL: ${_pre}nd2peer $1: the provider leaked a memory registration"
		vm_failed=$((vm_failed + 1))
	fi
}

# Between two guests QEMU 7.2's stream netdev stops moving packets under a
# sustained burst (the guest's virtio_net logs NETDEV WATCHDOG transmit
# timeouts): the streams are short there, and a stall is named as such.
if [ "${NDSHIM_VM_HOSTS:-1}" = 2 ]; then
	nd2peer_writes=${NDSHIM_ND2PEER_WRITES:-1000}
else
	nd2peer_writes=${NDSHIM_ND2PEER_WRITES:-20000}
fi

nd2peer_server() {
	nd2peer_one server server "$NDSHIM_VM_ADDR" "$1" $nd2peer_writes ${NDSHIM_ND2PEER_PINGS:-}
	nd2peer_one gone-server gone-server "$NDSHIM_VM_ADDR" "$1"
}

nd2peer_client() {
	nd2peer_one client client "$NDSHIM_VM_ADDR" "$1" $nd2peer_writes ${NDSHIM_ND2PEER_PINGS:-}
	nd2peer_one exit gone-client "$NDSHIM_VM_ADDR" "$1" exit
	nd2peer_kill kill gone-client "$NDSHIM_VM_ADDR" "$1" kill
	nd2peer_one requested gone-client "$NDSHIM_VM_ADDR" "$1" requested
	nd2peer_one last gone-client "$NDSHIM_VM_ADDR" "$1" last
}

nd2peer_run() {
	if [ ! -x "$nd2peer_ndrun" ] || [ ! -f "$NDSHIM_VM_BUILD/nd2prov.dll" ] || [ ! -f "$nd2peer_exe" ]; then
		echo "FAIL: $(vm_name "nd2peer: $nd2peer_ndrun, nd2prov.dll and $nd2peer_exe are built (make)")"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
		nd2peer_server "$NDSHIM_VM_ADDR" &
		_srv=$!
		nd2peer_client "$NDSHIM_VM_ADDR"
		wait $_srv
		for _t in server client gone-server exit kill requested last; do
			nd2peer_report $_t
		done
	elif [ "$NDSHIM_VM_HOST" = A ]; then
		nd2peer_server "$NDSHIM_VM_PEER"
		nd2peer_report server
		nd2peer_report gone-server
	else
		nd2peer_client "$NDSHIM_VM_PEER"
		for _t in client exit kill requested last; do
			nd2peer_report $_t
		done
	fi
}

nd2peer_link() {
	if [ "${NDSHIM_VM_HOSTS:-1}" = 2 ] && dmesg | grep -q -e 'NETDEV WATCHDOG' -e 'Detected Tx Unit Hang'; then
		echo "FAIL: $(vm_name "nd2peer: the link between the guests stalled (transmit timeout in the kernel log): a QEMU limit, see README")"
		vm_failed=$((vm_failed + 1))
	fi
}

nd2peer_run
nd2peer_link
