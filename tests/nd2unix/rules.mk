# The unix side's rig driver: dlopens nd2prov_unix.so and drives its call
# table like nd2prov.dll; run in Soft-RoCE guests by tests/vm/suites/nd2unix.sh.
ND2UNIX_DRIVER := $(BUILD)/tests/nd2unix-driver

$(ND2UNIX_DRIVER): tests/nd2unix/driver.c nd2provider/unix_call.h
	@mkdir -p $(@D)
	$(call quiet,CC,$<)$(CC) -std=gnu11 -O2 -g $(WARN) -Wno-missing-field-initializers -D_GNU_SOURCE -I. -Iinclude -Ind2provider/unix \
		-o $@ $< -ldl -pthread

ifneq ($(HAVE_RDMA_HEADERS),)
all: $(ND2UNIX_DRIVER)
# The rig's boots run this suite too (tests/vm/suites/).
vm-parts: $(ND2UNIX_SO) $(ND2UNIX_DRIVER)
endif
