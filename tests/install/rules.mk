# check-install: `make install` into a temporary DESTDIR with a PREFIX, the
# installed ndrun runs samples from there (and again after the tree is
# moved: nothing is compiled in), then `make uninstall` must leave nothing.
INSTALL_TEST_DIR := $(BUILD)/tests/install

.PHONY: check-install
check-install: all
	@mkdir -p $(RESULTS) $(INSTALL_TEST_DIR)
	@ND_UNIX_BUILT=$(if $(HAVE_RDMA_HEADERS),1,0) tests/install/run "$(MAKE) --no-print-directory BUILD=$(BUILD)" $(INSTALL_TEST_DIR) $(RESULTS)/install.summary

# The same with the ASan+UBSan build (build-asan/) installed and run.
.PHONY: check-install-asan
check-install-asan:
	$(call asan_suite,install)
