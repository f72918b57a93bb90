# nd2prov_unix.so: the Linux side of nd2prov.dll, on rdma-core (libibverbs,
# librdmacm).  Built by `make all` when their headers are installed
# (scripts/install-deps --vm); without them ndrun still builds and runs
# ordinary programs, and the provider reports that it has no Linux side.
ND2UNIX_SRCS := $(wildcard nd2provider/unix/*.c)
ND2UNIX_OBJS := $(patsubst %.c,$(BUILD)/obj-pic/%.o,$(ND2UNIX_SRCS))
ND2UNIX_SO   := $(BUILD)/nd2prov_unix.so
ND2UNIX_CFLAGS := -std=gnu11 -O2 -g $(WARN) $(SAN_FLAGS) -fPIC -fvisibility=hidden \
                  -D_GNU_SOURCE -I. -Iinclude -Ind2provider/unix -MMD -MP
HAVE_RDMA_HEADERS := $(and $(wildcard /usr/include/infiniband/verbs.h),$(wildcard /usr/include/rdma/rdma_cma.h))

ifneq ($(HAVE_RDMA_HEADERS),)
all: $(ND2UNIX_SO)

$(BUILD)/obj-pic/nd2provider/unix/%.o: nd2provider/unix/%.c
	@mkdir -p $(@D)
	$(call quiet,CC,$<)$(CC) $(ND2UNIX_CFLAGS) -c $< -o $@

# One exported symbol (nd_unix_entry); everything else stays hidden.
$(ND2UNIX_SO): $(ND2UNIX_OBJS)
	$(call quiet,LD,$@)$(CC) -shared $(SAN_FLAGS) -pthread -Wl,-z,defs -Wl,--no-undefined \
		-o $@ $^ -lrdmacm -libverbs
else
# Targets that need the Linux side (make demo, check-vm) stop here, saying
# why, instead of failing later in a guest with "no adapter".
$(ND2UNIX_SO):
	@echo "make: cannot build $@: rdma-core's headers are not installed" \
	      "(libibverbs-dev, librdmacm-dev): run scripts/install-deps --vm" >&2; exit 1
endif

-include $(shell find $(BUILD)/obj-pic -name '*.d' 2>/dev/null)
-include tests/nd2unix/rules.mk

# The import library PE code links against to call ndshim.dll (ndrun's
# builtin for the provider), made from ndshim.dll's one export list.
NDSHIM_IMPLIB := $(BUILD)/lib/libndshim_pe.a
$(NDSHIM_IMPLIB): winapi-shim/ndshim/ndshim.spec
	@mkdir -p $(@D)
	@{ echo "LIBRARY ndshim.dll"; echo "EXPORTS"; \
	   sed -n 's/^EXPORT[A-Z_]*(\([A-Za-z0-9_]*\).*/\t\1/p' $<; } > $(@D)/ndshim.def
	$(call quiet,DLLTOOL,$@)$(MINGW_DLLTOOL) --input-def $(@D)/ndshim.def --dllname ndshim.dll --output-lib $@

# nd2prov.dll: the provider's PE side (COM objects, argument checks, ND
# semantics), built with mingw-w64 beside ndrun, where the catalog's
# default entry finds it.  It calls ndrun only through ndshim.dll.
ND2PE_SRCS := $(wildcard nd2provider/pe/*.c)
ND2PE_OBJS := $(patsubst %.c,$(BUILD)/obj-pe/%.o,$(ND2PE_SRCS))
ND2PE_DLL  := $(BUILD)/nd2prov.dll
ND2PE_CFLAGS := -std=gnu11 $(PE_CFLAGS) -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes \
                -Wshadow -I. -MMD -MP

all: $(ND2PE_DLL)

$(BUILD)/obj-pe/nd2provider/pe/%.o: nd2provider/pe/%.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(ND2PE_CFLAGS) -c $< -o $@

$(ND2PE_DLL): $(ND2PE_OBJS) nd2provider/pe/nd2prov.def $(NDSHIM_IMPLIB)
	$(call quiet,LD,$@)$(MINGW_CC) -shared -o $@ $(ND2PE_OBJS) nd2provider/pe/nd2prov.def $(NDSHIM_IMPLIB)

-include $(shell find $(BUILD)/obj-pe -name '*.d' 2>/dev/null)
-include tests/nd2/rules.mk
