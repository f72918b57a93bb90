/* The Winsock provider catalog: the four MSAFD base entries (TCP and UDP
 * over IPv4 and IPv6) and, per configured ND provider, one hidden
 * NetworkDirect v2 entry and one hidden ND v1 entry (the same DLL, which
 * serves v1 clients through its class factory; the v1 entries follow all
 * the v2 ones), with the fields ND clients check
 * (docs: CLIENT-BEHAVIOR.md, "Finding the provider").
 *
 * ND providers, read once per process, first match wins:
 *   1. NDSHIM_ND_PROVIDERS: DLL paths separated by ';' (empty: none);
 *   2. the file NDSHIM_ND_CONFIG names, else ndshim-providers.conf among
 *      ndrun's own files when it exists: one DLL path per line, '#'
 *      starts a comment;
 *   3. nd2prov.dll among ndrun's own files.
 * ndrun's own files are beside it (build tree) or in PREFIX/lib/ndshim
 * (installed): core/selfpath.h.
 * A path starting with '/' or with no '\\' and no ':' is a Linux path
 * (relative ones against the current directory); anything else is taken
 * as a Windows path as it is (%VARS% are left for the client's
 * ExpandEnvironmentStringsW).  Provider GUIDs: include/ndshim_provider.h.
 *
 * Nothing wrong is passed over in silence: a config file that is missing,
 * unreadable or a folder, a listed DLL that does not exist (file and
 * line named), more providers than fit, and a default nd2prov.dll that
 * is not among ndrun's files (an ndrun copied without its lib/ndshim/:
 * said when a program first asks for ND providers) each give one
 * "ndrun:" warning; the catalog is built from what remains.
 *
 * The catalog does not change while a process runs, so
 * WSAProviderConfigChange requests stay pending until their handle is
 * closed (then they complete with WSA_OPERATION_ABORTED). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "ws2_32/ws2_32_private.h"

#include "core/codepage.h"
#include "core/handle.h"
#include "core/debug.h"
#include "core/klock.h"
#include "core/path.h"
#include "core/selfpath.h"
#include "core/wstr.h"
#include "ndshim_provider.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>


#define MAX_ND_PROVIDERS 16

static const GUID tcpip_guid = { 0xe70f1aa0, 0xab8b, 0x11cf,
				 { 0x8c, 0xa3, 0x00, 0x80, 0x5f, 0x48, 0xa1, 0x92 } };
static const GUID tcpip6_guid = { 0xf9eab0c0, 0x26d4, 0x11d0,
				  { 0xbb, 0xbf, 0x00, 0xaa, 0x00, 0x6c, 0x34, 0xe4 } };
static const GUID nd_guid = NDSHIM_PROVIDER_GUID_INIT;

static pthread_once_t catalog_once = PTHREAD_ONCE_INIT;
static WSAPROTOCOL_INFOW *entries;
static WCHAR *paths[4 + 2 * MAX_ND_PROVIDERS];
static unsigned int nentries;
/* The default provider DLL when it is missing (said at the first
 * WSCEnumProtocols: ordinary socket programs never need it). */
static char *missing_default;

static void set_name(WSAPROTOCOL_INFOW *e, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i < WSAPROTOCOL_LEN; i++)
		e->szProtocol[i] = (unsigned char)name[i];
	e->szProtocol[i] = 0;
}

static void add_base(int family, int type, const char *name)
{
	WSAPROTOCOL_INFOW *e = &entries[nentries];
	bool tcp = type == WS_SOCK_STREAM;

	memset(e, 0, sizeof(*e));
	e->dwServiceFlags1 = tcp ? XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER |
					   XP1_GRACEFUL_CLOSE | XP1_EXPEDITED_DATA | XP1_IFS_HANDLES
				 : XP1_CONNECTIONLESS | XP1_MESSAGE_ORIENTED |
					   XP1_SUPPORT_BROADCAST | XP1_SUPPORT_MULTIPOINT |
					   XP1_IFS_HANDLES;
	e->dwProviderFlags = PFL_MATCHES_PROTOCOL_ZERO;
	e->ProviderId = family == WS_AF_INET ? tcpip_guid : tcpip6_guid;
	e->dwCatalogEntryId = 1001 + nentries;
	e->ProtocolChain.ChainLen = BASE_PROTOCOL;
	e->iVersion = 2;
	e->iAddressFamily = family;
	e->iMaxSockAddr = ws_sockaddr_size(family);
	e->iMinSockAddr = ws_sockaddr_size(family);
	e->iSocketType = type;
	e->iProtocol = tcp ? WS_IPPROTO_TCP : WS_IPPROTO_UDP;
	e->dwMessageSize = tcp ? 0 : 0xffbb; /* 65467: the largest UDP payload Windows reports */
	set_name(e, name);
	paths[nentries] = utf8_to_utf16_dup("%SystemRoot%\\system32\\mswsock.dll");
	nentries++;
}

/* Does a configured provider path name an existing file?  Windows paths
 * with %VARS% are the client's to expand: not checked. */
static bool provider_exists(const char *path, bool linux_path)
{
	WCHAR *w;
	char *u;
	DWORD err;
	bool ok;

	if (linux_path)
		return !access(path, F_OK);
	if (strchr(path, '%'))
		return true;
	w = utf8_to_utf16_dup(path);
	u = w ? path_to_unix(w, &err) : NULL;
	ok = !u || !access(u, F_OK);
	free(w);
	free(u);
	return ok;
}

/* where: "NDSHIM_ND_PROVIDERS" or "file:line", for the warnings; NULL
 * for the default entry (its absence is said when it is needed). */
static void add_nd(const char *path, const char *where)
{
	WSAPROTOCOL_INFOW *e = &entries[nentries];
	unsigned int i = nentries - 4;
	bool linux_path = path[0] == '/' || (!strchr(path, '\\') && !strchr(path, ':'));
	char *abs = NULL;

	if (!*path)
		return;
	if (i >= MAX_ND_PROVIDERS) {
		if (where)
			ndrun_error("%s: more than %d ND providers: %s is left out", where, MAX_ND_PROVIDERS, path);
		return;
	}
	if (where && !provider_exists(path, linux_path))
		ndrun_error("%s: ND provider %s: no such file (listed anyway: loading it will fail)", where, path);
	if (linux_path) {
		if (path[0] != '/') {
			char cwd[PATH_MAX];

			if (getcwd(cwd, sizeof(cwd)) && asprintf(&abs, "%s/%s", cwd, path) < 0)
				abs = NULL;
		}
		paths[nentries] = path_from_unix(abs ? abs : path);
		free(abs);
	} else {
		paths[nentries] = utf8_to_utf16_dup(path);
	}
	if (!paths[nentries])
		return;
	memset(e, 0, sizeof(*e));
	e->dwServiceFlags1 = XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED |
			     XP1_CONNECT_DATA;
	e->dwProviderFlags = PFL_HIDDEN | NDSHIM_PFL_NETWORKDIRECT_PROVIDER;
	e->ProviderId = nd_guid;
	e->ProviderId.Data4[7] += i;
	e->dwCatalogEntryId = 1101 + i;
	e->ProtocolChain.ChainLen = BASE_PROTOCOL;
	e->iVersion = NDSHIM_ND_VERSION_2;
	/* One AF_INET6 registration covers IPv4 and IPv6 addresses. */
	e->iAddressFamily = WS_AF_INET6;
	e->iMaxSockAddr = sizeof(struct WS_sockaddr_in6);
	e->iMinSockAddr = sizeof(struct WS_sockaddr_in);
	e->iSocketType = -1;
	e->iProtocol = 0;
	e->iProtocolMaxOffset = 0;
	set_name(e, NDSHIM_PROVIDER_NAME);
	TRACE(winsock, "ND provider %u: %s\n", i, debugstr_w(paths[nentries]));
	nentries++;
}

/* The ND v1 entry of every v2 one: same DLL, iVersion 1 with PFL_HIDDEN
 * alone (CLIENT-BEHAVIOR.md), its own GUID and catalog id. */
static void add_nd_v1_entries(void)
{
	unsigned int n = nentries - 4;

	for (unsigned int i = 0; i < n; i++) {
		WSAPROTOCOL_INFOW *e = &entries[nentries];

		paths[nentries] = wstr_dup(paths[4 + i]);
		if (!paths[nentries])
			return;
		*e = entries[4 + i];
		e->dwProviderFlags = PFL_HIDDEN;
		e->ProviderId.Data4[7] += NDSHIM_PROVIDER_V1_OFFSET;
		e->dwCatalogEntryId = 1201 + i;
		e->iVersion = NDSHIM_ND_VERSION_1;
		set_name(e, NDSHIM_PROVIDER_V1_NAME);
		nentries++;
	}
}

/* The lines of config file conf, each an ND provider DLL; false when the
 * file cannot be read (after saying why). */
static bool read_config(const char *conf, bool named)
{
	char *line = NULL, where[PATH_MAX + 32];
	unsigned int lineno = 0;
	size_t cap = 0;
	struct stat st;
	FILE *f;

	f = fopen(conf, "re");
	if (!f) {
		/* ndshim-providers.conf among ndrun's files is optional. */
		if (named || errno != ENOENT)
			ndrun_error("NDSHIM_ND_CONFIG: %s: %s (the catalog lists ndshim's nd2prov.dll instead)", conf,
				    strerror(errno));
		return false;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		ndrun_error("NDSHIM_ND_CONFIG: %s is a folder, not a file (the catalog lists ndshim's nd2prov.dll "
			    "instead)", conf);
		fclose(f);
		return false;
	}
	while (getline(&line, &cap, f) > 0) {
		char *p = line, *end;

		lineno++;
		if ((end = strchr(p, '#')))
			*end = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		end = p + strlen(p);
		while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
			*--end = 0;
		snprintf(where, sizeof(where), "%s:%u", conf, lineno);
		add_nd(p, where);
	}
	if (ferror(f))
		ndrun_error("NDSHIM_ND_CONFIG: %s: %s", conf, strerror(errno));
	free(line);
	fclose(f);
	return true;
}

static void catalog_load_providers(void)
{
	const char *env = getenv("NDSHIM_ND_PROVIDERS");
	const char *conf = getenv("NDSHIM_ND_CONFIG");
	char *own_conf = NULL;
	bool named = conf != NULL;

	entries = calloc(4 + 2 * MAX_ND_PROVIDERS, sizeof(*entries));
	if (!entries)
		return;
	add_base(WS_AF_INET, WS_SOCK_STREAM, "MSAFD Tcpip [TCP/IP]");
	add_base(WS_AF_INET, WS_SOCK_DGRAM, "MSAFD Tcpip [UDP/IP]");
	add_base(WS_AF_INET6, WS_SOCK_STREAM, "MSAFD Tcpip [TCP/IPv6]");
	add_base(WS_AF_INET6, WS_SOCK_DGRAM, "MSAFD Tcpip [UDP/IPv6]");
	if (env) {
		char *list = strdup(env), *save = NULL;

		for (char *p = list ? strtok_r(list, ";", &save) : NULL; p;
		     p = strtok_r(NULL, ";", &save))
			add_nd(p, "NDSHIM_ND_PROVIDERS");
		free(list);
		return;
	}
	if (!conf)
		conf = own_conf = ndrun_own_file("ndshim-providers.conf");
	if (!conf || !read_config(conf, named)) {
		char *def = ndrun_own_file(NDSHIM_PROVIDER_DLL);

		/* Listed even when missing (loading it fails, as a catalog
		 * entry whose DLL is gone does on Windows), said once needed. */
		if (def && access(def, F_OK))
			missing_default = strdup(def);
		if (def)
			add_nd(def, NULL);
		free(def);
	}
	free(own_conf);
}

static void catalog_load(void)
{
	catalog_load_providers();
	if (entries)
		add_nd_v1_entries();
}

static void catalog_init(void)
{
	pthread_once(&catalog_once, catalog_load);
}

bool ws_catalog_find(int family, int type, int protocol, WSAPROTOCOL_INFOW *out)
{
	catalog_init();
	for (unsigned int i = 0; i < nentries && i < 4; i++) {
		if (entries[i].iAddressFamily == family && entries[i].iSocketType == type &&
		    (!protocol || entries[i].iProtocol == protocol)) {
			*out = entries[i];
			return true;
		}
	}
	return false;
}

static bool wanted(const WSAPROTOCOL_INFOW *e, const INT *protocols, bool hidden)
{
	if (!hidden && (e->dwProviderFlags & PFL_HIDDEN))
		return false;
	if (!protocols)
		return true;
	for (; *protocols; protocols++)
		if (*protocols >= e->iProtocol && *protocols <= e->iProtocol + e->iProtocolMaxOffset)
			return true;
	return false;
}

/* Copies the matching entries: their count, or SOCKET_ERROR with *err. */
static int enumerate(const INT *protocols, WSAPROTOCOL_INFOW *buf, DWORD *len, bool hidden,
		     int *err)
{
	unsigned int n = 0, k = 0;

	catalog_init();
	if (!len) {
		*err = WSAEFAULT;
		return SOCKET_ERROR;
	}
	for (unsigned int i = 0; i < nentries; i++)
		n += wanted(&entries[i], protocols, hidden);
	if (!buf || *len < n * sizeof(*buf)) {
		*len = n * sizeof(*buf);
		*err = WSAENOBUFS;
		return SOCKET_ERROR;
	}
	for (unsigned int i = 0; i < nentries; i++)
		if (wanted(&entries[i], protocols, hidden))
			buf[k++] = entries[i];
	*len = n * sizeof(*buf);
	return n;
}

INT WINAPI WSCEnumProtocols(LPINT protocols, LPWSAPROTOCOL_INFOW buf, LPDWORD len, LPINT err)
{
	static bool said;

	/* ND clients look for providers here: the first one to find the
	 * default missing hears why the catalog has none. */
	catalog_init();
	if (missing_default && !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		ndrun_error("the ND provider %s is missing: was ndrun copied without its lib/ndshim/ folder? "
			    "(make install puts both; NDSHIM_ND_PROVIDERS names another)", missing_default);
	int e = 0, r = enumerate(protocols, buf, len, true, &e);

	if (r == SOCKET_ERROR && err)
		*err = e;
	return r;
}

int WINAPI WSAEnumProtocolsW(LPINT protocols, LPWSAPROTOCOL_INFOW buf, LPDWORD len)
{
	int e = 0, r = enumerate(protocols, buf, len, false, &e);

	if (r == SOCKET_ERROR)
		SetLastError(e);
	return r;
}

int WINAPI WSAEnumProtocolsA(LPINT protocols, LPWSAPROTOCOL_INFOA buf, LPDWORD len)
{
	DWORD wlen;
	WSAPROTOCOL_INFOW *w;
	int e = 0, n;

	if (!len)
		return ws_fail(WSAEFAULT);
	n = enumerate(protocols, NULL, &wlen, false, &e);
	n = wlen / sizeof(*w);
	if (!buf || *len < n * sizeof(*buf)) {
		*len = n * sizeof(*buf);
		return ws_fail(WSAENOBUFS);
	}
	w = malloc(wlen ? wlen : 1);
	if (!w)
		return ws_fail(WSAENOBUFS);
	n = enumerate(protocols, w, &wlen, false, &e);
	for (int i = 0; i < n; i++) {
		memcpy(&buf[i], &w[i], offsetof(WSAPROTOCOL_INFOA, szProtocol));
		for (int j = 0; j < WSAPROTOCOL_LEN + 1; j++)
			buf[i].szProtocol[j] = (char)w[i].szProtocol[j];
	}
	free(w);
	*len = n * sizeof(*buf);
	return n;
}

INT WINAPI WSCGetProviderPath(LPGUID id, LPWSTR path, LPINT len, LPINT err)
{
	int e = WSAEINVAL;

	catalog_init();
	if (!id || !len || !err) {
		if (err)
			*err = WSAEFAULT;
		return SOCKET_ERROR;
	}
	for (unsigned int i = 0; i < nentries; i++) {
		int need;

		if (memcmp(&entries[i].ProviderId, id, sizeof(GUID)))
			continue;
		need = wstr_len(paths[i]) + 1;
		if (!path || *len < need) {
			*len = need;
			e = WSAEFAULT;
			break;
		}
		memcpy(path, paths[i], need * sizeof(WCHAR));
		*len = need;
		return 0;
	}
	*err = e;
	return SOCKET_ERROR;
}

INT WINAPI WSAProviderConfigChange(LPHANDLE handle, LPWSAOVERLAPPED ov,
				   LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	struct ws_socket *s;
	struct ws_request *r;
	struct object *obj;
	WSAOVERLAPPED local = { 0 };
	ULONG_PTR status;

	if (!handle)
		return ws_fail(WSAEFAULT);
	if (!*handle) {
		SOCKET h = ws_socket_create(-1, 0, 0, 0, WS_FLAG_NOTIFY_ONLY, &s);

		if (h == INVALID_SOCKET)
			return SOCKET_ERROR;
		*handle = (HANDLE)h;
		if (!ov)
			return 0;
	}
	obj = handle_get(*handle, &ws_socket_ops);
	if (!obj || !(to_ws_socket(obj)->wsa_flags & WS_FLAG_NOTIFY_ONLY)) {
		if (obj)
			object_unref(obj);
		return ws_fail(WSA_INVALID_HANDLE);
	}
	s = to_ws_socket(obj);
	r = ws_request_new(WS_REQ_RECV, s, ov ? ov : &local, ov ? routine : NULL);
	if (!r) {
		object_unref(obj);
		return ws_fail(WSAENOBUFS);
	}
	__atomic_store_n(&r->ov->Internal, (ULONG_PTR)STATUS_PENDING, __ATOMIC_RELEASE);
	klock(&s->lock);
	if (s->closed) {
		kunlock(&s->lock);
		ws_request_free(r);
		object_unref(obj);
		return ws_fail(WSA_INVALID_HANDLE);
	}
	list_add_tail(&s->reads, &r->entry);
	kunlock(&s->lock);
	object_unref(obj);
	if (ov)
		return ws_fail(WSA_IO_PENDING);
	/* Blocking form: until the handle is closed. */
	io_wait_overlapped(&local);
	status = __atomic_load_n(&local.Internal, __ATOMIC_ACQUIRE);
	return status ? ws_fail(WSA_OPERATION_ABORTED) : 0;
}
