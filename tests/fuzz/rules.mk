# Fuzzing the PE loader: its parsing in process (tests/fuzz/fuzz_pe.c, a
# libFuzzer target over pe-loader/pe_image.c and pe-loader/pe_dirs.c), and
# the whole load -- mapping, relocations, TLS, import binding, the entry --
# with ndrun itself run on damaged programs, a child each
# (tests/fuzz/load_fuzz.c).
#
#   make fuzz [FUZZ_SECONDS=60]  both, each for that long; not part of
#                   `make check`.
#   make fuzz-parse the libFuzzer half: built with clang (installed through
#                   scripts/install-deps --fuzz if missing).  Seeds:
#                   tests/fuzz/corpus, the malformed corpus and the small
#                   built test PE files; new inputs go to $(BUILD)/fuzz/corpus,
#                   crashes to $(BUILD)/fuzz/crashes/ (copy them into
#                   tests/fuzz/regress).
#   make fuzz-load  the whole-load half: damaged copies of
#                   tests/fuzz/seeds/load_seed.c (with and without its symbol
#                   table) and of the malformed corpus's control programs;
#                   findings (ndrun killed by a signal, "internal error", a
#                   refusal that is not one line) go to
#                   $(BUILD)/fuzz/load/crashes/ with their stderr (copy the
#                   fixed ones into tests/fuzz/regress-load), runs that
#                   outlive 5 s to $(BUILD)/fuzz/load/hangs/.
#   make check-pefuzz  the libFuzzer target built by the host compiler,
#                   replayed on tests/fuzz/corpus and tests/fuzz/regress, and
#                   ndrun run on every file of tests/fuzz/regress-load (a
#                   suite of `make check`, and under ASan+UBSan as
#                   pefuzz-asan).
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

LOAD_FUZZ  := $(FUZZ_DIR)/load_fuzz
LOAD_SEEDS := $(FUZZ_DIR)/load_seed.exe $(FUZZ_DIR)/load_seed_stripped.exe

$(LOAD_FUZZ): tests/fuzz/load_fuzz.c
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -o $@ $<

$(FUZZ_DIR)/load_seed.exe: tests/fuzz/seeds/load_seed.c
	@mkdir -p $(@D)
	$(MINGW_CC) $(PE_CFLAGS) -o $@ $<
$(FUZZ_DIR)/load_seed_stripped.exe: tests/fuzz/seeds/load_seed.c
	@mkdir -p $(@D)
	$(MINGW_CC) $(PE_CFLAGS) -s -o $@ $<

.PHONY: fuzz fuzz-parse fuzz-run fuzz-load check-pefuzz check-pefuzz-asan
fuzz: fuzz-parse fuzz-load

fuzz-parse:
	@scripts/install-deps --fuzz
	@$(MAKE) --no-print-directory fuzz-run

fuzz-load: $(LOAD_FUZZ) $(LOAD_SEEDS) $(MALFORMED_GEN) $(NDRUN)
	@rm -rf $(FUZZ_DIR)/load-seeds && mkdir -p $(FUZZ_DIR)/load-seeds
	@$(MALFORMED_GEN) $(FUZZ_DIR)/load-seeds >/dev/null
	$(LOAD_FUZZ) --ndrun $(NDRUN) --seconds $(FUZZ_SECONDS) --out $(FUZZ_DIR)/load \
		$(LOAD_SEEDS) $(FUZZ_DIR)/load-seeds/control-*.exe

# Seeds are regenerated each run; only what the fuzzer adds is kept.
fuzz-run: $(FUZZ_DIR)/fuzz_pe $(MALFORMED_GEN) pe-tests
	@rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	@$(MALFORMED_GEN) $(FUZZ_DIR)/seeds/malformed >/dev/null
	@find $(PE_BIN) -maxdepth 1 \( -name '*.exe' -o -name '*.dll' \) -size -256k \
		-exec cp {} $(FUZZ_DIR)/seeds/ \;
	$(FUZZ_DIR)/fuzz_pe -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=262144 \
		-use_value_profile=1 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/crashes/ \
		$(FUZZ_DIR)/corpus tests/fuzz/corpus $(FUZZ_DIR)/seeds $(FUZZ_DIR)/seeds/malformed

check-pefuzz: $(FUZZ_DIR)/replay $(LOAD_FUZZ) $(NDRUN)
	@mkdir -p $(RESULTS)
	@rc=0; tests/fuzz/run $(FUZZ_DIR)/replay $(RESULTS)/pefuzz-parse.summary tests/fuzz/corpus \
		tests/fuzz/regress || rc=1; \
	$(LOAD_FUZZ) --ndrun $(NDRUN) --replay --summary $(RESULTS)/pefuzz-load.summary \
		tests/fuzz/regress-load/*.exe || rc=1; \
	cat $(RESULTS)/pefuzz-parse.summary $(RESULTS)/pefuzz-load.summary | \
		awk '{ p += $$1; f += $$2; s += $$3 } END { print p, f, s }' > $(RESULTS)/pefuzz.summary; \
	rm -f $(RESULTS)/pefuzz-parse.summary $(RESULTS)/pefuzz-load.summary; exit $$rc

check-pefuzz-asan:
	$(call asan_suite,pefuzz)
