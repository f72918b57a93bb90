# check-trace: NDSHIM_DEBUG's line format and +relay on a real program
# (samples/sysinfo.exe): every call from PE code into a builtin shows with
# its arguments and its return with the result, the program's own output
# is unchanged, the include/exclude lists work, and with relay off no
# thunk is handed out; +nd on nd2prov.dll's methods (tests/pe/nd2prov_host).
.PHONY: check-trace
check-trace: $(NDRUN) $(BUILD)/samples/sysinfo.exe $(PE_BIN)/nd2prov_host.exe $(ND2PE_DLL)
	@mkdir -p $(RESULTS)
	@tests/trace/run $(NDRUN) $(BUILD)/samples/sysinfo.exe $(PE_BIN)/nd2prov_host.exe $(RESULTS)/trace.summary

# The same under the ASan+UBSan build (build-asan/): tracing formats every
# argument of every call, the widest path through ndrun's own code.
.PHONY: check-trace-asan
check-trace-asan:
	$(call asan_suite,trace)
