# The malformed-PE corpus: tests/malformed/gen (a host program) builds a
# valid PE32+ exe and DLLs in memory, writes them as control cases, then
# writes one broken file per defect into $(BUILD)/tests/malformed/corpus;
# tests/malformed/run runs each under ndrun and checks the error.
# `make SANITIZE=1 check-malformed` does the same with build-asan/ndrun.
MALFORMED_DIR := $(BUILD)/tests/malformed
MALFORMED_GEN := $(MALFORMED_DIR)/gen

$(MALFORMED_GEN): tests/malformed/gen.c tests/malformed/pe_builder.c tests/malformed/pe_builder.h
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -Itests/malformed -o $@ \
		tests/malformed/gen.c tests/malformed/pe_builder.c $(HOST_LDFLAGS)

check-malformed: $(MALFORMED_GEN) $(NDRUN)
	@rm -rf $(MALFORMED_DIR)/corpus
	@$(MALFORMED_GEN) $(MALFORMED_DIR)/corpus
	@mkdir -p $(RESULTS)
	@tests/malformed/run $(NDRUN) $(MALFORMED_DIR)/corpus $(RESULTS)/malformed.summary

# The same corpus against an ASan+UBSan build of ndrun (build-asan/), as
# its own suite of `make check`: bad input must not even trip a sanitizer.
.PHONY: check-malformed-asan
check-malformed-asan:
	$(call asan_suite,malformed)
