/* ndinfo's "why no adapter" (diagnose.h). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/ndinfo/diagnose.h"

#define SET(field, ...) snprintf(out->field, sizeof(out->field), __VA_ARGS__)

/* The first line of a small sysfs file, without its newline; false when
 * it cannot be read or is empty. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok && buf[0];
}

/* The entries of folder path (no dot files), ", "-separated into list;
 * returns how many there are. */
static int list_entries(const char *path, char *list, size_t size)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0;
	int count = 0;

	list[0] = 0;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n < size)
			n += (size_t)snprintf(list + n, size - n, "%s%s", count ? ", " : "", de->d_name);
		count++;
	}
	closedir(d);
	return count;
}

/* The network interface an RDMA device's port 1.. is bound to (RoCE,
 * iWARP and IPoIB devices have one), from its GID table in sysfs. */
static bool device_netdev(const char *sysfs, const char *dev, char *name, size_t size)
{
	char path[512];

	for (int port = 1; port <= 4; port++) {
		snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%d/gid_attrs/ndevs/0", sysfs, dev, port);
		if (read_line(path, name, size))
			return true;
	}
	return false;
}

/* A network interface to put Soft-RoCE on: the first one that is up,
 * not loopback, and backed by a device; else the first that is up; else
 * "eth0" as a placeholder the user will recognise. */
static void rxe_netdev(const char *sysfs, char *name, size_t size)
{
	char path[512], state[32], fallback[256] = "";
	struct dirent *de;
	DIR *d;

	snprintf(name, size, "eth0");
	snprintf(path, sizeof(path), "%s/class/net", sysfs);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "lo"))
			continue;
		snprintf(path, sizeof(path), "%s/class/net/%s/operstate", sysfs, de->d_name);
		if (!read_line(path, state, sizeof(state)) || strcmp(state, "up"))
			continue;
		snprintf(path, sizeof(path), "%s/class/net/%s/device", sysfs, de->d_name);
		if (!access(path, F_OK)) {
			snprintf(name, size, "%s", de->d_name);
			closedir(d);
			return;
		}
		if (!fallback[0])
			snprintf(fallback, sizeof(fallback), "%s", de->d_name);
	}
	closedir(d);
	if (fallback[0])
		snprintf(name, size, "%s", fallback);
}

static void no_address(const struct nd_diag_probe *p, struct nd_diag *out)
{
	char path[512], devs[256], dev[256], netdev[256];
	const char *s;
	DIR *d;
	struct dirent *de;
	int with_netdev = 0;

	snprintf(path, sizeof(path), "%s/class/infiniband", p->sysfs);
	list_entries(path, devs, sizeof(devs));
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "%s", de->d_name);
		if (!device_netdev(p->sysfs, dev, netdev, sizeof(netdev)))
			continue;
		with_netdev++;
		if (p->netdev_has_ip(p->ctx, netdev)) {
			closedir(d);
			return;
		}
		s = netdev;
		out->reason = ND_DIAG_NO_ADDRESS;
		SET(why, "%s is on network interface %s, which has no IP address (ND addresses are IP addresses)",
		    dev, s);
		SET(todo, "give %s an address, e.g. sudo ip addr add 192.0.2.1/24 dev %s && sudo ip link set %s up", s,
		    s, s);
	}
	closedir(d);
	if (!with_netdev) {
		out->reason = ND_DIAG_NO_ADDRESS;
		SET(why, "no RDMA device (%s) is bound to a network interface, so none has an IP address", devs);
		SET(todo, "on InfiniBand, bring up IPoIB (modprobe ib_ipoib) and give ib0 an address");
	}
}

void nd_diagnose(const struct nd_diag_probe *p, struct nd_diag *out)
{
	char path[512], devs[256], err[256], netdev[256];
	int n;

	memset(out, 0, sizeof(*out));
	out->reason = ND_DIAG_UNKNOWN;
	if (p->catalog_empty || (p->providers_env && !p->providers_env[strspn(p->providers_env, " ;")])) {
		out->reason = ND_DIAG_CATALOG;
		if (p->providers_env && !p->providers_env[strspn(p->providers_env, " ;")])
			SET(why, "the Winsock catalog has no NetworkDirect provider: NDSHIM_ND_PROVIDERS is set and empty");
		else
			SET(why, "the Winsock catalog has no NetworkDirect provider (the provider list names none)");
		SET(todo, "unset NDSHIM_ND_PROVIDERS and NDSHIM_ND_CONFIG to use ndshim's nd2prov.dll, or list a DLL "
			  "there (ndinfo -v shows the catalog)");
		return;
	}
	if (p->default_dll && access(p->default_dll, R_OK)) {
		out->reason = ND_DIAG_PROVIDER_DLL;
		SET(why, "the catalog's provider %s is missing", p->default_dll);
		SET(todo, "install ndrun with its lib/ndshim/ folder (make install), or name a provider in "
			  "NDSHIM_ND_PROVIDERS");
		return;
	}
	if (p->load_unix(p->ctx, err, sizeof(err))) {
		out->reason = ND_DIAG_UNIX_SIDE;
		SET(why, "the provider's Linux side does not load: %s", err);
		SET(todo, "install rdma-core's libraries (sudo apt-get install libibverbs1 librdmacm1 ibverbs-providers); "
			  "if nd2prov_unix.so itself is missing, rebuild ndshim with libibverbs-dev librdmacm-dev");
		return;
	}
	snprintf(path, sizeof(path), "%s/class/infiniband", p->sysfs);
	if (!list_entries(path, devs, sizeof(devs))) {
		rxe_netdev(p->sysfs, netdev, sizeof(netdev));
		out->reason = ND_DIAG_NO_DEVICE;
		SET(why, "no RDMA device in sysfs (%s is empty or missing)", path);
		SET(todo, "load your HCA's driver; with no RDMA hardware, Soft-RoCE: sudo modprobe rdma_rxe && "
			  "sudo rdma link add rxe0 type rxe netdev %s", netdev);
		return;
	}
	n = p->verbs_devices(p->ctx, err, sizeof(err));
	if (n < 0) {
		out->reason = ND_DIAG_NO_VERBS;
		SET(why, "RDMA devices are present (%s) but rdma-core's libibverbs does not load: %s", devs, err);
		SET(todo, "sudo apt-get install libibverbs1 librdmacm1 ibverbs-providers");
		return;
	}
	if (n == 0) {
		out->reason = ND_DIAG_NO_DRIVER;
		SET(why, "RDMA devices are present (%s) but rdma-core has no provider (user-space driver) for them",
		    devs);
		SET(todo, "sudo apt-get install ibverbs-providers (ibv_devices must list the device)");
		return;
	}
	no_address(p, out);
	if (out->reason == ND_DIAG_UNKNOWN) {
		SET(why, "rdma-core lists %d device%s (%s) with IP addresses, yet the provider reports none", n,
		    n == 1 ? "" : "s", devs);
		SET(todo, "NDSHIM_DEBUG=+nd,+nd2unix ndinfo -v shows the provider's calls and errors");
	}
}
