# cmocka unit tests: every tests/unit/test_<name>.c is one program, linked
# against libndshim.a (the host objects of ndrun minus main.o).
# `make check-unit VALGRIND=1` runs each under valgrind's memcheck.
# Every tests/unit/helper_*.c is linked into each test program.
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))
UNIT_HELPERS := $(wildcard tests/unit/helper_*.c)

# A test may list more sources as extra prerequisites (below); every .c
# prerequisite is compiled into it, with the helpers.
$(BUILD)/tests/unit/%: tests/unit/%.c $(UNIT_HELPERS) $(LIBNDSHIM)
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -Itests/unit -Itests/malformed -o $@ $(filter %.c,$^) $(HOST_LDFLAGS) \
		-Wl,--whole-archive $(LIBNDSHIM) -Wl,--no-whole-archive -lcmocka $(HOST_LIBS)

# The PE image builder of the malformed-file corpus makes the test images.
$(BUILD)/tests/unit/test_pe_image $(BUILD)/tests/unit/test_imports $(BUILD)/tests/unit/test_check: tests/malformed/pe_builder.c

.PHONY: unit-tests
unit-tests: $(UNIT_TESTS)

check-unit: $(UNIT_TESTS)
	@mkdir -p $(RESULTS)
	@tests/unit/run $(RESULTS)/unit.summary $(if $(filter 1,$(VALGRIND)),--valgrind) $(UNIT_TESTS)

# The same programs under valgrind's memcheck, and built with ASan+UBSan
# (build-asan/), as suites of their own in `make check`.
.PHONY: check-unit-valgrind check-unit-asan
check-unit-valgrind: $(UNIT_TESTS)
	@mkdir -p $(RESULTS)
	@tests/unit/run $(RESULTS)/unit-valgrind.summary --valgrind $(UNIT_TESTS)

check-unit-asan:
	$(call asan_suite,unit)
