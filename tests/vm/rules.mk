# Soft-RoCE rig: tests that need real ibverbs and rdma_cm run inside QEMU
# guests started by tests/vm/run (see the top of that file).  check-vm runs
# the rig's self-test (tests/vm/check); results come back in $(BUILD)/vm-results.
check-vm:
	@mkdir -p $(RESULTS)
	@NDSHIM_VM_BUILD=$(BUILD) tests/vm/check $(RESULTS)/vm.summary
