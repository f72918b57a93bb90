# check-docs: every command the README shows that can run on a plain
# machine is run against an installation of this build (DESTDIR under
# $(BUILD), PREFIX /usr/local as the README says), its output compared
# where the README shows output; `ndrun --help`, the man pages and the
# README's variable table are checked against the code (tests/docs/).
DOCS_TEST_ROOT := $(abspath $(BUILD))/tests/docs/root

.PHONY: check-docs
check-docs: all $(if $(SDK_LIB),$(BUILD)/nd2.pc)
	@mkdir -p $(RESULTS)
	@rm -rf $(DOCS_TEST_ROOT)
	@$(MAKE) --no-print-directory install DESTDIR=$(DOCS_TEST_ROOT) PREFIX=/usr/local >/dev/null
	@tests/docs/run . $(DOCS_TEST_ROOT) $(BUILD) $(RESULTS)/docs.summary; rc=$$?; rm -rf $(DOCS_TEST_ROOT); exit $$rc
