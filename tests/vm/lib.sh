# Helpers for scripts run inside a guest by tests/vm/run; source it:
#   . "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
#
# One boot costs seconds of emulated CPU, so a script runs many checks and
# reports each on its own line, "ok: NAME" or "FAIL: NAME" followed by the
# check's output; tests/vm/check counts these lines.  vm_finish exits non-zero
# if any check failed, so a run never passes over a failed check.

vm_failed=0
vm_tmp=$(mktemp -d)

# Names carry the guest when there are two, so both reports read apart.
vm_name() {
	if [ "${NDSHIM_VM_HOSTS:-1}" = 2 ]; then
		echo "$NDSHIM_VM_HOST: $1"
	else
		echo "$1"
	fi
}

# vm_check NAME COMMAND [ARG...]: run COMMAND and report it as check NAME.
# The output is shown only on failure, so a tool that happens to print
# "ok:" cannot fake a result.
vm_check() {
	_name=$(vm_name "$1")
	shift
	_rc=0
	"$@" > "$vm_tmp/log" 2>&1 || _rc=$?
	if [ $_rc -eq 0 ]; then
		echo "ok: $_name"
		# A check that passed only on a later try says so.
		grep '^local_pair: try' "$vm_tmp/log" | sed 's/^/    note: /' || true
	else
		echo "FAIL: $_name (exit $_rc)"
		tail -n 40 "$vm_tmp/log" | sed 's/^/    | /'
		vm_failed=$((vm_failed + 1))
	fi
	return 0
}

# vm_report LOG RC WHAT [PREFIX]: a rig program's own "ok:" / "FAIL:"
# lines from LOG, named for this guest and PREFIX, its other lines indented
# under them; a non-zero RC fails the run, and says so as "WHAT exited RC"
# when the program printed no FAIL line of its own.
vm_report() {
	_vr_pre=$(vm_name '')${4:-}
	sed -e "s/^ok: /ok: $_vr_pre/" -e "s/^FAIL: /FAIL: $_vr_pre/" -e '/^ok: \|^FAIL: /!s/^/    | /' "$1"
	if [ "$2" != 0 ]; then
		grep -q '^FAIL: ' "$1" || echo "FAIL: ${_vr_pre}$3 exited $2"
		vm_failed=$((vm_failed + 1))
	fi
}

# vm_retry SECONDS COMMAND [ARG...]: run COMMAND until it succeeds or SECONDS
# have passed; for a client whose server, on this guest or the other, may
# not be listening yet.
vm_retry() {
	_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 1
	done
}

vm_finish() {
	rm -rf "$vm_tmp"
	[ $vm_failed -eq 0 ] || exit 1
	exit 0
}
