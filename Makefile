# ndshim top-level build.
#
#   make               ndrun (host gcc) and every PE part (mingw-w64) into $(BUILD)
#   make check         every test suite; prints one "N passed, N failed" total
#   make check-unit    cmocka unit tests of the Linux-side code
#   make check-pe      Win32 conformance programs under ndrun (and wine64)
#   make check-malformed  the malformed-PE corpus under ndrun (-asan: ASan+UBSan ndrun)
#   make check-pefuzz  the PE fuzz target replayed on its corpus and crash regressions
#   make fuzz          libFuzzer on the PE parser and ndrun on damaged programs (the
#                      whole load), FUZZ_SECONDS=60 each (not part of check)
#   make check-vm      Soft-RoCE rig tests inside QEMU guests
#   make check-real    the corpus of real Windows programs from npm (tests/real/,
#                      docs/REAL-CORPUS.md); CI runs it as a step of its own
#   make check-long    long rig runs kept out of make check (a 500,000-write RDMA stream)
#   make demo          the main job: a Windows program under ndrun
#   make check-fresh   `make demo` and the host suites from a clean clone in a
#                      fresh Debian 12 chroot (root; not part of `make check`)
#   make install       PREFIX=/usr/local DESTDIR=  (dist/rules.mk); make uninstall
#   make check-install install into a temporary DESTDIR, run from there, uninstall
#   make check-trace   NDSHIM_DEBUG's format and +relay on a sample
#   make check-cli     ndrun's and ndinfo's command lines, warnings, nothing left behind
#   make check-docs    the README's commands and outputs; help, man pages and README agree
#   make check-sdk     the installed ND2 SDK from the outside (tests/sdk/)
#   make check-binfmt  ndrun --register/--unregister (binfmt_misc; skipped where impossible)
#   make ndsdk         Microsoft's NetworkDirect SDK test tools (a fixture; tests/ndsdk/)
#   make check-ndsdk   the 14 SDK tools in the rig, one guest and two (docs/ND-CONFORMANCE.md)
#   make SANITIZE=1    the same, with ASan+UBSan, into build-asan/
#
# Suites live in their own folders and bring their own rules (*/rules.mk);
# this file only holds the toolchains, the flags and the ndrun link.

BUILD ?= build
ifeq ($(SANITIZE),1)
BUILD := build-asan
# Not UBSan's null checks: a builtin handed NULL by the program faults on
# it, as Windows' DLLs do, and the fault handler makes that the program's
# access violation (ntdll/hostfault.c); a report would stop it instead.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize=null,nonnull-attribute -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
endif

VERSION := 0.1.0

CC        := gcc
MINGW_CC  := x86_64-w64-mingw32-gcc
MINGW_CXX := x86_64-w64-mingw32-g++-posix
MINGW_DLLTOOL := x86_64-w64-mingw32-dlltool
WINE_INC  := /usr/include/wine/wine/windows

WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wmissing-prototypes \
        -Wstrict-prototypes -Wshadow

# Host code sees Win32 types through the Wine headers (WINAPI = ms_abi).
HOST_CFLAGS := -std=gnu11 -O2 -g $(WARN) $(SAN_FLAGS) -fno-strict-aliasing \
               -D_GNU_SOURCE -DWIN32_LEAN_AND_MEAN -DNDSHIM_VERSION='"$(VERSION)"' \
               -I. -Ipe-loader -Iwinapi-shim -Iinclude -isystem $(WINE_INC) \
               -MMD -MP
HOST_LDFLAGS := $(SAN_FLAGS) -pthread
HOST_LIBS := -ldl -lm

PE_CFLAGS   := -O2 -g -Wall -Wextra -Werror -Iinclude
PE_CXXFLAGS := -std=gnu++17 $(PE_CFLAGS)

.DEFAULT_GOAL := all
.PHONY: all deps check check-suites check-unit check-pe check-malformed check-vm check-real \
        demo demo-run check-fresh bench clean

# ---- ndrun and the builtin DLLs --------------------------------------------
LOADER_SRCS := $(wildcard pe-loader/*.c)
SHIM_SRCS   := $(wildcard winapi-shim/*.c winapi-shim/*/*.c)
SHIM_ASM    := $(wildcard winapi-shim/*/*.S pe-loader/*.S)

HOST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out pe-loader/main.c,$(LOADER_SRCS)) $(SHIM_SRCS)) \
             $(patsubst %.S,$(BUILD)/obj/%.o,$(SHIM_ASM))
NDRUN     := $(BUILD)/ndrun
LIBNDSHIM := $(BUILD)/libndshim.a

# `make V=1` shows the full commands.
ifneq ($(V),1)
Q = @
quiet = @printf '  %-7s %s\n' $(1) $(2);
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(call quiet,CC,$<)$(CC) $(HOST_CFLAGS) -c $< -o $@

# The x64 unwinder reads the program's stack wherever its rsp points (a
# damaged program's may point into ndrun's own heap), each read behind a
# fault probe (ntdll/faultret.c): memory ASan does not own the layout of,
# so ASan does not check that file's reads (UBSan still does).
ifeq ($(SANITIZE),1)
$(BUILD)/obj/winapi-shim/ntdll/unwind.o: HOST_CFLAGS += -fno-sanitize=address
endif

$(BUILD)/obj/%.o: %.S
	@mkdir -p $(@D)
	$(call quiet,AS,$<)$(CC) $(HOST_CFLAGS) -c $< -o $@

# The object list as a file rewritten only when it changes: a source
# deleted (or renamed) must rebuild the archive, or its old object stays
# in it and clashes with the code that replaced it.
.PHONY: FORCE
FORCE:
$(BUILD)/host_objs.list: FORCE
	@mkdir -p $(@D)
	@echo $(HOST_OBJS) | cmp -s - $@ || echo $(HOST_OBJS) > $@

$(LIBNDSHIM): $(HOST_OBJS) $(BUILD)/host_objs.list
	@rm -f $@
	$(call quiet,AR,$@)ar rcs $@ $(HOST_OBJS)

# The whole library goes in: builtin export tables are reached only through
# the registry, which the linker cannot see from main.o alone.
$(NDRUN): $(BUILD)/obj/pe-loader/main.o $(LIBNDSHIM)
	$(call quiet,LD,$@)$(CC) $(HOST_LDFLAGS) -o $@ $< -Wl,--whole-archive $(LIBNDSHIM) -Wl,--no-whole-archive $(HOST_LIBS)

all: $(NDRUN)

deps:
	@scripts/install-deps $(if $(filter check check-vm demo,$(MAKECMDGOALS)),--vm)

# The README's two commands install what they need, then do the work in a
# second make.  make reads this file before deps runs, and some decisions are
# taken while reading it (whether rdma-core's headers exist, and so whether
# nd2prov_unix.so is built): a first run on a fresh machine must not take
# them from the machine as it was before the install.
check: deps
	@$(MAKE) --no-print-directory check-suites

demo: deps
	@$(MAKE) --no-print-directory demo-run

# A clean clone in a debootstrapped Debian 12 chroot (cached under build/)
# runs `make demo`, then `make check-unit check-pe`, as a new user would.
check-fresh:
	@tests/fresh/run

# ---- suites ------------------------------------------------------------------
RESULTS := $(BUILD)/results

# $(call asan_suite,NAME): the recipe of check-NAME-asan: check-NAME run in
# the ASan+UBSan build (build-asan/), its result filed as NAME-asan.
define asan_suite
	@mkdir -p $(RESULTS)
	@rm -f build-asan/results/$(1).summary
	@$(MAKE) --no-print-directory SANITIZE=1 check-$(1); rc=$$?; \
	if [ -r build-asan/results/$(1).summary ]; then \
		cp build-asan/results/$(1).summary $(RESULTS)/$(1)-asan.summary; fi; exit $$rc
endef
-include tests/unit/rules.mk
-include tests/pe/rules.mk
-include tests/malformed/rules.mk
-include tests/fuzz/rules.mk
-include tests/vm/rules.mk
-include tests/cluster/rules.mk
-include tests/real/rules.mk
-include nd2provider/rules.mk
-include sdk/rules.mk
-include samples/rules.mk
-include tools/ndinfo/rules.mk
-include tools/ndmpiexec/rules.mk
-include tests/cli/rules.mk
-include tests/docs/rules.mk
-include bench/rules.mk
-include dist/rules.mk
-include tests/install/rules.mk
-include tests/binfmt/rules.mk
-include tests/trace/rules.mk
-include tests/sdk/rules.mk
-include tests/msmpi/rules.mk
-include tests/ndsdk/rules.mk

# The real-program corpus (check-real-online, check-real-asan) is not in
# make check: it downloads ~370 MB and takes minutes, which would push
# make check past its 20 minutes; .ci/run runs it as a step of its own.
# make check runs its suites in three lanes side by side (tests/lanes), after
# building what they share on every core (check-parts): the rig's guests
# (lane 1, with check-sdk, whose installation its sdk suite reads), the
# conformance programs (lane 2: pe and pe-asan run the same programs in
# the same folder, so one after the other) and the rest (lane 3).  One
# after another they took 27 minutes on 2 cores; most of the rig's and of
# check-pe's time is waiting.
#
# The lanes are opt-in (CHECK_LANES=3): on 2 cores they save little
# (1,008 s against 1,060 s one suite after another, both on an idle
# machine, building included), because the rig's guests and check-pe
# then share the cores and each takes longer.  (They had a failure of
# their own: the rig's two-guest ib_send_lat pair, REJECTED on every try;
# the self-test's pairs now retry as pairs, tests/vm/selftest/common.sh,
# issue 27.)  By default make check runs its suites in SUITES order, in
# one lane.
CHECK_JOBS ?= $(shell nproc)
CHECK_LANES ?= 1
ifeq ($(CHECK_LANES),3)
CHECK_LANE_LISTS = "$(CHECK_LANE_RIG)" "$(CHECK_LANE_PE)" "$(CHECK_LANE_HOST)"
else ifeq ($(CHECK_LANES),1)
CHECK_LANE_LISTS = "$(SUITES)"
else
$(error CHECK_LANES is 1 (one suite after another) or 3 (three lanes side by side))
endif
CHECK_LANE_RIG  := sdk vm
CHECK_LANE_PE   := pe pe-asan samples cli trace trace-asan binfmt
CHECK_LANE_HOST := unit unit-asan unit-valgrind msmpi install install-asan docs malformed malformed-asan \
                   pefuzz pefuzz-asan sdk-asan
SUITES := unit unit-asan unit-valgrind pe pe-asan malformed malformed-asan pefuzz pefuzz-asan trace trace-asan cli docs \
          install install-asan sdk sdk-asan binfmt samples msmpi vm

ifneq ($(sort $(SUITES)),$(sort $(CHECK_LANE_RIG) $(CHECK_LANE_PE) $(CHECK_LANE_HOST)))
$(error Makefile: every suite of SUITES goes in exactly one CHECK_LANE_*)
endif

# What more than one lane builds, and what the rig runs, built once on
# every core before any lane starts: two makes building one file at once
# would race, and a guest must never see its ndrun relinked under it.  What
# one lane alone builds (the PE programs, the unit tests) is left to it:
# the rig's lane is the longest, and it starts sooner.
.PHONY: check-parts check-parts-here
check-parts-here: all $(NDINFO) $(NDMPIEXEC) $(if $(SDK_LIB),$(BUILD)/nd2.pc)
check-parts: check-parts-here vm-parts
	@$(MAKE) --no-print-directory SANITIZE=1 check-parts-here

check-suites:
	@rm -f $(RESULTS)/*.summary $(RESULTS)/durations
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-parts
	@rc=0; tests/lanes $(RESULTS) "$(MAKE) --no-print-directory" $(CHECK_LANE_LISTS) || rc=1; \
	tests/summarize $(RESULTS) $(SUITES) || rc=1; exit $$rc

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
