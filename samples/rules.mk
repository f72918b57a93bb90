# Samples: Windows programs built with mingw-w64 into $(BUILD)/samples/.
#
#   samples/<name>.c      C program    -> $(BUILD)/samples/<name>.exe
#   samples/<name>.cpp    ND2 client   -> $(BUILD)/samples/<name>.exe, C++ like
#                         Microsoft's samples, runtime linked in (-static),
#                         with samples/common/*.cpp (small helpers) and the
#                         ND2 SDK's libnd2.a (provider discovery, sdk/)
#   samples/<name>/*.cpp  parts of <name>.exe alone (a sample past ~1,000 lines)
#
# `make demo` is the README's main job: ndinfo and ndpingpong between two
# Soft-RoCE guests (samples/demo.sh through tests/vm/run --two).
SAMPLES := $(patsubst samples/%.c,$(BUILD)/samples/%.exe,$(wildcard samples/*.c)) \
           $(patsubst samples/%.cpp,$(BUILD)/samples/%.exe,$(wildcard samples/*.cpp))
SAMPLES_COMMON := $(patsubst samples/%.cpp,$(BUILD)/samples/%.o,$(wildcard samples/common/*.cpp))
SAMPLES_CXXFLAGS := $(PE_CXXFLAGS) -D_WIN32_WINNT=0x0601 -Isamples

$(BUILD)/samples/%.exe: samples/%.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(PE_CFLAGS) -o $@ $<

$(BUILD)/samples/common/%.o: samples/common/%.cpp $(wildcard samples/common/*.h include/*.h)
	@mkdir -p $(@D)
	$(call quiet,MINGWXX,$<)$(MINGW_CXX) $(SAMPLES_CXXFLAGS) -c -o $@ $<

# samples/<name>/*.cpp: the parts of <name>.exe alone, for a sample too
# big for one file (samples/ndrdma/).
SAMPLE_PART_DIRS := $(filter-out common,$(patsubst samples/%/,%,$(sort $(dir $(wildcard samples/*/*.cpp)))))
define sample_parts
$(BUILD)/samples/$(1).exe: SAMPLE_PARTS := $(patsubst samples/%.cpp,$(BUILD)/samples/%.o,$(wildcard samples/$(1)/*.cpp))
$(BUILD)/samples/$(1).exe: $(patsubst samples/%.cpp,$(BUILD)/samples/%.o,$(wildcard samples/$(1)/*.cpp)) $(wildcard samples/$(1)/*.h)
$(BUILD)/samples/$(1)/%.o: samples/$(1)/%.cpp $(wildcard samples/$(1)/*.h samples/common/*.h include/*.h)
	@mkdir -p $$(@D)
	$$(call quiet,MINGWXX,$$<)$$(MINGW_CXX) $$(SAMPLES_CXXFLAGS) -c -o $$@ $$<
endef
$(foreach d,$(SAMPLE_PART_DIRS),$(eval $(call sample_parts,$(d))))

$(BUILD)/samples/%.exe: samples/%.cpp $(SAMPLES_COMMON) $(SDK_LIB) $(wildcard samples/common/*.h include/*.h)
	@mkdir -p $(@D)
	$(call quiet,MINGWXX,$<)$(MINGW_CXX) $(SAMPLES_CXXFLAGS) -static -o $@ $< $(SAMPLE_PARTS) $(SAMPLES_COMMON) $(SDK_LIB) -lws2_32 -luuid

.SECONDARY: $(SAMPLES_COMMON) $(foreach d,$(SAMPLE_PART_DIRS),$(patsubst samples/%.cpp,$(BUILD)/samples/%.o,$(wildcard samples/$(d)/*.cpp)))
all: $(SAMPLES)

# sysinfo runs on this machine; the ND2 samples need RDMA, which only the
# rig's guests have.  `make demo` (top Makefile) installs the packages first,
# then runs this in a second make.
demo-run: all $(ND2UNIX_SO)
	$(NDRUN) $(BUILD)/samples/sysinfo.exe "hello from Linux" 42
	@echo
	NDSHIM_VM_BUILD=$(BUILD) tests/vm/run --two samples/demo.sh samples/demo.sh

# What runs without RDMA: ndmesh's shared-memory part (samples/check-host).
.PHONY: check-samples
check-samples: all
	@mkdir -p $(RESULTS) $(BUILD)/tests/pe/wineprefix
	@samples/check-host $(NDRUN) $(BUILD)/samples $(RESULTS)/samples.summary $(abspath $(BUILD))/tests/pe/wineprefix

# ndmesh's ND2 part is C against the SDK (libnd2.a: NdStartup, NdOpenAdapter).
$(BUILD)/samples/ndmesh.exe: samples/ndmesh.c samples/ndmesh/nd.c samples/ndmesh/nd.h $(SDK_LIB) $(wildcard include/*.h)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(PE_CFLAGS) -Isamples -o $@ samples/ndmesh.c samples/ndmesh/nd.c $(SDK_LIB) -lws2_32 -luuid
