# The ND2 SDK from the outside (tests/sdk/): nd2client.exe and
# nd2client-cxx.exe, built by `make sdk-client` with mingw-w64 against the
# INSTALLED SDK only (DESTDIR $NDSHIM_VM_BUILD/tests/sdk/root, PREFIX /usr),
# run on rxe0 under the installed ndrun, which finds the installed
# nd2prov.dll and nd2prov_unix.so in ../lib/ndshim.  Under NDSHIM_DEBUG=+nd
# the provider's methods show with their HRESULTs.  One guest is enough.
# Sourced by the rig's batched boots after lib.sh.
sd_root=$NDSHIM_VM_BUILD/tests/sdk/root/usr
sd_dir=$NDSHIM_VM_BUILD/tests/sdk
sd_out=$NDSHIM_VM_RESULTS/sdk
mkdir -p "$sd_out"

sd_client() { # EXE
	_o=$sd_out/$1.txt
	timeout 120 "$sd_root/bin/ndrun" "$sd_dir/$1.exe" > "$_o" 2>&1 || { vm_lf "$_o"; cat "$_o"; return 1; }
	vm_lf "$_o"
	cat "$_o"
	grep -qx "$1: ok" "$_o"
}

# +nd: the calls nd2client makes, each with its return, on the real device.
sd_traced() {
	_o=$sd_out/nd2client-nd.txt
	NDSHIM_DEBUG=+nd timeout 120 "$sd_root/bin/ndrun" "$sd_dir/nd2client.exe" > "$_o" 2>&1 ||
		{ vm_lf "$_o"; tail -n 30 "$_o"; return 1; }
	vm_lf "$_o"
	for _m in IND2Provider::ResolveAddress IND2Provider::OpenAdapter IND2Adapter::Query \
		IND2Adapter::CreateCompletionQueue IND2Adapter::CreateMemoryRegion IND2MemoryRegion::Register \
		IND2MemoryRegion::GetLocalToken IND2MemoryRegion::Deregister IND2CompletionQueue::Release; do
		grep -Eq "trace:nd:Call $_m\\(" "$_o" || { echo "no Call line for $_m"; return 1; }
		grep -Eq "trace:nd:Ret  $_m\\(\\) retval=[0-9a-f]+ " "$_o" || { echo "no Ret line for $_m"; return 1; }
	done
	grep -Eq 'trace:nd:Ret  IND2Adapter::Query\(\) retval=0 ' "$_o" || { echo "Query did not return ND_SUCCESS"; return 1; }
	grep -qx 'nd2client: ok' "$_o"
}

if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	if [ ! -x "$sd_root/bin/ndrun" ] || [ ! -f "$sd_dir/nd2client.exe" ] || [ ! -f "$sd_dir/nd2client-cxx.exe" ]; then
		echo "FAIL: $(vm_name "sdk: the installed SDK and nd2client*.exe are in $sd_dir (make sdk-client)")"
		vm_failed=$((vm_failed + 1))
	else
		vm_check "sdk: nd2client (C, installed SDK) opens rxe0, CQ, MR under the installed ndrun" sd_client nd2client
		vm_check "sdk: nd2client-cxx (C++, installed SDK) opens and queries rxe0" sd_client nd2client-cxx
		vm_check "sdk: +nd traces the client's ND2 calls with their HRESULTs" sd_traced
	fi
fi
