# Benchmarks: each prints its numbers next to a baseline measured in the
# same run, and the ratio against its target.  `make bench` runs them all;
# targets are reported, not asserted (timing belongs here, not in tests).
BENCH_SRCS := $(wildcard bench/*.c)
BENCHES := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))

$(BUILD)/bench/%: bench/%.c $(LIBNDSHIM)
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -o $@ $< $(HOST_LDFLAGS) \
		-Wl,--whole-archive $(LIBNDSHIM) -Wl,--no-whole-archive $(HOST_LIBS)

bench: $(BENCHES)
	@for b in $(BENCHES); do echo "== $$(basename $$b)"; $$b || exit 1; done
