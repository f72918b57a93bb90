/* ndinfo: the NetworkDirect view of this machine, as rdma-core's
 * ibv_devinfo gives the verbs one.  It runs samples/ndinfo.exe (the ND2
 * client that finds providers exactly as Windows programs do) under the
 * ndrun beside it, passing its options through, and when that finds no
 * adapter, says why and what to do (diagnose.h): the provider itself can
 * only say "none".  Linux-native, so that the reasons can be looked up
 * where they are (sysfs, libibverbs, the provider's Linux side). */
#include <dlfcn.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/selfpath.h"
#include "tools/ndinfo/diagnose.h"

#define NO_ADAPTERS "ndinfo: no NetworkDirect adapters found"
#define NO_PROVIDERS "ndinfo: no NetworkDirect provider in the Winsock catalog"

static int load_unix(void *ctx, char *err, size_t size)
{
	const char *env = getenv("NDSHIM_ND_UNIX");
	char *path = env && *env ? strdup(env) : ndrun_own_file("nd2prov_unix.so");
	void *so;

	(void)ctx;
	if (!path) {
		snprintf(err, size, "cannot find ndrun's own files");
		return -1;
	}
	so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		snprintf(err, size, "%s", dlerror());
		free(path);
		return -1;
	}
	if (!dlsym(so, "nd_unix_entry")) {
		snprintf(err, size, "%s: not the provider's Linux side (no nd_unix_entry)", path);
		dlclose(so);
		free(path);
		return -1;
	}
	dlclose(so);
	free(path);
	return 0;
}

/* libibverbs through dlopen: ndinfo must run (and explain) where it is
 * not installed. */
static int verbs_devices(void *ctx, char *err, size_t size)
{
	void *(*get_list)(int *);
	void (*free_list)(void *);
	void *so = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL), *list;
	int n = 0;

	(void)ctx;
	if (!so) {
		snprintf(err, size, "%s", dlerror());
		return -1;
	}
	*(void **)&get_list = dlsym(so, "ibv_get_device_list");
	*(void **)&free_list = dlsym(so, "ibv_free_device_list");
	if (!get_list || !free_list) {
		snprintf(err, size, "libibverbs.so.1 lacks ibv_get_device_list");
		dlclose(so);
		return -1;
	}
	list = get_list(&n);
	if (list)
		free_list(list);
	else
		n = 0;
	dlclose(so);
	return n;
}

static bool netdev_has_ip(void *ctx, const char *name)
{
	struct ifaddrs *all, *a;
	bool found = false;

	(void)ctx;
	if (getifaddrs(&all))
		return true; /* cannot tell: do not blame the address */
	for (a = all; a && !found; a = a->ifa_next)
		found = a->ifa_addr && !strcmp(a->ifa_name, name) &&
			(a->ifa_addr->sa_family == AF_INET || a->ifa_addr->sa_family == AF_INET6);
	freeifaddrs(all);
	return found;
}

/* The catalog's default DLL when no list or config file decides
 * (ws2_32/catalog.c's third rule), else NULL. */
static char *default_dll(void)
{
	char *conf;

	if (getenv("NDSHIM_ND_PROVIDERS") || getenv("NDSHIM_ND_CONFIG"))
		return NULL;
	conf = ndrun_own_file("ndshim-providers.conf");
	if (conf && !access(conf, F_OK)) {
		free(conf);
		return NULL;
	}
	free(conf);
	return ndrun_own_file("nd2prov.dll");
}

static void explain(bool catalog_empty)
{
	struct nd_diag_probe p = {
		.sysfs = "/sys",
		.providers_env = getenv("NDSHIM_ND_PROVIDERS"),
		.catalog_empty = catalog_empty,
		.default_dll = default_dll(),
		.load_unix = load_unix,
		.verbs_devices = verbs_devices,
		.netdev_has_ip = netdev_has_ip,
	};
	struct nd_diag d;

	nd_diagnose(&p, &d);
	fprintf(stderr, "ndinfo: why: %s\nndinfo: what to do: %s\n", d.why, d.todo);
	free((char *)p.default_dll);
}

int main(int argc, char **argv)
{
	char *ndrun = ndrun_own_file("ndrun"), *exe = ndrun_own_file("samples/ndinfo.exe");
	bool no_adapters = false, no_providers = false;
	char line[1024];
	int fds[2], status;
	pid_t pid;
	FILE *err;

	if (!ndrun || !exe) {
		fprintf(stderr, "ndinfo: cannot find its own folder (/proc/self/exe)\n");
		return 1;
	}
	if (access(ndrun, X_OK) || access(exe, R_OK)) {
		fprintf(stderr, "ndinfo: %s: %s (ndinfo runs it under the ndrun beside it: install them together)\n",
			access(ndrun, X_OK) ? ndrun : exe, strerror(errno));
		return 1;
	}
	if (pipe(fds)) {
		perror("ndinfo: pipe");
		return 1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("ndinfo: fork");
		return 1;
	}
	if (!pid) {
		char **args = calloc((size_t)argc + 3, sizeof(*args));

		if (!args)
			_exit(1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		args[0] = ndrun;
		args[1] = exe;
		for (int i = 1; i < argc; i++)
			args[i + 1] = argv[i];
		execv(ndrun, args);
		fprintf(stderr, "ndinfo: %s: %s\n", ndrun, strerror(errno));
		_exit(126);
	}
	close(fds[1]);
	/* ndinfo.exe's stderr passes through, line by line, while we listen
	 * for its verdict. */
	err = fdopen(fds[0], "r");
	while (err && fgets(line, sizeof(line), err)) {
		fputs(line, stderr);
		no_adapters |= !strncmp(line, NO_ADAPTERS, strlen(NO_ADAPTERS));
		no_providers |= !strncmp(line, NO_PROVIDERS, strlen(NO_PROVIDERS));
	}
	if (err)
		fclose(err);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	status = WEXITSTATUS(status);
	if (status == 1 && no_adapters)
		explain(no_providers);
	free(ndrun);
	free(exe);
	return status;
}
