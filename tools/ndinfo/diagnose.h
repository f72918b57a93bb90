/* Why ndinfo found no NetworkDirect adapter, and what to do about it.
 *
 * The ND provider can only say "no adapters"; the reasons are on the
 * Linux side, one layer under another, and the first missing layer is
 * the answer:
 *   1. the Winsock catalog has no ND provider entry (NDSHIM_ND_PROVIDERS
 *      empty, a config file listing nothing), or its DLL is missing;
 *   2. the provider's Linux side (nd2prov_unix.so) does not load;
 *   3. no RDMA device in sysfs (/sys/class/infiniband);
 *   4. rdma-core's libibverbs does not load, or has no user-space driver
 *      (provider) for the devices there;
 *   5. no device's network interface has an IP address (ND addresses are
 *      IP addresses).
 * Every probe goes through struct nd_diag_probe, so that the unit test
 * (tests/unit/test_ndinfo_diagnose.c) can stand in for the machine. */
#ifndef NDSHIM_NDINFO_DIAGNOSE_H
#define NDSHIM_NDINFO_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>

struct nd_diag_probe {
	const char *sysfs;         /* "/sys" */
	const char *providers_env; /* NDSHIM_ND_PROVIDERS as set, or NULL */
	bool catalog_empty;        /* ndinfo.exe saw no ND entry in the catalog */
	/* The catalog's default DLL (nd2prov.dll among ndrun's files) when
	 * neither NDSHIM_ND_PROVIDERS nor a config file decides; else NULL. */
	const char *default_dll;
	/* 0 when the provider's Linux side loads; else -1 with err set. */
	int (*load_unix)(void *ctx, char *err, size_t size);
	/* The number of devices libibverbs lists, or -1 with err set when
	 * libibverbs itself does not load. */
	int (*verbs_devices)(void *ctx, char *err, size_t size);
	/* Does network interface name have an IPv4 or IPv6 address? */
	bool (*netdev_has_ip)(void *ctx, const char *name);
	void *ctx;
};

enum nd_diag_reason {
	ND_DIAG_CATALOG,     /* no ND entry in the catalog */
	ND_DIAG_PROVIDER_DLL,/* the catalog's DLL is missing */
	ND_DIAG_UNIX_SIDE,   /* nd2prov_unix.so does not load */
	ND_DIAG_NO_DEVICE,   /* nothing in /sys/class/infiniband */
	ND_DIAG_NO_VERBS,    /* libibverbs does not load */
	ND_DIAG_NO_DRIVER,   /* devices, but no rdma-core provider for them */
	ND_DIAG_NO_ADDRESS,  /* no device's netdev has an IP address */
	ND_DIAG_UNKNOWN,     /* everything looks right */
};

struct nd_diag {
	enum nd_diag_reason reason;
	char why[1024];  /* one line, no "ndinfo: " */
	char todo[1024]; /* one line: the command or step that fixes it */
};

void nd_diagnose(const struct nd_diag_probe *p, struct nd_diag *out);

#endif
