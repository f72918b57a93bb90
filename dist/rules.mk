# make install / make uninstall: the usual places under $(DESTDIR)$(PREFIX).
#
#   bin/ndrun                          the loader (builtin DLLs are inside it)
#   bin/ndinfo                         runs samples/ndinfo.exe under ndrun, says why no adapter
#   bin/ndmpiexec                      MS-MPI's mpiexec options onto srun or mpiexec.hydra
#   lib/ndshim/nd2prov.dll             the ND2 provider, the catalog's default
#   lib/ndshim/nd2prov_unix.so         its Linux side (when rdma-core was there)
#   lib/ndshim/samples/*.exe           the samples (PE binaries: lib, not share)
#   include/ndshim/*.h                 the ND2 SDK headers
#   lib/ndshim/libnd2.a                the SDK's mingw helper library
#   lib/pkgconfig/nd2.pc               `x86_64-w64-mingw32-pkg-config nd2`
#   share/doc/ndshim/                  README.md, docs/*.md (the reference the README links)
#   share/man/man1/                    ndrun.1, ndinfo.1, ndmpiexec.1
#
# ndrun finds lib/ndshim/ from its own path (core/selfpath.h), so PREFIX is
# not compiled in: only nd2.pc records it.  The file list is one variable
# (INSTALL_FILES, "source:destination" pairs) that uninstall walks too.
PREFIX ?= /usr/local
DESTDIR ?=
NDSHIM_LIBDIR := $(PREFIX)/lib/ndshim

INSTALL_FILES = $(NDRUN):bin/ndrun:755 \
	$(NDINFO):bin/ndinfo:755 \
	$(NDMPIEXEC):bin/ndmpiexec:755 \
	$(ND2PE_DLL):lib/ndshim/nd2prov.dll:644 \
	$(if $(HAVE_RDMA_HEADERS),$(ND2UNIX_SO):lib/ndshim/nd2prov_unix.so:755) \
	$(foreach s,$(SAMPLES),$(s):lib/ndshim/samples/$(notdir $(s)):755) \
	$(foreach h,$(SDK_HEADERS),$(h):include/ndshim/$(notdir $(h)):644) \
	$(if $(SDK_LIB),$(SDK_LIB):lib/ndshim/libnd2.a:644 $(BUILD)/nd2.pc:lib/pkgconfig/nd2.pc:644) \
	README.md:share/doc/ndshim/README.md:644 \
	$(foreach d,$(wildcard docs/*.md),$(d):share/doc/ndshim/$(d):644) \
	$(foreach m,$(wildcard doc/man/*.1),$(m):share/man/man1/$(notdir $(m)):644)

# Folders that belong to ndshim alone: uninstall removes them once empty.
INSTALL_OWN_DIRS := lib/ndshim/samples lib/ndshim include/ndshim share/doc/ndshim/docs share/doc/ndshim

.PHONY: install uninstall
install: all $(NDINFO) $(NDMPIEXEC) $(if $(SDK_LIB),$(BUILD)/nd2.pc)
	@set -e; for f in $(INSTALL_FILES); do \
		src=$${f%%:*}; rest=$${f#*:}; dst=$${rest%:*}; mode=$${rest##*:}; \
		printf '  %-7s %s\n' INSTALL "$(DESTDIR)$(PREFIX)/$$dst"; \
		install -D -m $$mode "$$src" "$(DESTDIR)$(PREFIX)/$$dst"; \
	done

uninstall:
	@for f in $(INSTALL_FILES); do \
		rest=$${f#*:}; dst=$${rest%:*}; \
		if [ -e "$(DESTDIR)$(PREFIX)/$$dst" ]; then \
			printf '  %-7s %s\n' RM "$(DESTDIR)$(PREFIX)/$$dst"; \
			rm -f "$(DESTDIR)$(PREFIX)/$$dst"; fi; \
	done; \
	for d in $(INSTALL_OWN_DIRS); do \
		[ -d "$(DESTDIR)$(PREFIX)/$$d" ] && rmdir "$(DESTDIR)$(PREFIX)/$$d" 2>/dev/null; \
	done; true
