# The ND2 SDK for mingw-w64 cross-builds: ndsupport.h and the other ND
# headers of include/, and libnd2.a (sdk/libnd2/: NdStartup & co. and the
# interface IDs), with a pkg-config file.  The samples build with it.
#
#   $(BUILD)/sdk/libnd2.a   the library (C, usable from C and C++)
#   $(BUILD)/nd2.pc         the pkg-config file make install puts in
#                           lib/pkgconfig; it finds the rest from its own
#                           place (${pcfiledir}), so DESTDIR trees work too
SDK_SRCS    := $(wildcard sdk/libnd2/*.c)
SDK_OBJS    := $(patsubst %.c,$(BUILD)/obj-pe/%.o,$(SDK_SRCS))
SDK_LIB     := $(BUILD)/sdk/libnd2.a
SDK_HEADERS := include/nddef.h include/ndspi.h include/ndstatus.h include/ndsupport.h include/ndcatalog.h
SDK_CFLAGS  := -std=gnu11 $(PE_CFLAGS) -Wmissing-prototypes -Wstrict-prototypes -Wshadow -MMD -MP

all: $(SDK_LIB)

$(BUILD)/obj-pe/sdk/libnd2/%.o: sdk/libnd2/%.c
	@mkdir -p $(@D)
	$(call quiet,MINGW,$<)$(MINGW_CC) $(SDK_CFLAGS) -c $< -o $@

$(SDK_LIB): $(SDK_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(call quiet,AR,$@)x86_64-w64-mingw32-ar rcs $@ $^

$(BUILD)/nd2.pc: sdk/nd2.pc.in Makefile
	@mkdir -p $(@D)
	$(call quiet,GEN,$@)sed 's/@VERSION@/$(VERSION)/' $< > $@
