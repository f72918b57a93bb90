# check-binfmt: ndrun --register / --unregister with binfmt_misc, where the
# machine allows it (root, binfmt_misc mountable); otherwise the cases say
# why and count as skipped.
.PHONY: check-binfmt
check-binfmt: all
	@mkdir -p $(RESULTS) $(BUILD)/tests/binfmt
	@tests/binfmt/run $(NDRUN) $(BUILD)/samples $(BUILD)/tests/binfmt $(RESULTS)/binfmt.summary
