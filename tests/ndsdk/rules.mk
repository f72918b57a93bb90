# Microsoft's NetworkDirect SDK test tools, the reference conformance suite
# for an ND provider, built unmodified from the MIT archive in the shared
# third_party folder (never copied into the tree) and run in the rig.
#
#   make ndsdk         the 14 tools into $(BUILD)/ndsdk/ (a test fixture,
#                      not part of `make all`; rebuilt only when the archive
#                      or this folder changes)
#   make check-ndsdk   all 14 in the Soft-RoCE rig: one guest, then the ping
#                      tools across two (tests/ndsdk/run; docs/ND-CONFORMANCE.md)
#
# The SDK targets MSVC; what mingw-w64 needs besides its sources is here:
# tests/ndsdk/compat.h, forced in front of every file (legacy SAL, windef.h's
# min/max, a FIELD_OFFSET that takes a run-time index), include/coguid.h (a
# header mingw-w64 lacks), msvcrt's printf (%s in wprintf, %I64d, %S:
# __USE_MINGW_ANSI_STDIO=0), and ndstatus.h made with windmc from the SDK's
# ndstatus.mc once each empty message text is given one space (windmc
# refuses empty ones).  Warnings in the SDK's own code are not ours to fix:
# its files build with -w.
NDSHIM_THIRD_PARTY ?= $(firstword $(wildcard ../shared/third_party ../../shared/third_party /work/shared/third_party))
NDSDK_ARCHIVE := $(firstword $(wildcard $(NDSHIM_THIRD_PARTY)/NetworkDirect-*.tar.gz))
NDSDK_DIR := $(BUILD)/ndsdk
NDSDK_SRC := $(NDSDK_DIR)/src/NetworkDirect/src
NDSDK_STAMP := $(NDSDK_DIR)/src/.unpacked

NDSDK_EXAMPLES := ndadapterinfo ndcat ndmrlat ndmrrate ndping ndpingpong ndrping ndrpingpong
NDSDK_UNITTESTS := ndconn ndcq ndmpic ndmval ndmw
NDSDK_MEMTEST := ndconnectlistenerclosing ndconnrejectclose nddualconnection ndduallisten \
	ndinvalidip ndinvalidreadwrite ndlargeprivatedata ndlargeqpdepth ndmemorytest \
	ndmrderegister ndmrinvalidbuffer ndoverreadwrite ndqpmaxall ndreceiveconnectorclosed \
	ndreceiveflushqp ndsendnoreceive ndwriteviolation
NDSDK_TOOLS := $(NDSDK_EXAMPLES) $(NDSDK_UNITTESTS) ndmemorytest
NDSDK_EXES := $(patsubst %,$(NDSDK_DIR)/%.exe,$(NDSDK_TOOLS))

NDSDK_CXXFLAGS := -std=gnu++17 -O2 -w -municode -D__USE_MINGW_ANSI_STDIO=0 -DUNICODE -D_UNICODE \
	-include tests/ndsdk/compat.h -Itests/ndsdk/include -I$(NDSDK_DIR)/gen \
	-I$(NDSDK_SRC)/ndutil -I$(NDSDK_SRC)/examples -I$(NDSDK_SRC)/examples/ndtestutil
NDSDK_LIBS := -lws2_32 -luuid -liphlpapi
NDSDK_DEPS := $(NDSDK_STAMP) $(NDSDK_DIR)/gen/ndstatus.h tests/ndsdk/compat.h tests/ndsdk/include/coguid.h
NDSDK_COMMON := $(patsubst %,$(NDSDK_DIR)/obj/%.o,ndaddr ndfrmwrk ndprov ndtestutil)

$(NDSDK_STAMP): $(NDSDK_ARCHIVE)
	@[ -n "$(NDSDK_ARCHIVE)" ] || { echo "ndsdk: no NetworkDirect-*.tar.gz in '$(NDSHIM_THIRD_PARTY)' (set NDSHIM_THIRD_PARTY)" >&2; exit 1; }
	@rm -rf $(NDSDK_DIR)/src && mkdir -p $(NDSDK_DIR)/src
	$(call quiet,UNTAR,$<)tar -xzf $< -C $(NDSDK_DIR)/src
	@touch $@

$(NDSDK_DIR)/gen/ndstatus.h: $(NDSDK_STAMP)
	@mkdir -p $(@D)
	@sed -e '/^Language=English$$/{n;s/^\.$$/ \n./}' $(NDSDK_SRC)/ndutil/ndstatus.mc > $(@D)/ndstatus.mc
	$(call quiet,WINDMC,ndstatus.mc)cd $(@D) && x86_64-w64-mingw32-windmc -h . -r . ndstatus.mc

# $(call ndsdk_obj,NAME,SOURCE-DIR[,EXTRA-FLAGS])
define ndsdk_obj
$(NDSDK_DIR)/obj/$(1).o: $(NDSDK_DEPS)
	@mkdir -p $$(@D)
	$$(call quiet,MINGWXX,$(1).cpp)$$(MINGW_CXX) $$(NDSDK_CXXFLAGS) $(3) -c -o $$@ $$(NDSDK_SRC)/$(2)/$(1).cpp
endef
$(foreach n,ndaddr ndfrmwrk ndprov,$(eval $(call ndsdk_obj,$(n),ndutil)))
$(eval $(call ndsdk_obj,ndtestutil,examples/ndtestutil))
# ndrpingpong spins on its own buffer's last byte, which it does not declare
# volatile: an optimising build reads it once and spins for ever.
$(foreach n,$(filter-out ndrpingpong,$(NDSDK_EXAMPLES)),$(eval $(call ndsdk_obj,$(n),examples/$(n))))
$(eval $(call ndsdk_obj,ndrpingpong,examples/ndrpingpong,-O0))
$(foreach n,$(NDSDK_UNITTESTS),$(eval $(call ndsdk_obj,$(n),unittests/$(n))))
$(foreach n,$(NDSDK_MEMTEST),$(eval $(call ndsdk_obj,$(n),unittests/ndmemorytest)))

$(NDSDK_DIR)/ndmemorytest.exe: $(patsubst %,$(NDSDK_DIR)/obj/%.o,$(NDSDK_MEMTEST)) $(NDSDK_COMMON)
	$(call quiet,LINK,$@)$(MINGW_CXX) -municode -static -o $@ $^ $(NDSDK_LIBS)

$(NDSDK_DIR)/%.exe: $(NDSDK_DIR)/obj/%.o $(NDSDK_COMMON)
	$(call quiet,LINK,$@)$(MINGW_CXX) -municode -static -o $@ $^ $(NDSDK_LIBS)

.PHONY: ndsdk check-ndsdk
ndsdk: $(NDSDK_EXES)

check-ndsdk: ndsdk all $(ND2UNIX_SO)
	@mkdir -p $(RESULTS)
	@NDSHIM_VM_BUILD=$(BUILD) tests/ndsdk/run $(RESULTS)/ndsdk.summary

# check-vm runs the fast part (tests/vm/suites/ndsdk.sh): the tools are among the rig's parts.
vm-parts: ndsdk
