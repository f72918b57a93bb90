# valgrind's memcheck on the Linux side of ND2 (ndrun and nd2prov_unix.so)
# in the rig: a short scenario of tests/nd2/ndfault_rig.exe on one guest,
# the connecting process under valgrind (the serving one runs natively: two
# under valgrind take twice the CPU, twice as long when other work
# shares the cores): the adapter, a CQ, a region, address and route
# resolution, a connection, a message each way with its bytes checked,
# Disconnect and every release.  One guest only; sourced by the rig's
# batched boots.
#
# What counts: every memcheck error with a frame in a Linux object (ndrun,
# nd2prov_unix.so, rdma-core, libc) and every block definitely lost from
# one.  Errors whose whole stack is in PE code (no Linux object: the
# program's own accesses, e.g. mingw's stack probes below the stack
# pointer) are the Windows program's, not ours: they are counted in a note.
# The XML logs stay in $NDSHIM_VM_RESULTS/ndvalgrind/.
nv_exe=$NDSHIM_VM_BUILD/tests/nd2/ndfault_rig.exe
nv_out=$NDSHIM_VM_RESULTS/ndvalgrind

# What is ours: a memcheck error whose innermost frame is in a Linux object
# (PE code has none), a definite leak allocated through ndrun or
# nd2prov_unix.so (glibc's own, tests/vm/suites/ndvalgrind.supp, aside).
nv_awk='
	/<error>/ { in_err = 1; kind = ""; nf = 0; top = 0; via = 0; buf = ""; next }
	in_err && /<kind>/ { k = $0; gsub(/.*<kind>|<\/kind>.*/, "", k); kind = k }
	in_err && /<frame>/ { nf++ }
	in_err && /<obj>/ { if (nf == 1) top = 1; if ($0 ~ /\/ndrun<|nd2prov_unix\.so</) via = 1 }
	in_err && (/<fn>/ || /<obj>/ || /<file>/ || /<line>/ || /<text>/ || /<what>/) { l = $0; gsub(/^ */, "", l); buf = buf "      " l "\n" }
	/<\/error>/ {
		in_err = 0
		ours = kind == "Leak_DefinitelyLost" ? via : (kind !~ /^Leak_/ && top)
		if (kind == "Leak_DefinitelyLost") leaked += via
		else if (kind !~ /^Leak_/) { if (top) lx++; else pe++ }
		if (show && ours && shown++ < 5) printf "    %s\n%s", kind, buf
	}
	END { if (!show) printf "%d %d %d\n", lx, pe, leaked }'

# nv_count XML: "OURS PE LEAKED"; nv_show XML: the ones counted, readably.
nv_count() { awk -v show=0 "$nv_awk" "$1"; }
nv_show() { awk -v show=1 "$nv_awk" "$1" | head -n 80; }

nv_one() { # ROLE-SIDE ARGS...
	_tag=$1
	shift
	_rc=0
	# A hang guard, well past the budget: the budget is checked apart.
	timeout -k 5 240 valgrind --tool=memcheck --xml=yes --xml-file="$nv_out/$_tag.xml" \
		--leak-check=full --show-leak-kinds=definite --num-callers=40 \
		--suppressions="$NDSHIM_VM_PROJECT/tests/vm/suites/ndvalgrind.supp" \
		"$NDSHIM_VM_BUILD/ndrun" "$nv_exe" "$@" > "$nv_out/$_tag.log" 2>&1 || _rc=$?
		vm_lf "$nv_out/$_tag.log"
	echo $_rc > "$nv_out/$_tag.rc"
}

nv_check() { # TAG
	_rc=$(cat "$nv_out/$1.rc")
	set -- "$1" $(nv_count "$nv_out/$1.xml" 2> /dev/null || echo x x x)
	if [ "$_rc" -ne 0 ] || ! grep -q 'fault fresh-[a-z]*: 0 failed' "$nv_out/$1.log"; then
		echo "FAIL: $(vm_name "ndvalgrind: $1 ran to its end under valgrind (exit $_rc)")"
		sed 's/^/    | /' "$nv_out/$1.log" | tail -n 20
		vm_failed=$((vm_failed + 1))
	elif [ "$2" = x ] || [ ! -s "$nv_out/$1.xml" ] || ! grep -q '</valgrindoutput>' "$nv_out/$1.xml"; then
		echo "FAIL: $(vm_name "ndvalgrind: $1: valgrind's report is missing or cut short")"
		vm_failed=$((vm_failed + 1))
	elif [ "$2" -ne 0 ] || [ "$4" -ne 0 ]; then
		echo "FAIL: $(vm_name "ndvalgrind: $1: no memcheck error or definite leak in ndrun or nd2prov_unix.so ($2 errors, $4 blocks leaked)")"
		nv_show "$nv_out/$1.xml"
		vm_failed=$((vm_failed + 1))
	else
		echo "ok: $(vm_name "ndvalgrind: $1: no memcheck error or definite leak in ndrun or nd2prov_unix.so")"
		[ "$3" -eq 0 ] || echo "    | note: $3 memcheck errors inside the PE program's own code (not counted)"
	fi
}

nv_run() {
	[ "${NDSHIM_VM_HOSTS:-1}" = 1 ] || return 0
	mkdir -p "$nv_out"
	rm -f "$nv_out"/*
	if ! command -v valgrind > /dev/null; then
		echo "FAIL: $(vm_name "ndvalgrind: valgrind is installed (scripts/install-deps)")"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	_t0=$(date +%s)
	timeout -k 5 240 "$NDSHIM_VM_BUILD/ndrun" "$nv_exe" fresh serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" \
		> "$nv_out/serve.log" 2>&1 &
	_srv=$!
	nv_one connect fresh connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
	_rc=0
	wait $_srv || _rc=$?
	_secs=$(($(date +%s) - _t0))
	if [ $_rc -ne 0 ]; then
		echo "FAIL: $(vm_name "ndvalgrind: the serving process (not under valgrind) exited $_rc")"
		sed 's/^/    | /' "$nv_out/serve.log" | tail -n 20
		vm_failed=$((vm_failed + 1))
	fi
	nv_check connect
	# Its time is a note, not a check (no timing assertions in tests; the
	# hang guard above is 240 s): under check-vm's load it took 85-89 s
	# of the 90 s budget it had, one slow guest from a red run.
	echo "    | note: ndvalgrind: the pass took $_secs s"
}

nv_run
