# Samples: Windows programs built with mingw-w64 into $(BUILD)/samples/.
# `make demo` is the README's main job.
SAMPLES := $(patsubst samples/%.c,$(BUILD)/samples/%.exe,$(wildcard samples/*.c))

$(BUILD)/samples/%.exe: samples/%.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(PE_CFLAGS) -o $@ $<

all: $(SAMPLES)

demo: deps all
	$(NDRUN) $(BUILD)/samples/sysinfo.exe "hello from Linux" 42
