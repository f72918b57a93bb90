/* ndinfo's "why no adapter" (tools/ndinfo/diagnose.c) on fake machines:
 * a sysfs tree in a temporary folder, and probes that answer as the
 * test says.  Each layer missing in turn must be the one named. */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "tools/ndinfo/diagnose.h"

static char root[PATH_MAX];

struct fake {
	const char *unix_error; /* NULL: the Linux side loads */
	int verbs;              /* what libibverbs lists; -1: it does not load */
	const char *with_ip;    /* the one netdev that has an address */
};

static int fake_load_unix(void *ctx, char *err, size_t size)
{
	struct fake *f = ctx;

	if (!f->unix_error)
		return 0;
	snprintf(err, size, "%s", f->unix_error);
	return -1;
}

static int fake_verbs(void *ctx, char *err, size_t size)
{
	struct fake *f = ctx;

	if (f->verbs < 0)
		snprintf(err, size, "libibverbs.so.1: cannot open shared object file");
	return f->verbs;
}

static bool fake_has_ip(void *ctx, const char *name)
{
	struct fake *f = ctx;

	return f->with_ip && !strcmp(f->with_ip, name);
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX + 256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	if (!text) {
		assert_true(mkdir(path, 0755) == 0 || access(path, F_OK) == 0);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/ndshim-diag-XXXXXX");
	assert_non_null(mkdtemp(root));
	/* Two network interfaces: loopback and eth1, up and backed by a device. */
	put("class/net/lo/operstate", "unknown\n");
	put("class/net/eth1/operstate", "up\n");
	put("class/net/eth1/device", NULL);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void diagnose(struct fake *f, const char *providers_env, bool catalog_empty, const char *dll,
		     struct nd_diag *d)
{
	struct nd_diag_probe p = {
		.sysfs = root,
		.providers_env = providers_env,
		.catalog_empty = catalog_empty,
		.default_dll = dll,
		.load_unix = fake_load_unix,
		.verbs_devices = fake_verbs,
		.netdev_has_ip = fake_has_ip,
		.ctx = f,
	};

	nd_diagnose(&p, d);
}

static void test_layers(void **state)
{
	struct fake f = { .unix_error = NULL, .verbs = 1, .with_ip = "eth1" };
	char dll[PATH_MAX + 32];
	struct nd_diag d;

	snprintf(dll, sizeof(dll), "%s/nd2prov.dll", root);

	/* The catalog first: an empty NDSHIM_ND_PROVIDERS, or ndinfo.exe saw none. */
	diagnose(&f, "", false, NULL, &d);
	assert_int_equal(d.reason, ND_DIAG_CATALOG);
	assert_non_null(strstr(d.why, "NDSHIM_ND_PROVIDERS is set and empty"));
	assert_non_null(strstr(d.todo, "unset NDSHIM_ND_PROVIDERS"));
	diagnose(&f, NULL, true, NULL, &d);
	assert_int_equal(d.reason, ND_DIAG_CATALOG);

	/* The default DLL missing: a copied ndrun without its lib/. */
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_PROVIDER_DLL);
	assert_non_null(strstr(d.why, dll));
	put("nd2prov.dll", "MZ");

	/* The Linux side. */
	f.unix_error = "nd2prov_unix.so: cannot open shared object file";
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_UNIX_SIDE);
	assert_non_null(strstr(d.why, "nd2prov_unix.so: cannot open"));
	f.unix_error = NULL;

	/* No device: the Soft-RoCE line names the interface that is up. */
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_NO_DEVICE);
	assert_non_null(strstr(d.why, "no RDMA device in sysfs"));
	assert_non_null(strstr(d.todo, "sudo rdma link add rxe0 type rxe netdev eth1"));

	/* A device, but libibverbs does not load, then has no driver for it. */
	put("class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth1\n");
	f.verbs = -1;
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_NO_VERBS);
	assert_non_null(strstr(d.why, "mlx5_0"));
	assert_non_null(strstr(d.todo, "libibverbs1"));
	f.verbs = 0;
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_NO_DRIVER);
	assert_non_null(strstr(d.todo, "ibverbs-providers"));

	/* Listed, but its interface has no address. */
	f.verbs = 1;
	f.with_ip = NULL;
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_NO_ADDRESS);
	assert_non_null(strstr(d.why, "mlx5_0 is on network interface eth1, which has no IP address"));
	assert_non_null(strstr(d.todo, "dev eth1"));

	/* Everything there: no reason invented. */
	f.with_ip = "eth1";
	diagnose(&f, NULL, false, dll, &d);
	assert_int_equal(d.reason, ND_DIAG_UNKNOWN);
	assert_non_null(strstr(d.todo, "NDSHIM_DEBUG=+nd"));
}

/* Without an interface that is up, the Soft-RoCE hint still names one
 * (eth0, the placeholder) rather than an empty netdev. */
static void test_rxe_placeholder(void **state)
{
	struct fake f = { .verbs = 1 };
	struct nd_diag d;

	put("class/net/eth1/operstate", "down\n");
	diagnose(&f, NULL, false, NULL, &d);
	assert_int_equal(d.reason, ND_DIAG_NO_DEVICE);
	assert_non_null(strstr(d.todo, "netdev eth0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_layers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rxe_placeholder, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
