# check-cli: ndrun's and ndinfo's command lines as a user meets them
# (tests/cli/run): one-line usage errors, program lookup as CreateProcess
# does it, ndinfo's reasons, warnings about bad configuration files, and
# no sockets or segments left behind after exit 125 or a SIGKILL, and an
# MPI rank's output and status under hydra however it ends.
CLI_HELPER := $(BUILD)/tests/cli/cli_helper.exe

$(CLI_HELPER): tests/cli/cli_helper.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(PE_CFLAGS) -o $@ $<

.PHONY: check-cli
check-cli: $(NDRUN) $(NDINFO) $(BUILD)/samples/sysinfo.exe $(BUILD)/samples/ndinfo.exe $(ND2PE_DLL) $(CLI_HELPER) \
	   $(BUILD)/cluster/pmienv.exe
	@mkdir -p $(RESULTS)
	@tests/cli/run $(BUILD) $(RESULTS)/cli.summary
