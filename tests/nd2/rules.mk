# nd2prov.dll's rig program (mingw), run under ndrun inside the Soft-RoCE
# guests by tests/vm/suites/nd2prov.sh.
ND2_RIG := $(BUILD)/tests/nd2/nd2prov_rig.exe

$(ND2_RIG): tests/nd2/nd2prov_rig.c include/ndspi.h include/nddef.h include/ndstatus.h
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -o $@ $< -lws2_32 -luuid

all: $(ND2_RIG)
check-vm: $(ND2PE_DLL) $(ND2_RIG)

# The ND v1 objects' rig program (tests/vm/suites/nd1.sh).
ND1_RIG := $(BUILD)/tests/nd2/nd1_rig.exe

$(ND1_RIG): tests/nd2/nd1_rig.c include/ndspi.h include/nddef.h include/ndstatus.h
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) -std=gnu11 $(PE_CFLAGS) -o $@ $< -lws2_32 -luuid

all: $(ND1_RIG)
check-vm: $(ND1_RIG)
