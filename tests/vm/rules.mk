# Soft-RoCE rig: tests that need real ibverbs and rdma_cm run inside QEMU
# guests started by tests/vm/run (see the top of that file).  check-vm runs
# the rig's self-test (tests/vm/check); results come back in $(BUILD)/vm-results.
# The one-guest boot also runs the nd2prov rig under the ASan+UBSan ndrun,
# so check-vm first builds it (with nd2prov.dll and its Linux side) into
# build-asan/.
.PHONY: vm-asan-parts
vm-asan-parts:
	@$(MAKE) --no-print-directory SANITIZE=1 build-asan/ndrun build-asan/nd2prov.dll \
		$(if $(HAVE_RDMA_HEADERS),build-asan/nd2prov_unix.so)

# The suites run what `make all` builds (ndrun, the provider, the samples,
# the rig programs), so a first `make check-vm` builds them too.  What the
# guests run is gathered as vm-parts (the rig programs' rules.mk add
# theirs): make check builds it on every core before a guest boots, and
# nothing rebuilds it while they run.
.PHONY: vm-parts
vm-parts: vm-asan-parts all $(ND2UNIX_SO)
check-vm: vm-parts
	@mkdir -p $(RESULTS)
	@NDSHIM_VM_BUILD=$(BUILD) tests/vm/check $(RESULTS)/vm.summary

# Long runs, outside make check (whose whole must stay under 20 minutes):
# the nd2peer rig with a 500,000-write RDMA stream, on one guest and on two;
# ndrdma's suite with 50-64 transfers per size (tests/vm/long/nd2rdma-long.sh).
.PHONY: check-long
check-long: all
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-1800} tests/vm/run tests/vm/long/nd2peer-long.sh
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-1800} \
		tests/vm/run --two tests/vm/long/nd2peer-long.sh tests/vm/long/nd2peer-long.sh
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-3600} tests/vm/run tests/vm/long/nd2rdma-long.sh
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-3600} \
		tests/vm/run --two tests/vm/long/nd2rdma-long.sh tests/vm/long/nd2rdma-long.sh

# make soak (outside make check): tests/vm/soak/soak.sh on one guest, a
# ping-pong and an RDMA Write stream for SOAK_SECONDS (default 600), every
# byte checked, memory sampled; its report lands in
# $(BUILD)/vm-results/soak/report.txt (docs/soak.md keeps the last one).
SOAK_SECONDS ?= 600
.PHONY: soak
soak: all
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_TIMEOUT=$$(($(SOAK_SECONDS) + 400)) tests/vm/run tests/vm/soak/soak.sh $(SOAK_SECONDS)
