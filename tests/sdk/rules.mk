# The ND2 SDK as an outside project uses it: `make install` into a DESTDIR
# under $(BUILD) (the rig's guests see the host's / at the same paths),
# then tests/sdk/nd2client.c built with mingw-w64 through the INSTALLED
# nd2.pc only (and tests/sdk/nd2client_cxx.cpp, the C++ way), and run under the installed
# ndrun: here (no RDMA: it must say so cleanly, status 1) by check-sdk,
# and on rxe0 by the rig's suite tests/vm/suites/sdk.sh (check-vm).
SDK_TEST_DIR    := $(BUILD)/tests/sdk
SDK_TEST_PREFIX := /usr
SDK_TEST_ROOT   := $(abspath $(SDK_TEST_DIR))/root
SDK_PKG         := PKG_CONFIG_PATH=$(SDK_TEST_ROOT)$(SDK_TEST_PREFIX)/lib/pkgconfig x86_64-w64-mingw32-pkg-config

.PHONY: sdk-client check-sdk
sdk-client: all $(BUILD)/nd2.pc
	@rm -rf $(SDK_TEST_ROOT)
	@$(MAKE) --no-print-directory install DESTDIR=$(SDK_TEST_ROOT) PREFIX=$(SDK_TEST_PREFIX) >/dev/null
	$(call quiet,MINGW,tests/sdk/nd2client.c)$(MINGW_CC) -std=gnu11 -O2 -Wall -Wextra -Werror \
		-o $(SDK_TEST_DIR)/nd2client.exe tests/sdk/nd2client.c $$($(SDK_PKG) --cflags --libs nd2)
	$(call quiet,MINGWXX,tests/sdk/nd2client_cxx.cpp)$(MINGW_CXX) -O2 -Wall -Wextra -Werror \
		-o $(SDK_TEST_DIR)/nd2client-cxx.exe tests/sdk/nd2client_cxx.cpp -static $$($(SDK_PKG) --cflags --libs nd2)

check-sdk: sdk-client
	@mkdir -p $(RESULTS)
	@tests/sdk/run "$(SDK_PKG)" $(SDK_TEST_ROOT)$(SDK_TEST_PREFIX) $(SDK_TEST_DIR) $(RESULTS)/sdk.summary

# The same with the ASan+UBSan ndrun (build-asan/) installed.
.PHONY: check-sdk-asan
check-sdk-asan:
	$(call asan_suite,sdk)

# The rig runs the client on rxe0.
vm-parts: sdk-client
