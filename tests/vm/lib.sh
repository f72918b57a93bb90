# Helpers for scripts run inside a guest by tests/vm/run; source it:
#   . "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
#
# One boot costs seconds of emulated CPU, so a script runs many checks and
# reports each on its own line, "ok: NAME" or "FAIL: NAME" followed by the
# check's output; tests/vm/check counts these lines, and passes on to make
# check's output the lines that start "    | " (a passing check's notes
# among them: "    | note: ..."); every other line stays in the run's log
# (build/vm/check/*.out).  vm_finish exits non-zero if any check failed, so
# a run never passes over a failed check.

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
		# A check that passed only on a later try says so, and shows what
		# the failed try printed, in make check's output ("    | " lines
		# are what tests/vm/check passes on).
		awk '/^pair: / { p = 1; print; next } p && /^    / { print; next } { p = 0 }' "$vm_tmp/log" |
			sed 's/^/    | note: /'
	else
		echo "FAIL: $_name (exit $_rc)"
		tail -n 40 "$vm_tmp/log" | sed 's/^/    | /'
		vm_failed=$((vm_failed + 1))
	fi
	return 0
}

# vm_lf FILE...: a Windows program's text-mode output ends its lines with
# \r\n, as on Windows (docs/crt-text-mode.md); checks compare lines and
# fields, so the \r go first.
vm_lf() {
	sed -i 's/\r$//' "$@"
}

# vm_report LOG RC WHAT [PREFIX]: a rig program's own "ok:" / "FAIL:"
# lines from LOG, named for this guest and PREFIX, its other lines indented
# under them; a non-zero RC fails the run, and says so as "WHAT exited RC"
# when the program printed no FAIL line of its own.
vm_report() {
	_vr_pre=$(vm_name '')${4:-}
	# Windows programs end lines with text mode's \r\n (docs/crt-text-mode.md).
	sed -e 's/\r$//' -e "s/^ok: /ok: $_vr_pre/" -e "s/^FAIL: /FAIL: $_vr_pre/" -e '/^ok: \|^FAIL: /!s/^/    | /' "$1"
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

# ---- The two guests as a small cluster ----------------------------------
# Daemons keep their state and configuration in the guest's overlay (/etc,
# /var, /run are the guest's own tmpfs copies of the host's read-only root),
# so nothing reaches the host and every boot starts clean.  Both guests take
# their keys from $NDSHIM_VM_KEYS, made by tests/vm/run for this run only.
# The guests are ndshim-a (198.18.0.1) and ndshim-b (198.18.0.2) in
# /etc/hosts.  Each helper says why on stderr and returns non-zero when it
# cannot do its job; wrap it in vm_check to report it.

# vm_sshd_up: sshd on this guest's address, port 22, root logins with the
# run's user key only, and ssh configured for root to reach ndshim-a and
# ndshim-b (names or addresses) without a prompt: BatchMode, host key
# checked against the run's host key.  Call it on both guests; then
# vm_ssh_wait HOST waits for the other's sshd.  Under TCG a new ssh
# connection takes tens of seconds (key exchange, sshd's re-exec over 9p),
# so connections are shared: the first ssh to a host (vm_ssh_wait's) stays
# open as a master for 30 minutes and later ones (hydra's) ride on it.
vm_sshd_up() {
	_k=${NDSHIM_VM_KEYS:-}
	if [ ! -r "$_k/ssh_host_ed25519_key" ] || [ ! -r "$_k/id_ed25519" ]; then
		echo "vm_sshd_up: no throw-away ssh keys in '$_k' (tests/vm/run makes them with ssh-keygen: apt-get install openssh-client)" >&2
		return 1
	fi
	[ -x /usr/sbin/sshd ] || {
		echo "vm_sshd_up: /usr/sbin/sshd not found (scripts/install-deps --vm installs openssh-server)" >&2
		return 1
	}
	mkdir -p /etc/ssh/ndshim /run/sshd /root/.ssh
	chmod 700 /root/.ssh
	install -m 600 "$_k/ssh_host_ed25519_key" /etc/ssh/ndshim/ssh_host_ed25519_key
	install -m 644 "$_k/id_ed25519.pub" /etc/ssh/ndshim/authorized_keys
	install -m 600 "$_k/id_ed25519" /root/.ssh/id_ndshim_rig
	# One host key for both guests, known under one alias (HostKeyAlias).
	echo "ndshim-rig $(cut -d' ' -f1,2 "$_k/ssh_host_ed25519_key.pub")" > /etc/ssh/ndshim/known_hosts
	# UsePAM no: the guest has no login session to set up; SetEnv-free, so
	# a remote command gets sshd's plain environment (PATH included).
	cat > /etc/ssh/ndshim/sshd_config <<-EOF
		ListenAddress $NDSHIM_VM_ADDR
		ListenAddress 127.0.0.1
		HostKey /etc/ssh/ndshim/ssh_host_ed25519_key
		AuthorizedKeysFile /etc/ssh/ndshim/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		UseDNS no
		PidFile /run/sshd.pid
		LogLevel ERROR
	EOF
	cat > /root/.ssh/config <<-EOF
		Host ndshim-a ndshim-b 198.18.0.1 198.18.0.2 localhost 127.0.0.1
		  User root
		  IdentityFile /root/.ssh/id_ndshim_rig
		  IdentitiesOnly yes
		  UserKnownHostsFile /etc/ssh/ndshim/known_hosts
		  StrictHostKeyChecking yes
		  HostKeyAlias ndshim-rig
		  BatchMode yes
		  ConnectTimeout 120
		  LogLevel ERROR
		  ControlMaster auto
		  ControlPath /run/ndshim-ssh-%r@%h:%p
		  ControlPersist 1800
		  ServerAliveInterval 5
		  ServerAliveCountMax 4
	EOF
	chmod 600 /root/.ssh/config
	/usr/sbin/sshd -f /etc/ssh/ndshim/sshd_config -E /var/log/ndshim-sshd.log || {
		echo "vm_sshd_up: sshd did not start:" >&2
		cat /var/log/ndshim-sshd.log >&2
		return 1
	}
}

# vm_ssh_wait HOST [SECONDS]: until `ssh HOST true` succeeds (default 120 s).
vm_ssh_wait() {
	vm_retry "${2:-120}" ssh "$1" true 2>/dev/null
}

# vm_slurm_up [CPUS]: a Slurm cluster of the run's guests (ndshim-a alone,
# or ndshim-a and ndshim-b): munged with the run's key and slurmd on this
# guest, slurmctld on A.  Each node offers CPUS CPUs (default 4) whatever
# the guest has (SlurmdParameters=config_overrides), in one partition "rig",
# the default, that may oversubscribe; no accounting, no cgroups
# (proctrack/linuxproc finds a step's processes by their ancestry).  Call it
# on both guests: it returns once every node is idle, as seen from this
# guest, so srun, salloc and sbatch work from either.  Logs are in
# /var/log/slurm and /var/log/munge.
vm_slurm_up() {
	_cpus=${1:-4}
	_k=${NDSHIM_VM_KEYS:-}
	[ -r "$_k/munge.key" ] || {
		echo "vm_slurm_up: no throw-away munge key in '$_k' (tests/vm/run makes it)" >&2
		return 1
	}
	for _d in /usr/sbin/munged /usr/sbin/slurmd /usr/sbin/slurmctld /usr/bin/srun; do
		[ -x "$_d" ] || {
			echo "vm_slurm_up: $_d not found (scripts/install-deps --vm installs munge, slurmd, slurmctld and slurm-client)" >&2
			return 1
		}
	done
	mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
	install -m 400 "$_k/munge.key" /etc/munge/munge.key
	chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
	chmod 700 /etc/munge /var/lib/munge /var/log/munge
	chmod 755 /run/munge
	runuser -u munge -- /usr/sbin/munged || {
		echo "vm_slurm_up: munged did not start:" >&2
		cat /var/log/munge/munged.log >&2
		return 1
	}
	_nodes="NodeName=ndshim-a NodeAddr=198.18.0.1 CPUs=$_cpus State=UNKNOWN"
	_list=ndshim-a
	if [ "${NDSHIM_VM_HOSTS:-1}" = 2 ]; then
		_nodes="$_nodes
NodeName=ndshim-b NodeAddr=198.18.0.2 CPUs=$_cpus State=UNKNOWN"
		_list=ndshim-a,ndshim-b
	fi
	# slurmd looks for cgroups even when no plugin uses them; without
	# systemd, cgroup v1 is what Slurm 22.05 can use (its v2 support
	# creates scopes through systemd).  It recognises v1 by a tmpfs on
	# /sys/fs/cgroup with a "systemd" named hierarchy in it.
	if ! mountpoint -q /sys/fs/cgroup; then
		mount -t tmpfs -o mode=755 cgroup_root /sys/fs/cgroup &&
			mkdir -p /sys/fs/cgroup/freezer /sys/fs/cgroup/systemd &&
			mount -t cgroup -o none,name=systemd systemd /sys/fs/cgroup/systemd &&
			mount -t cgroup -o freezer freezer /sys/fs/cgroup/freezer || {
			echo "vm_slurm_up: cannot mount a cgroup v1 hierarchy on /sys/fs/cgroup" >&2
			return 1
		}
	fi
	mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
	# Timeouts are generous: under TCG a daemon can take seconds to answer.
	# KillWait is short: a step's tasks get SIGTERM, then SIGKILL 5 s later.
	cat > /etc/slurm/slurm.conf <<-EOF
		ClusterName=ndshim-rig
		SlurmctldHost=ndshim-a(198.18.0.1)
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		CredType=cred/munge
		MpiDefault=none
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		SelectType=select/cons_tres
		SelectTypeParameters=CR_CPU
		SchedulerType=sched/builtin
		ReturnToService=2
		SlurmdParameters=config_overrides
		StateSaveLocation=/var/spool/slurmctld
		SlurmdSpoolDir=/var/spool/slurmd
		SlurmctldPidFile=/run/slurmctld.pid
		SlurmdPidFile=/run/slurmd.pid
		SlurmctldLogFile=/var/log/slurm/slurmctld.log
		SlurmdLogFile=/var/log/slurm/slurmd.log
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		SlurmctldTimeout=300
		SlurmdTimeout=300
		MessageTimeout=60
		BatchStartTimeout=120
		InactiveLimit=0
		KillWait=5
		MinJobAge=30
		$_nodes
		PartitionName=rig Nodes=$_list Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
	EOF
	echo "CgroupPlugin=cgroup/v1" > /etc/slurm/cgroup.conf
	if [ "$NDSHIM_VM_HOST" = A ]; then
		/usr/sbin/slurmctld || {
			echo "vm_slurm_up: slurmctld did not start:" >&2
			tail -n 20 /var/log/slurm/slurmctld.log >&2
			return 1
		}
	fi
	/usr/sbin/slurmd || {
		echo "vm_slurm_up: slurmd did not start:" >&2
		tail -n 20 /var/log/slurm/slurmd.log >&2
		return 1
	}
	vm_slurm_wait
}

# vm_slurm_wait [SECONDS]: until sinfo shows every node idle (default 300 s).
vm_slurm_wait() {
	vm_retry "${1:-300}" _vm_slurm_idle || {
		echo "vm_slurm_wait: nodes not idle after ${1:-300} s:" >&2
		sinfo -N -h -o '%N %T %E' >&2
		tail -n 20 /var/log/slurm/slurmd.log >&2
		[ ! -r /var/log/slurm/slurmctld.log ] || tail -n 20 /var/log/slurm/slurmctld.log >&2
		return 1
	}
}
_vm_slurm_idle() {
	_st=$(sinfo -N -h -o '%T' 2>/dev/null) || return 1
	[ -n "$_st" ] && [ -z "$(printf '%s\n' "$_st" | grep -v '^idle$')" ]
}

# vm_cluster_down: stops what vm_sshd_up and vm_slurm_up started on this
# guest (by their pid files) and closes its shared ssh connections, so the
# checks that follow run on a quiet guest.  Call it once the other guest
# no longer needs this one's daemons.
vm_cluster_down() {
	for _h in ndshim-a ndshim-b; do
		ssh -O exit "$_h" 2>/dev/null || :
	done
	for _p in /run/slurmctld.pid /run/slurmd.pid /run/munge/munged.pid /run/sshd.pid; do
		[ -r "$_p" ] && kill "$(cat "$_p")" 2>/dev/null
	done
	return 0
}

# vm_peer_done / vm_wait_peer_done [SECONDS]: a guest that only serves the
# other (its sshd, its slurmd) must stay up until the other is finished:
# the other calls vm_peer_done when it no longer needs it, and this one
# waits in vm_wait_peer_done (default 1200 s) before its vm_finish.
vm_peer_done() {
	mkdir -p "$NDSHIM_VM_RESULTS/.rig"
	: > "$NDSHIM_VM_RESULTS/.rig/$NDSHIM_VM_RUN.$NDSHIM_VM_HOST.done"
}
vm_wait_peer_done() {
	case $NDSHIM_VM_HOST in A) _peer=B ;; *) _peer=A ;; esac
	vm_retry "${1:-1200}" test -e "$NDSHIM_VM_RESULTS/.rig/$NDSHIM_VM_RUN.$_peer.done"
	_wpd_rc=$?
	rm -f "$NDSHIM_VM_RESULTS/.rig/$NDSHIM_VM_RUN.$_peer.done"
	return $_wpd_rc
}

# vm_mark NAME / vm_wait_mark NAME [SECONDS] / vm_take_mark NAME: one
# guest tells the other it is ready (a server listening) through the
# shared results folder; the other waits for it (default 900 s) and
# takes it.  Under TCG, with other boots on the same cores, a server may
# start minutes after its client: a client that retries for a fixed time
# would give up first.
vm_mark() {
	mkdir -p "$NDSHIM_VM_RESULTS/.rig"
	: > "$NDSHIM_VM_RESULTS/.rig/$NDSHIM_VM_RUN.$1.mark"
}
vm_wait_mark() {
	vm_retry "${2:-900}" vm_take_mark "$1" || {
		echo "no '$1' mark from the other guest within ${2:-900} s" >&2
		return 1
	}
}
# vm_take_mark NAME: without waiting, true (and the mark taken) when NAME
# is marked.
vm_take_mark() {
	rm "$NDSHIM_VM_RESULTS/.rig/$NDSHIM_VM_RUN.$1.mark" 2>/dev/null
}

vm_finish() {
	rm -rf "$vm_tmp"
	[ $vm_failed -eq 0 ] || exit 1
	exit 0
}
