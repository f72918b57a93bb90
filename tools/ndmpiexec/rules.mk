# ndmpiexec: MS-MPI's mpiexec options onto srun or mpiexec.hydra, each
# rank under ndrun (tools/ndmpiexec/main.c; build/ndmpiexec beside
# build/ndrun, PREFIX/bin/ndmpiexec).  Host gcc; of ndrun's objects it
# needs only core/selfpath.c (to find the ndrun beside it).
NDMPIEXEC := $(BUILD)/ndmpiexec
NDMPIEXEC_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tools/ndmpiexec/*.c)) $(BUILD)/obj/winapi-shim/core/selfpath.o

$(NDMPIEXEC): $(NDMPIEXEC_OBJS)
	$(call quiet,LD,$@)$(CC) $(HOST_LDFLAGS) -o $@ $^

all: $(NDMPIEXEC)

# The unit test drives the parser and the translation alone.
$(BUILD)/tests/unit/test_ndmpiexec: tools/ndmpiexec/job.c tools/ndmpiexec/translate.c
