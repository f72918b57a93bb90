# ndinfo: a small Linux program beside ndrun (build/ndinfo, PREFIX/bin/ndinfo)
# that runs samples/ndinfo.exe under it and explains an empty result
# (tools/ndinfo/main.c).  Host gcc; it needs only core/selfpath.c of
# ndrun's objects, and libibverbs is dlopen'ed, not linked.
NDINFO := $(BUILD)/ndinfo
NDINFO_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tools/ndinfo/*.c)) $(BUILD)/obj/winapi-shim/core/selfpath.o

$(NDINFO): $(NDINFO_OBJS)
	$(call quiet,LD,$@)$(CC) $(HOST_LDFLAGS) -o $@ $^ -ldl

all: $(NDINFO)

# The unit test of the diagnosis stands in for the machine.
$(BUILD)/tests/unit/test_ndinfo_diagnose: tools/ndinfo/diagnose.c
