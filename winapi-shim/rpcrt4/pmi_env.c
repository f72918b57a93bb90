/* The start-up translation of pmi_env.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/process.h"
#include "core/startup.h"
#include "rpcrt4/pmi_env.h"
#include "rpcrt4/rpcrt4_private.h"

static struct pmi client;
static bool connected;

struct pmi *pmi_env_client(void)
{
	return connected ? &client : NULL;
}

/* PMI_PORT=host:port: a TCP connection to the process manager. */
static int connect_port(const char *port)
{
	char host[256];
	const char *colon = strrchr(port, ':');
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
	int fd = -1;

	if (!colon || (size_t)(colon - port) >= sizeof(host))
		return -1;
	memcpy(host, port, colon - port);
	host[colon - port] = 0;
	if (getaddrinfo(host, colon + 1, &hints, &ai))
		return -1;
	for (a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	return fd;
}

static int env_int(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : dflt;
}

/* A GUID from the KVS name: the same bytes on every rank of the job. */
static void kvs_guid(const char *name, char out[37])
{
	unsigned long long h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
	unsigned char b[16];

	for (const char *p = name; *p; p++) {
		h1 = (h1 ^ (unsigned char)*p) * 0x100000001b3ull;
		h2 = (h2 ^ (unsigned char)*p) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
	}
	memcpy(b, &h1, 8);
	memcpy(b + 8, &h2, 8);
	b[6] = (b[6] & 0x0f) | 0x40; /* version 4, variant 10x */
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void set_env(const char *name, const char *value)
{
	/* Both: the Linux environ for child processes ndrun starts, and
	 * kernel32's copy, whichever of them was read first. */
	setenv(name, value, 1);
	SetEnvironmentVariableA(name, value);
}

/* The node-id mapping.  Every rank of a node creates it, or opens the one
 * another rank made, and writes the whole map into it: all ranks read the
 * same PMI_process_mapping, so they write the same bytes, and no rank
 * waits for another.  (Opening one that the node's first rank made
 * before a fence lost a race: that rank could run its program to the end
 * and exit before the others opened it, and the mapping went with its
 * last handle: "cannot open the PMI_NODE_IDS mapping", error 2.) */
static bool node_ids(struct pmi *p, char *name, size_t namelen)
{
	char map[PMI_MAX_VALUE];
	unsigned short *node = calloc(p->size, sizeof(*node));
	void *view = NULL;
	HANDLE h;
	bool ok = false;

	snprintf(name, namelen, "ndshim-pmi-%s-node-ids", p->kvsname);
	for (char *c = name; *c; c++)
		if (*c == '\\')
			*c = '_';
	if (!node)
		return false;
	if (pmi_process_mapping(p, map, sizeof(map)) || !pmi_parse_mapping(map, p->size, node)) {
		/* No map: every rank on one node, which MS-MPI assumes
		 * too when PMI_NODE_IDS is absent; but it needs the
		 * mapping for more than one rank. */
		TRACE(pmi, "no usable PMI_process_mapping (%s): all ranks on node 0\n", map);
		memset(node, 0, p->size * sizeof(*node));
	}
	h = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, p->size * sizeof(*node), name);
	if (!h || !(view = MapViewOfFile(h, FILE_MAP_WRITE, 0, 0, 0))) {
		ndrun_error("cannot create the PMI_NODE_IDS mapping %s (error %u)", name, (unsigned)GetLastError());
		goto out;
	}
	memcpy(view, node, p->size * sizeof(*node));
	UnmapViewOfFile(view);
	/* h stays open: the mapping lives as long as any rank of the node. */
	ok = true;
out:
	free(node);
	return ok;
}

/* Until the program takes the connection (pmi_env_claim), ndrun holds it
 * for a program that may never use PMI: pmienv.exe, a program that only
 * prints, a tool started by srun.  hydra's proxy takes a PMI connection
 * that closes without a finalize for a rank that failed and SIGKILLs
 * every other rank of the node, whose output is then lost, and which
 * ended well; so a program that never used PMI leaves the job through
 * ndrun's finalize, whichever way it ends.  One that did (MS-MPI's
 * CreateSmpdMgrContext) finalizes itself (DeleteSmpdMgrContext, in
 * MPI_Finalize), or ends without, and the job ends as with any MPI rank
 * that exits before MPI_Finalize. */
static int claimed;

void pmi_env_claim(void)
{
	__atomic_store_n(&claimed, 1, __ATOMIC_SEQ_CST);
}

static void finalize_at_exit(void)
{
	if (!connected || __atomic_load_n(&claimed, __ATOMIC_SEQ_CST))
		return;
	TRACE(pmi, "the program never used PMI: finalize for it\n");
	if (pmi_finalize(&client))
		TRACE(pmi, "finalize at exit: %s\n", strerror(errno));
}

bool pmi_env_init(void)
{
	const char *fdstr = getenv("PMI_FD"), *port = getenv("PMI_PORT");
	char buf[PMI_MAX_KVSNAME + 64], guid[37];
	int fd, version;

	if (getenv("PMI_KVS"))
		return true;
	if (fdstr && *fdstr) {
		fd = atoi(fdstr);
		/* Not inherited by the program's own child processes. */
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	} else if (port && strchr(port, ':')) {
		if ((fd = connect_port(port)) < 0) {
			ndrun_error("cannot connect to the process manager at PMI_PORT=%s", port);
			return false;
		}
	} else {
		return true;
	}
	/* NDSHIM_PMI_VERSION=1 or 2 asks for one.  Otherwise PMI-2 first
	 * where Slurm started the rank (PMI_JOBID: its pmi2 plugin speaks
	 * nothing else), PMI-1 first elsewhere: hydra speaks both, but its
	 * PMI-2 has no abort, and MPI_Abort's exit code would be lost. */
	version = env_int("NDSHIM_PMI_VERSION", 0);
	if (version != 1 && version != 2)
		version = getenv("PMI_JOBID") ? 0 : -1;
	if (pmi_init(&client, fd, version, env_int("PMI_RANK", -1), env_int("PMI_SIZE", -1), getenv("PMI_JOBID"))) {
		ndrun_error("PMI handshake with the process manager failed: %s", strerror(errno));
		return false;
	}
	connected = true;
	/* The other ranks of the node duplicate handles out of this one
	 * (MS-MPI's shared-memory channel takes its completion port and
	 * memory sections, named in its business card) as soon as they
	 * read its card, which may be before this rank opens any process
	 * itself: serve from the start (kernel32/duphandle.c). */
	if (client.size > 1)
		duphandle_server_start();
	startup_at_exit(finalize_at_exit);
	if (!node_ids(&client, buf, sizeof(buf)))
		return false;
	set_env("PMI_NODE_IDS", buf);
	kvs_guid(client.kvsname, guid);
	set_env("PMI_KVS", guid);
	snprintf(buf, sizeof(buf), "%d", client.rank);
	set_env("PMI_RANK", buf);
	snprintf(buf, sizeof(buf), "%d", client.size);
	set_env("PMI_SIZE", buf);
	snprintf(buf, sizeof(buf), "%d", client.appnum);
	set_env("PMI_APPNUM", buf);
	set_env("PMI_SMPD_KEY", "0");
	set_env("PMI_PORT", "ndshim-pmi");
	unsetenv("PMI_FD");
	SetEnvironmentVariableA("PMI_FD", NULL);
	return true;
}
