# The rig as a small cluster (docs/TESTING.md): Slurm, hydra and
# ndmpiexec starting ranks across the two Soft-RoCE guests.
#
#   $(BUILD)/cluster/pmienv.exe   a Windows rank that prints its PMI
#                                 environment (tests/cluster/pmienv.c)
CLUSTER_BIN := $(BUILD)/cluster
CLUSTER_PE := $(CLUSTER_BIN)/pmienv.exe

$(CLUSTER_BIN)/%.exe: tests/cluster/%.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(PE_CFLAGS) -o $@ $<

all: $(CLUSTER_PE)

# make check-cluster (not in make check, whose whole must stay under 20
# minutes; .ci/run runs it): tests/cluster/rig.sh across two guests.
.PHONY: check-cluster
check-cluster: all $(ND2UNIX_SO)
	@mkdir -p $(RESULTS)
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-5400} tests/cluster/check $(RESULTS)/cluster.summary
