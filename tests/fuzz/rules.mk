# Fuzzing the PE loader's parsing (tests/fuzz/fuzz_pe.c, a libFuzzer target
# over pe-loader/pe_image.c and pe-loader/pe_dirs.c).
#
#   make fuzz [FUZZ_SECONDS=60]  build with clang (installed through
#                   scripts/install-deps --fuzz if missing) and fuzz for that
#                   long; not part of `make check`.  Seeds: tests/fuzz/corpus,
#                   the malformed corpus and the small built test PE files;
#                   new inputs go to $(BUILD)/fuzz/corpus, crashes to
#                   $(BUILD)/fuzz/crashes/ (copy them into tests/fuzz/regress).
#   make check-pefuzz  the same target built by the host compiler, replayed
#                   on tests/fuzz/corpus and tests/fuzz/regress (a suite of
#                   `make check`, and under ASan+UBSan as pefuzz-asan).
FUZZ_SECONDS ?= 60
FUZZ_DIR  := $(BUILD)/fuzz
FUZZ_SRCS := tests/fuzz/fuzz_pe.c pe-loader/pe_image.c pe-loader/pe_dirs.c
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter -fno-strict-aliasing \
               -D_GNU_SOURCE -DWIN32_LEAN_AND_MEAN -Ipe-loader -Iinclude -isystem $(WINE_INC)

$(FUZZ_DIR)/fuzz_pe: $(FUZZ_SRCS) pe-loader/pe_image.h pe-loader/pe_dirs.h
	@mkdir -p $(@D)
	$(call quiet,CLANG,$@)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -o $@ $(FUZZ_SRCS)

$(FUZZ_DIR)/replay: tests/fuzz/replay.c $(FUZZ_SRCS) pe-loader/pe_image.h pe-loader/pe_dirs.h
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -o $@ tests/fuzz/replay.c $(FUZZ_SRCS) $(HOST_LDFLAGS)

.PHONY: fuzz fuzz-run check-pefuzz check-pefuzz-asan
fuzz:
	@scripts/install-deps --fuzz
	@$(MAKE) --no-print-directory fuzz-run

# Seeds are regenerated each run; only what the fuzzer adds is kept.
fuzz-run: $(FUZZ_DIR)/fuzz_pe $(MALFORMED_GEN) pe-tests
	@rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	@$(MALFORMED_GEN) $(FUZZ_DIR)/seeds/malformed >/dev/null
	@find $(PE_BIN) -maxdepth 1 \( -name '*.exe' -o -name '*.dll' \) -size -256k \
		-exec cp {} $(FUZZ_DIR)/seeds/ \;
	$(FUZZ_DIR)/fuzz_pe -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=262144 \
		-use_value_profile=1 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/crashes/ \
		$(FUZZ_DIR)/corpus tests/fuzz/corpus $(FUZZ_DIR)/seeds $(FUZZ_DIR)/seeds/malformed

check-pefuzz: $(FUZZ_DIR)/replay
	@mkdir -p $(RESULTS)
	@tests/fuzz/run $(FUZZ_DIR)/replay $(RESULTS)/pefuzz.summary tests/fuzz/corpus tests/fuzz/regress

check-pefuzz-asan:
	$(call asan_suite,pefuzz)
