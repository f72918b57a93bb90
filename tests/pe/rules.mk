# Win32 conformance programs, built with mingw-w64 and run under ndrun and
# under wine64 (the oracle for real Windows behaviour) by tests/pe/run.
#
#   tests/pe/<name>.c        C program    -> $(BUILD)/tests/pe/<name>.exe
#   tests/pe/<name>.cpp      C++ program  -> $(BUILD)/tests/pe/<name>.exe (-static)
#   tests/pe/dlls/<name>.c   test DLL     -> $(BUILD)/tests/pe/<name>.dll, beside the
#                            programs, with tests/pe/dlls/<name>.def when present, and
#                            an import library $(BUILD)/tests/pe/lib<name>.dll.a
#   tests/pe/tests.list      what to run: runners, expected exit code, env, args
#
#   make check-pe                        every program under ndrun and wine64
#   make check-pe PE_RUNNERS=wine64      one runner only (ndrun or wine64)
#   make check-pe PE_TESTS="tls dll_load"  some programs only
#   make check-pe WINE64=/path/to/wine64 a wine64 that is not on PATH
PE_BIN  := $(BUILD)/tests/pe
PE_SRC  := tests/pe
PE_RUNNERS ?= ndrun wine64
PE_TESTS ?=

PE_C_PROGS   := $(patsubst $(PE_SRC)/%.c,$(PE_BIN)/%.exe,$(wildcard $(PE_SRC)/*.c))
PE_CXX_PROGS := $(patsubst $(PE_SRC)/%.cpp,$(PE_BIN)/%.exe,$(wildcard $(PE_SRC)/*.cpp))
PE_DLLS      := $(patsubst $(PE_SRC)/dlls/%.c,$(PE_BIN)/%.dll,$(wildcard $(PE_SRC)/dlls/*.c))
PE_MSVC_PROGS := $(patsubst $(PE_SRC)/msvc/%.cpp,$(PE_BIN)/%.exe,$(wildcard $(PE_SRC)/msvc/*.cpp))
PE_ALL       := $(PE_C_PROGS) $(PE_CXX_PROGS) $(PE_DLLS) $(PE_MSVC_PROGS)

# ---- special cases -----------------------------------------------------------
$(PE_BIN)/unicode_wmain.exe: PE_EXTRA := -municode

# dll_load imports impdll.dll at load time, delaydll.dll through a delay-load
# import library, and loads the others with LoadLibraryW at run time.
$(PE_BIN)/dll_load.exe: PE_EXTRA := -L$(PE_BIN) -limpdll -ldelaydll_delay
$(PE_BIN)/dll_load.exe: $(PE_BIN)/libimpdll.dll.a $(PE_BIN)/libdelaydll_delay.a $(PE_DLLS)

# dll_search copies fakesys.dll beside a copy of itself under system DLLs' names.
$(PE_BIN)/dll_search.exe: $(PE_BIN)/fakesys.dll

# The delay-load import library comes from the DLL's .def, as for a DLL
# whose sources one does not have.
$(PE_BIN)/lib%_delay.a: $(PE_SRC)/dlls/%.def
	@mkdir -p $(@D)
	$(MINGW_DLLTOOL) --input-def $< --dllname $*.dll --output-delaylib $@

# apiset_unknown imports a function of an API set nobody implements,
# through an import library made from a .def.
$(PE_BIN)/apiset_unknown.exe: PE_EXTRA := $(PE_BIN)/libapiset_nosuch.a
$(PE_BIN)/apiset_unknown.exe: $(PE_BIN)/libapiset_nosuch.a
$(PE_BIN)/libapiset_nosuch.a: $(PE_SRC)/dlls/apiset_nosuch.def
	@mkdir -p $(@D)
	$(MINGW_DLLTOOL) --input-def $< --output-lib $@

# The misuse programs catch access violations with tests/pe/catch_av.h.
$(PE_BIN)/misuse_io.exe $(PE_BIN)/misuse_sync.exe $(PE_BIN)/builtin_fault.exe $(PE_BIN)/callback_fault.exe: $(PE_SRC)/catch_av.h
# The process tests talk to their children in lines: tests/pe/pipe_lines.h.
$(PE_BIN)/process_dupsync.exe $(PE_BIN)/process_killed.exe: $(PE_SRC)/pipe_lines.h
# The process tests start and end their children with tests/pe/self_child.h
# (process_duphandle's lines through pipe_lines.h too).
$(PE_BIN)/process_duphandle.exe $(PE_BIN)/process_dupport.exe: $(PE_SRC)/pipe_lines.h
$(PE_BIN)/process_duphandle.exe $(PE_BIN)/process_killed.exe $(PE_BIN)/process_create.exe \
	$(PE_BIN)/process_job.exe $(PE_BIN)/process_memory.exe $(PE_BIN)/process_dupsync.exe \
	$(PE_BIN)/env_windows.exe $(PE_BIN)/process_dupport.exe: $(PE_SRC)/self_child.h
# The timer tests' callbacks and polling: tests/pe/timer_probe.h.
$(PE_BIN)/threadpool_timer.exe $(PE_BIN)/timer_queue.exe: $(PE_SRC)/timer_probe.h

# dll_directory copies impdll.dll into a folder of its own.
$(PE_BIN)/dll_directory.exe: $(PE_DLLS)
# free_library_exit loads impdll.dll from beside itself.
$(PE_BIN)/free_library_exit.exe: $(PE_DLLS)

# sysdll_standin imports a function of a system DLL ndrun lacks (avicap32),
# sysdll_private one of a DLL nobody has, through import libraries made
# from .def files.
$(PE_BIN)/sysdll_standin.exe: PE_EXTRA := $(PE_BIN)/libsysdll_gui.a
$(PE_BIN)/sysdll_standin.exe: $(PE_BIN)/libsysdll_gui.a
$(PE_BIN)/sysdll_private.exe: PE_EXTRA := $(PE_BIN)/libsysdll_private.a
$(PE_BIN)/sysdll_private.exe: $(PE_BIN)/libsysdll_private.a
$(PE_BIN)/libsysdll_gui.a: $(PE_SRC)/dlls/sysdll_gui.def
	@mkdir -p $(@D)
	$(MINGW_DLLTOOL) --input-def $< --output-lib $@
$(PE_BIN)/libsysdll_private.a: $(PE_SRC)/dlls/sysdll_private.def
	@mkdir -p $(@D)
	$(MINGW_DLLTOOL) --input-def $< --output-lib $@

# synch_address imports WaitOnAddress from api-ms-win-core-synch-l1-2-0.dll.
$(PE_BIN)/synch_address.exe: PE_EXTRA := -lsynchronization

# Winsock programs link ws2_32 (and mswsock for AcceptEx by name); the ND
# discovery program loads the stand-in provider DLL at run time.
$(PE_BIN)/ws2_%.exe: PE_EXTRA := -lws2_32 -lmswsock
$(PE_BIN)/ws2_nd_discovery.exe: $(PE_BIN)/ndprov_stub.dll
$(PE_BIN)/overlapped_event_rule.exe: PE_EXTRA := -lws2_32

# The provider's host conformance program finds nd2prov.dll through the
# catalog's default entry, beside ndrun.
$(PE_BIN)/nd2prov_host.exe: PE_EXTRA := -lws2_32 -luuid
check-pe: $(ND2PE_DLL)

# bcrypt for BCryptGenRandom; WaitOnAddress through the API set, as MSVC
# programs import it.
$(PE_BIN)/crypto_rng.exe: PE_EXTRA := -lbcrypt
$(PE_BIN)/crypto_advapi.exe $(PE_BIN)/privileges.exe $(PE_BIN)/etw_provider.exe: PE_EXTRA := -ladvapi32
# rpcrt4 and ntdsapi through their import libraries.
$(PE_BIN)/rpc_%.exe: PE_EXTRA := -lrpcrt4
$(PE_BIN)/ntdsapi_spn.exe: PE_EXTRA := -lntdsapi
$(PE_BIN)/wait_on_address.exe: PE_EXTRA := -lsynchronization

# The system DLLs' programs (winapi-shim/<dll>/, docs/SYSTEM-DLLS.md) link
# the DLLs they test.
$(PE_BIN)/com_basics.exe: PE_EXTRA := -lole32 -loleaut32 -luuid
$(PE_BIN)/oleaut_bstr.exe $(PE_BIN)/oleaut_variant.exe $(PE_BIN)/oleaut_errorinfo.exe: PE_EXTRA := -loleaut32 -lole32
$(PE_BIN)/shell_cmdline.exe $(PE_BIN)/shell_folders.exe $(PE_BIN)/shell_execute.exe: PE_EXTRA := -lshell32 -lole32 -luuid
$(PE_BIN)/userenv_profile.exe: PE_EXTRA := -luserenv -ladvapi32
$(PE_BIN)/secur32_username.exe: PE_EXTRA := -lsecur32
$(PE_BIN)/winmm_time.exe: PE_EXTRA := -lwinmm
$(PE_BIN)/powrprof_cpu.exe: PE_EXTRA := -lpowrprof
$(PE_BIN)/netapi32_join.exe: PE_EXTRA := -lnetapi32
$(PE_BIN)/wsock32_basics.exe: PE_EXTRA := -lwsock32
$(PE_BIN)/iphlpapi_adapters.exe: PE_EXTRA := -liphlpapi -lws2_32
$(PE_BIN)/shlwapi_path.exe $(PE_BIN)/shlwapi_url.exe: PE_EXTRA := -lshlwapi
$(PE_BIN)/pathcch.exe: PE_EXTRA := -lpathcch
$(PE_BIN)/crypt32_base64.exe $(PE_BIN)/crypt32_store.exe: PE_EXTRA := -lcrypt32
$(PE_BIN)/dbghelp_stack.exe: PE_EXTRA := -ldbghelp
$(PE_BIN)/pdh_query.exe: PE_EXTRA := -lpdh
# version_info reads its own version resource (version_info.rc) and
# checks that impdll.dll has none.
$(PE_BIN)/version_info.exe: PE_EXTRA := -lversion $(PE_BIN)/version_info.res.o
$(PE_BIN)/version_info.exe: $(PE_BIN)/version_info.res.o $(PE_BIN)/impdll.dll
$(PE_BIN)/%.res.o: $(PE_SRC)/%.rc
	@mkdir -p $(@D)
	x86_64-w64-mingw32-windres $< -O coff -o $@

# ---- MSVC-ABI C++ programs ---------------------------------------------------
# tests/pe/msvc/<name>.cpp are compiled as MSVC compiles C++ (clang in MSVC
# mode: __CxxFrameHandler3, _CxxThrowException, RTTI descriptors, catch
# funclets) and linked with lld-link against vcruntime140.dll and
# ucrtbase.dll (and kernel32.dll) through import libraries made from
# .def files.  There is
# no MSVC SDK and no CRT startup (clang, lld and llvm come from
# scripts/install-deps): the programs declare what they use
# (msvc/msvc_test.h) and start at test_main.  lld 14 places the import
# directory unaligned inside .rdata, as Windows accepts: so do the
# programs' loaders (ndrun and wine64).
PE_MSVC_CXX := clang++ --target=x86_64-pc-windows-msvc
PE_MSVC_CXXFLAGS := -std=c++17 -O1 -fms-extensions -fexceptions -fcxx-exceptions -fno-stack-protector \
	-Wall -Wextra -Werror
PE_MSVC_LIBS := $(PE_BIN)/msvc/vcruntime140.lib $(PE_BIN)/msvc/vcruntime140_1.lib $(PE_BIN)/msvc/ucrtbase.lib \
	$(PE_BIN)/msvc/kernel32.lib

$(PE_BIN)/msvc/%.lib: $(PE_SRC)/msvc/%.def
	@mkdir -p $(@D)
	llvm-dlltool -m i386:x86-64 -d $< -l $@

$(PE_BIN)/msvc/%.obj: $(PE_SRC)/msvc/%.cpp $(PE_SRC)/msvc/msvc_test.h
	@mkdir -p $(@D)
	$(PE_MSVC_CXX) $(PE_MSVC_CXXFLAGS) -c -o $@ $<

# Assembly for what clang cannot emit (msvc_fh4: __CxxFrameHandler4 tables).
$(PE_BIN)/msvc/%.obj: $(PE_SRC)/msvc/%.S
	@mkdir -p $(@D)
	$(PE_MSVC_CXX) -c -o $@ $<
$(PE_BIN)/msvc_fh4.exe: $(PE_BIN)/msvc/msvc_fh4_tables.obj
$(PE_BIN)/msvc_fh4_noexcept.exe: $(PE_BIN)/msvc/msvc_fh4_noexcept_tables.obj

# msvc_eh again, its C++ support taken from msvcrt.dll (_CxxThrowException,
# __CxxFrameHandler3 ...), as programs of older MSVC versions import it.
$(PE_BIN)/msvc/msvc_eh_msvcrt.obj: $(PE_SRC)/msvc/msvc_eh.cpp $(PE_SRC)/msvc/msvc_test.h
	@mkdir -p $(@D)
	$(PE_MSVC_CXX) $(PE_MSVC_CXXFLAGS) -DMSVC_EH_NAME='"msvc_eh_msvcrt"' -c -o $@ $<
$(PE_BIN)/msvc_eh_msvcrt.exe: $(PE_BIN)/msvc/msvc_eh_msvcrt.obj $(PE_BIN)/msvc/msvcrt.lib $(PE_BIN)/msvc/kernel32.lib
	lld-link /nologo /entry:test_main /subsystem:console /nodefaultlib /out:$@ $^
PE_ALL += $(PE_BIN)/msvc_eh_msvcrt.exe

$(PE_MSVC_PROGS): $(PE_BIN)/%.exe: $(PE_BIN)/msvc/%.obj $(PE_MSVC_LIBS)
	lld-link /nologo /entry:test_main /subsystem:console /nodefaultlib \
		/out:$@ $(filter %.obj,$^) $(PE_MSVC_LIBS)

# ---- generic rules -----------------------------------------------------------
$(PE_BIN)/%.exe: $(PE_SRC)/%.c $(PE_SRC)/test.h
	@mkdir -p $(@D)
	$(MINGW_CC) $(PE_CFLAGS) -o $@ $< $(PE_EXTRA)

# C++ programs carry their runtime (libstdc++, libgcc, winpthreads) inside.
$(PE_BIN)/%.exe: $(PE_SRC)/%.cpp $(PE_SRC)/test.h
	@mkdir -p $(@D)
	$(MINGW_CXX) $(PE_CXXFLAGS) -static -o $@ $< $(PE_EXTRA)

# A DLL exports what its .def lists (ordinals, forwarders), else what its
# source marks __declspec(dllexport).
$(PE_BIN)/%.dll $(PE_BIN)/lib%.dll.a: $(PE_SRC)/dlls/%.c $(wildcard $(PE_SRC)/dlls/*.def)
	@mkdir -p $(@D)
	$(MINGW_CC) $(PE_CFLAGS) -shared -o $(PE_BIN)/$*.dll $< \
		$(wildcard $(PE_SRC)/dlls/$*.def) -Wl,--out-implib,$(PE_BIN)/lib$*.dll.a

.PHONY: pe-tests
pe-tests: $(PE_ALL)

check-pe: $(PE_ALL) $(if $(filter ndrun,$(PE_RUNNERS)),$(NDRUN))
	@mkdir -p $(RESULTS)
	@tests/pe/run --bindir $(PE_BIN) --ndrun $(NDRUN) --runners "$(PE_RUNNERS)" \
		--wineprefix $(PE_BIN)/wineprefix $(if $(WINE64),--wine64 $(WINE64)) \
		--summary $(RESULTS)/pe.summary $(PE_TESTS)

# The programs again under the ASan+UBSan build of ndrun (build-asan/), as
# their own suite of `make check`; wine64 does not take part (its runs
# are listed as skipped).
.PHONY: check-pe-asan
check-pe-asan: $(PE_ALL)
	@$(MAKE) --no-print-directory SANITIZE=1 build-asan/ndrun build-asan/nd2prov.dll
	@mkdir -p $(RESULTS)
	@tests/pe/run --bindir $(PE_BIN) --ndrun build-asan/ndrun --runners ndrun \
		--wineprefix $(PE_BIN)/wineprefix --summary $(RESULTS)/pe-asan.summary $(PE_TESTS)

# ---- programs against the UCRT -----------------------------------------------
# tests/pe/ucrt_*.c link ucrtbase through the api-ms-win-crt-* API sets, as
# MSVC /MD programs do: mingw-w64's own specs with -lmsvcrt replaced by
# -lucrt (its libucrt.a imports the API-set DLLs), and _UCRT for the headers.
PE_UCRT_SPECS := $(PE_BIN)/ucrt.specs
PE_UCRT_PROGS := $(patsubst $(PE_SRC)/%.c,$(PE_BIN)/%.exe,$(wildcard $(PE_SRC)/ucrt_*.c))

$(PE_UCRT_SPECS):
	@mkdir -p $(@D)
	$(MINGW_CC) -dumpspecs | sed 's/-lmsvcrt/-lucrt/g' > $@.tmp
	@grep -q -- -lucrt $@.tmp || { echo "$@: mingw-w64's specs do not link -lmsvcrt: cannot build UCRT programs" >&2; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

# A UCRT program may be an msvcrt one's source included again
# (ucrt_putenv.c is crt_putenv.c): rebuild when any of those changes.
$(PE_UCRT_PROGS): $(PE_BIN)/%.exe: $(PE_SRC)/%.c $(PE_SRC)/test.h $(PE_UCRT_SPECS) $(wildcard $(PE_SRC)/crt_*.c)
	@mkdir -p $(@D)
	$(MINGW_CC) $(PE_CFLAGS) -D_UCRT -specs=$(PE_UCRT_SPECS) -o $@ $< $(PE_EXTRA)
# ucrt_stop_flush.c is stop_flush.c.
$(PE_BIN)/ucrt_stop_flush.exe: $(PE_SRC)/stop_flush.c

# C++ programs against the UCRT: g++'s own specs, the same substitution.
# Debian's winpthreads (linked in by the posix g++) was built against
# msvcrt and calls _setjmp, which mingw-w64's libucrt.a lacks; on x64
# vcruntime140.dll exports it, so it comes from there (import library
# from dlls/vcruntime140_setjmp.def).
PE_UCRT_CXX_SPECS := $(PE_BIN)/ucrtxx.specs
PE_UCRT_CXX_PROGS := $(patsubst $(PE_SRC)/%.cpp,$(PE_BIN)/%.exe,$(wildcard $(PE_SRC)/ucrt_*.cpp))

$(PE_UCRT_CXX_SPECS):
	@mkdir -p $(@D)
	$(MINGW_CXX) -dumpspecs | sed 's/-lmsvcrt/-lucrt/g' > $@.tmp
	@grep -q -- -lucrt $@.tmp || { echo "$@: mingw-w64's g++ specs do not link -lmsvcrt: cannot build UCRT programs" >&2; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

$(PE_BIN)/libvcruntime140_setjmp.a: $(PE_SRC)/dlls/vcruntime140_setjmp.def
	@mkdir -p $(@D)
	$(MINGW_DLLTOOL) --input-def $< --output-lib $@

$(PE_UCRT_CXX_PROGS): $(PE_BIN)/%.exe: $(PE_SRC)/%.cpp $(PE_SRC)/test.h $(PE_UCRT_CXX_SPECS) $(PE_BIN)/libvcruntime140_setjmp.a
	@mkdir -p $(@D)
	$(MINGW_CXX) $(PE_CXXFLAGS) -D_UCRT -specs=$(PE_UCRT_CXX_SPECS) -static -o $@ $< \
		-Wl,-u,_setjmp $(PE_BIN)/libvcruntime140_setjmp.a

# ucrt_vcruntime imports vcruntime140.dll as MSVC programs do (mingw-w64
# ships no import library for it): one from a .def, linked first.
$(PE_BIN)/ucrt_vcruntime.exe: PE_EXTRA := $(PE_BIN)/libvcruntime140.a
$(PE_BIN)/ucrt_vcruntime.exe: $(PE_BIN)/libvcruntime140.a
$(PE_BIN)/libvcruntime140.a: $(PE_SRC)/dlls/vcruntime140.def
	@mkdir -p $(@D)
	$(MINGW_DLLTOOL) --input-def $< --output-lib $@
