# nd2prov.dll's rig programs (mingw), run under ndrun inside the Soft-RoCE
# guests by tests/vm/suites/nd2prov.sh and nd2peer.sh.
ND2_RIG := $(BUILD)/tests/nd2/nd2prov_rig.exe
ND2_PEER_RIG := $(BUILD)/tests/nd2/nd2peer_rig.exe

ND2_RIG_HEADERS := include/ndspi.h include/nddef.h include/ndstatus.h

# ndcheck.c, ndctl.c and ndcatalog.c: what every rig program shares (checks,
# waits, the control connection, finding the provider).
ND2_RIG_COMMON := tests/nd2/ndcheck.c tests/nd2/ndcheck.h tests/nd2/ndctl.c tests/nd2/ndctl.h \
		  tests/nd2/ndcatalog.c tests/nd2/ndcatalog.h

$(ND2_RIG): tests/nd2/nd2prov_rig.c $(ND2_RIG_COMMON) $(ND2_RIG_HEADERS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -o $@ $(filter %.c,$^) -lws2_32 -luuid

$(ND2_PEER_RIG): tests/nd2/nd2peer_rig.c tests/nd2/nd2peer_rdma.c tests/nd2/nd2peer_overrun.c tests/nd2/nd2peer.h $(ND2_RIG_COMMON) $(ND2_RIG_HEADERS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -o $@ $(filter %.c,$^) -lws2_32 -luuid

all: $(ND2_RIG) $(ND2_PEER_RIG)
vm-parts: $(ND2PE_DLL) $(ND2_RIG) $(ND2_PEER_RIG)

# The ND v1 objects' rig program (tests/vm/suites/nd1.sh).
ND1_RIG := $(BUILD)/tests/nd2/nd1_rig.exe

$(ND1_RIG): tests/nd2/nd1_rig.c $(ND2_RIG_COMMON) $(ND2_RIG_HEADERS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -o $@ $(filter %.c,$^) -lws2_32 -luuid

all: $(ND1_RIG)
vm-parts: $(ND1_RIG)

# Every documented ND2 return code a client can cause by misuse
# (tests/vm/suites/nd2status.sh, docs/nd2-status.md).
ND2STATUS_RIG := $(BUILD)/tests/nd2/nd2status_rig.exe

ND2STATUS_SRCS := tests/nd2/nd2status_rig.c tests/nd2/nd2status_objects.c tests/nd2/nd2status_qp.c \
		   tests/nd2/nd2status_cm.c tests/nd2/nd2status_release.c tests/nd2/nd2status_regs.c tests/nd2/ndcheck.c \
		   tests/nd2/ndcatalog.c

$(ND2STATUS_RIG): $(ND2STATUS_SRCS) tests/nd2/nd2status.h tests/nd2/ndcheck.h tests/nd2/ndcatalog.h $(ND2_RIG_HEADERS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -Itests/nd2 -o $@ $(ND2STATUS_SRCS) -lws2_32 -luuid

all: $(ND2STATUS_RIG)
vm-parts: $(ND2STATUS_RIG)

# Shared receive queues and CQ notification (tests/vm/suites/nd2srq.sh).
ND2_SRQ_RIG := $(BUILD)/tests/nd2/nd2srq_rig.exe

$(ND2_SRQ_RIG): tests/nd2/nd2srq_rig.c $(ND2_RIG_COMMON) $(ND2_RIG_HEADERS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -Itests/nd2 -o $@ $(filter %.c,$^) -lws2_32 -luuid

all: $(ND2_SRQ_RIG)
vm-parts: $(ND2_SRQ_RIG)
# The fault rig (tests/vm/suites/ndfault.sh) and the soak (make soak):
# their own mains over nd2peer_rig.c's helpers.
NDFAULT_RIG := $(BUILD)/tests/nd2/ndfault_rig.exe
NDSOAK_RIG := $(BUILD)/tests/nd2/ndsoak_rig.exe
NDFAULT_DEPS := tests/nd2/ndfault_flow.c tests/nd2/nd2peer_rig.c tests/nd2/ndfault.h tests/nd2/nd2peer.h $(ND2_RIG_COMMON) \
		$(ND2_RIG_HEADERS)

$(NDFAULT_RIG): tests/nd2/ndfault_rig.c $(NDFAULT_DEPS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -DND2PEER_NO_MAIN -o $@ $(filter %.c,$^) -lws2_32 -luuid

$(NDSOAK_RIG): tests/nd2/ndsoak_rig.c $(NDFAULT_DEPS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -DND2PEER_NO_MAIN -o $@ $(filter %.c,$^) -lws2_32 -luuid

all: $(NDFAULT_RIG) $(NDSOAK_RIG)
vm-parts: $(NDFAULT_RIG)

# The provider behaviours Microsoft's SDK tools found (tests/vm/suites/nd2sdk.sh):
# a main of its own over nd2peer_rig.c's helpers.
ND2SDK_RIG := $(BUILD)/tests/nd2/nd2sdk_rig.exe

$(ND2SDK_RIG): tests/nd2/nd2sdk_rig.c $(NDFAULT_DEPS)
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -DND2PEER_NO_MAIN -o $@ $(filter-out tests/nd2/ndfault_flow.c,$(filter %.c,$^)) -lws2_32 -luuid

all: $(ND2SDK_RIG)
vm-parts: $(ND2SDK_RIG)
