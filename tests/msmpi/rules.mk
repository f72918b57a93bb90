# MS-MPI as a test fixture: msmpi.dll built from MS-MPI's MIT source
# (tests/msmpi/build), MPI programs built with mingw-w64 against its mpi.h,
# run under ndrun.  Not part of `make all` or the product.
#
#   make msmpi          $(BUILD)/msmpi/msmpi.dll, include/mpi.h, libmsmpi.a
#                       (cached: rebuilt only when the archive, the build
#                       script or its inputs change; a fresh build takes
#                       minutes)
#   make check-msmpi    the MPI programs as singletons (no launcher), and
#                       two ranks under mpiexec.hydra (PMI-1 and PMI-2)
#
# NDSHIM_THIRD_PARTY is where the shared archives are (../shared/third_party
# beside the clone; tests/ndsdk/rules.mk reads the same variable).
NDSHIM_THIRD_PARTY ?= $(firstword $(wildcard ../shared/third_party ../../shared/third_party /work/shared/third_party))
MSMPI_ARCHIVE := $(NDSHIM_THIRD_PARTY)/Microsoft-MPI-f2d849f.tar.gz
OSU_ARCHIVE   := $(NDSHIM_THIRD_PARTY)/osu-micro-benchmarks-5.3-993f966.tar.gz
MSMPI_DIR     := $(BUILD)/msmpi
MSMPI_DLL     := $(MSMPI_DIR)/msmpi.dll
MSMPI_INPUTS  := tests/msmpi/build tests/msmpi/msmpi.patch tests/msmpi/gen-trace-header \
                 tests/msmpi/async-stubs tests/msmpi/server-ifspecs \
                 tests/msmpi/compat/msmpi_compat.h tests/msmpi/compat/warning.h \
                 $(wildcard tests/msmpi/glue/*)

.PHONY: msmpi check-msmpi
msmpi: $(MSMPI_DLL)

$(MSMPI_DLL): $(wildcard $(MSMPI_ARCHIVE)) $(MSMPI_INPUTS) $(SDK_LIB)
	@[ -r $(MSMPI_ARCHIVE) ] || { echo "msmpi: MS-MPI's source archive $(MSMPI_ARCHIVE) is not here: set NDSHIM_THIRD_PARTY to the folder that holds it (../shared/third_party)" >&2; exit 1; }
	@ND2_LIB=$(abspath $(SDK_LIB)) tests/msmpi/build $(MSMPI_ARCHIVE) $(MSMPI_DIR) 2

# ---- MPI programs ------------------------------------------------------------
MPI_BIN   := $(BUILD)/tests/msmpi
MPI_PROGS := $(patsubst tests/msmpi/progs/%.c,$(MPI_BIN)/%.exe,$(wildcard tests/msmpi/progs/*.c))
MPI_CFLAGS := -O2 -Wall -Wextra -Werror -I$(MSMPI_DIR)/include

$(MPI_BIN)/%.exe: tests/msmpi/progs/%.c tests/msmpi/progs/mpicheck.h $(MSMPI_DLL)
	@mkdir -p $(@D)
	$(call quiet,MINGWCC,$<)$(MINGW_CC) $(MPI_CFLAGS) -o $@ $< $(MSMPI_DIR)/libmsmpi.a -lrpcrt4

# ---- the OSU micro-benchmarks --------------------------------------------------
OSU_DIR   := $(MSMPI_DIR)/osu
OSU_STAMP := $(OSU_DIR)/.built

$(OSU_STAMP): $(wildcard $(OSU_ARCHIVE)) tests/msmpi/build-osu tests/msmpi/compat/osu_compat.h $(MSMPI_DLL)
	@tests/msmpi/build-osu $(OSU_ARCHIVE) $(MSMPI_DIR) $(OSU_DIR)
	@touch $@

# ---- the suite ---------------------------------------------------------------------
check-msmpi: $(NDRUN) $(MSMPI_DLL) $(MPI_PROGS) $(OSU_STAMP)
	@mkdir -p $(RESULTS)
	@tests/msmpi/run $(NDRUN) $(MPI_BIN) $(OSU_DIR) $(MSMPI_DLL) $(RESULTS)/msmpi.summary

# The rig's msmpind suite (tests/vm/suites/msmpind.sh) runs these programs
# with msmpi.dll over ND in the guests.
vm-parts: $(MPI_PROGS)

# check-cluster's Ctrl-C and lost-node jobs run MS-MPI ranks (tests/cluster/rig.sh).
check-cluster: $(MPI_PROGS)
