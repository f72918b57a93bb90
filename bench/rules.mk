# Benchmarks: each prints its numbers next to a baseline measured in the
# same run, and the ratio against its target.  `make bench` runs them all;
# targets are reported, not asserted (timing belongs here, not in tests).
#
#   bench/iocp_throughput.c  host: the port between two Linux threads vs a
#                            mutex+condvar queue
#   bench/pe/*.c             mingw: winbench.exe (ports, events, pipes) and
#                            hello.exe (start-up), run by bench/run under
#                            ndrun and wine64
#   bench/native/native.c    host: the same operations on Linux directly
#   bench/iocp_source.c      host: a CQ-like channel's event reaching a
#                            port's waiter through a reader thread vs read
#                            by the waiter itself (a wake source)
#
#   make bench BENCH_ARGS="--rounds 3 --ms 50"   arguments for bench/run
BENCH_BIN := $(BUILD)/bench
BENCH_ARGS ?=
BENCH_HOST := $(BENCH_BIN)/iocp_throughput
BENCH_SOURCE := $(BENCH_BIN)/iocp_source
BENCH_PE := $(BENCH_BIN)/winbench.exe $(BENCH_BIN)/hello.exe

$(BENCH_BIN)/iocp_throughput: bench/iocp_throughput.c $(LIBNDSHIM)
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -o $@ $< $(HOST_LDFLAGS) \
		-Wl,--whole-archive $(LIBNDSHIM) -Wl,--no-whole-archive $(HOST_LIBS)

$(BENCH_SOURCE): bench/iocp_source.c $(LIBNDSHIM)
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -o $@ $< $(HOST_LDFLAGS) \
		-Wl,--whole-archive $(LIBNDSHIM) -Wl,--no-whole-archive $(HOST_LIBS)

# The native side links nothing of ndshim.
$(BENCH_BIN)/native: bench/native/native.c
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) $(HOST_CFLAGS) -MF $@.d -o $@ $< $(HOST_LDFLAGS)

$(BENCH_BIN)/%.exe: bench/pe/%.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$@)$(MINGW_CC) $(PE_CFLAGS) -o $@ $<

bench: $(BENCH_HOST) $(BENCH_SOURCE) $(BENCH_BIN)/native $(BENCH_PE) $(NDRUN)
	@echo "== iocp_throughput"
	@$(BENCH_HOST)
	@echo "== iocp_source"
	@$(BENCH_SOURCE)
	@echo "== host benchmarks (bench/run)"
	@bench/run --bindir $(BENCH_BIN) --ndrun $(NDRUN) $(BENCH_ARGS)

# ND2 in Soft-RoCE guests (tests/vm/run), docs/PERFORMANCE.md "ND2":
#   bench-vm       one guest (three vCPUs: NDSHIM_VM_SMP, bench/vm/perftest.sh
#                  says where each program runs): ndpingpong against
#                  ib_send_lat, polling and blocking, size by size
#                  (bench/vm/nd2lat.sh)
#                  BENCH_VM_ARGS="--reps 5 --iters 1000 --sizes '2 64 4096'"
#                  then, in a second guest, ndrdma against ib_write_bw,
#                  ib_read_bw, ib_write_lat and ib_read_lat (-e for blocking)
#                  (bench/vm/nd2rdma.sh), BENCH_VM_RDMA_ARGS="--reps 3
#                  --bw-iters 200 --bw-sizes '4096 65536' --lat-sizes '2 64'"
#   bench-vm-cost  one guest: instructions per ND2 call under callgrind
#                  (bench/vm/nd2calls.sh, split on the host by
#                  bench/vm/callgrind-split), and provider start-up against
#                  BENCH_VM_REF_SO, another build of nd2prov_unix.so
BENCH_VM_ARGS ?=
BENCH_VM_RDMA_ARGS ?=
BENCH_VM_ITERS ?= 1000
BENCH_VM_REF_SO ?=
# tsc=reliable: TCG's rdtsc is the host's TSC, but the guest kernel cannot
# verify that and falls back to the HPET, a slow emulated clock on which
# perftest's CPU-frequency estimate fails (its tables then print inf).
BENCH_VM_ENV = NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_SMP=$${NDSHIM_VM_SMP:-3} \
	NDSHIM_VM_APPEND=$${NDSHIM_VM_APPEND-tsc=reliable} \
	NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-3600}
.PHONY: bench-vm bench-vm-cost
bench-vm: all $(ND2UNIX_SO)
	@rc=0; $(BENCH_VM_ENV) tests/vm/run bench/vm/nd2lat.sh $(BENCH_VM_ARGS) || rc=1; \
	$(BENCH_VM_ENV) tests/vm/run bench/vm/nd2rdma.sh $(BENCH_VM_RDMA_ARGS) || rc=1; exit $$rc

bench-vm-cost: all $(ND2UNIX_SO)
	@rc=0; $(BENCH_VM_ENV) tests/vm/run bench/vm/nd2cost.sh $(BENCH_VM_ITERS) $(BENCH_VM_REF_SO) || rc=1; \
	for m in polling blocking notify; do \
		bench/vm/callgrind-split $(BUILD)/vm-results/bench-vm/callgrind-$$m.out $(BENCH_VM_ITERS) $$m || rc=1; \
	done; exit $$rc

# The same two calls on the host, each alone against fake verbs, to the
# instruction (bench/nd2calls_host.c, bench/nd2calls-host).
$(BENCH_BIN)/nd2calls_host: bench/nd2calls_host.c nd2provider/unix/nd_unix.h nd2provider/unix_call.h
	@mkdir -p $(@D)
	$(call quiet,CCLD,$@)$(CC) -std=gnu11 -O2 -g $(WARN) -Wno-missing-field-initializers -D_GNU_SOURCE \
		-I. -Iinclude -Ind2provider/unix -o $@ $< -ldl

.PHONY: bench-nd2-host
bench-nd2-host: $(BENCH_BIN)/nd2calls_host $(ND2UNIX_SO)
	@bench/nd2calls-host $(BENCH_BIN)/nd2calls_host $(ND2UNIX_SO)

# make bench-mpi (docs/PERFORMANCE.md "MPI"): the OSU micro-benchmarks
# with two ranks across the two Soft-RoCE guests and on one, MS-MPI under
# ndshim against the same benchmarks built for Linux with Open MPI
# (bench/mpi/bench-mpi.sh, two vCPUs per guest for the shared-memory
# figures).  BENCH_MPI_ARGS="--reps 3 --native 'ofi tcp' --lat-iters 20"
# (bench/mpi/bench-mpi.sh lists its options: --benches, --placements, ...)
BENCH_MPI_ARGS ?=
BENCH_MPI_OSU_ARCHIVE ?= $(firstword $(wildcard ../shared/third_party/osu-micro-benchmarks-5.3-993f966.tar.gz \
	../../shared/third_party/osu-micro-benchmarks-5.3-993f966.tar.gz \
	/work/shared/third_party/osu-micro-benchmarks-5.3-993f966.tar.gz))
BENCH_MPI_LINUX := $(BUILD)/bench-mpi/openmpi

$(BENCH_MPI_LINUX)/osu_latency: bench/mpi/build-osu-linux $(BENCH_MPI_OSU_ARCHIVE)
	@test -n "$(BENCH_MPI_OSU_ARCHIVE)" || { echo "bench-mpi: no osu-micro-benchmarks archive in ../shared/third_party" >&2; exit 1; }
	$(call quiet,OSU,$(@D))bench/mpi/build-osu-linux $(BENCH_MPI_OSU_ARCHIVE) mpicc.openmpi $(@D)

.PHONY: bench-mpi
bench-mpi: all $(ND2UNIX_SO) $(BENCH_MPI_LINUX)/osu_latency
	@NDSHIM_VM_BUILD=$(BUILD) NDSHIM_VM_SMP=$${NDSHIM_VM_SMP:-2} NDSHIM_VM_APPEND=$${NDSHIM_VM_APPEND-tsc=reliable} \
		NDSHIM_VM_TIMEOUT=$${NDSHIM_VM_TIMEOUT:-7200} \
		tests/vm/run --two bench/mpi/bench-mpi.sh bench/mpi/bench-mpi.sh $(BENCH_MPI_ARGS)
