#!/bin/sh
# make check-long: the nd2rdma suite (tests/vm/suites/nd2rdma.sh) with more
# transfers per size (50 in the latency runs, 64 in the bandwidth streams:
# several rounds of the 32 MiB of slots, each checked, at every size from
# 1 MiB up) and, across two guests, all eight runs.  Run by
# tests/vm/run, on one guest and on two.
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
NDSHIM_ND2RDMA_LAT_ITERS=${NDSHIM_ND2RDMA_LAT_ITERS:-50}
NDSHIM_ND2RDMA_BW_ITERS=${NDSHIM_ND2RDMA_BW_ITERS:-64}
NDSHIM_ND2RDMA_TIMEOUT=${NDSHIM_ND2RDMA_TIMEOUT:-1500}
NDSHIM_ND2RDMA_RUNS_TWO="write-lat-polling:54341:-t_write_-m_lat
write-lat-blocking:54342:-t_write_-m_lat_-b_-r
read-lat-polling:54343:-t_read_-m_lat_-r
read-lat-blocking:54344:-t_read_-m_lat_-b
write-bw-polling:54345:-t_write_-m_bw
write-bw-blocking:54346:-t_write_-m_bw_-b_-r
read-bw-polling:54347:-t_read_-m_bw_-r
read-bw-blocking:54348:-t_read_-m_bw_-b"
. "$NDSHIM_VM_PROJECT/tests/vm/suites/nd2rdma.sh"
vm_finish
