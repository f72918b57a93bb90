/* NdshimUnixCall: the one door from nd2prov.dll (PE code) to its Linux
 * side, nd2prov_unix.so, which owns every rdma-core object.  The .so is
 * loaded on the first call, so ndrun runs ordinary programs on machines
 * without rdma-core; its completions come back through ndrun's one
 * overlapped-completion path (core/overlapped.h).  The contract is
 * nd2provider/unix_call.h. */
#include <dlfcn.h>
#include <stddef.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/iocp.h"
#include "core/overlapped.h"
#include "core/selfpath.h"
#include "nd2provider/unix_call.h"
#include "ndshim/ndshim_private.h"

#include <ntstatus.h>

static const struct nd_unix_entry *entry;
static NTSTATUS load_status = STATUS_DLL_NOT_FOUND;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* entry once load() has succeeded, for the fast path. */
static const struct nd_unix_entry *published;

/* From the unix side's event thread (or the caller's): no TEB needed. */
static void host_complete(uint64_t file, uint64_t overlapped, int32_t status, uint64_t bytes)
{
	if (!io_finish_handle((HANDLE)(uintptr_t)file, (OVERLAPPED *)(uintptr_t)overlapped, (NTSTATUS)status,
			      (ULONG_PTR)bytes))
		TRACE(nd, "ov %p on %p: no longer pending (cancelled or completed)\n",
		      (void *)(uintptr_t)overlapped, (void *)(uintptr_t)file);
}

/* The provider's wake ops are core's iocp_source_ops, member for member. */
#define SAME_MEMBER(m)                                                                                        \
	_Static_assert(offsetof(struct nd_unix_wake_ops, m) == offsetof(struct iocp_source_ops, m) &&        \
			       __builtin_types_compatible_p(__typeof__(((struct nd_unix_wake_ops *)0)->m),   \
							    __typeof__(((struct iocp_source_ops *)0)->m)), \
		       #m)
SAME_MEMBER(claim);
SAME_MEMBER(unclaim);
SAME_MEMBER(drain);
SAME_MEMBER(hold);
SAME_MEMBER(release);
_Static_assert(sizeof(struct nd_unix_wake_ops) == sizeof(struct iocp_source_ops), "wake ops");

/* Once per CQ and port, from a Notify: the port of the file's target. */
static void *host_wake_attach(uint64_t file, int fd, const struct nd_unix_wake_ops *ops, void *ctx)
{
	struct object *obj, *port;
	struct io_target *t = io_target_get((HANDLE)(uintptr_t)file, &obj);
	void *att = NULL;

	if (!t)
		return NULL;
	port = atomic_load_explicit(&t->port, memory_order_acquire);
	if (port)
		att = iocp_source_attach(port, fd, (const struct iocp_source_ops *)ops, ctx);
	object_unref(obj);
	return att;
}

static void host_wake_detach(void *att)
{
	iocp_source_detach(att);
}

static const struct nd_unix_host host = {
	.abi_version = ND_UNIX_ABI_VERSION,
	.complete = host_complete,
	.wake_attach = host_wake_attach,
	.wake_detach = host_wake_detach,
};

/* NDSHIM_ND_UNIX names the .so; by default it is one of ndrun's own
 * files (beside it, or in PREFIX/lib/ndshim when installed). */
static void load(void)
{
	char *path = NULL;
	const char *env = getenv("NDSHIM_ND_UNIX");
	void *so;
	int32_t st;

	if (env && *env) {
		path = strdup(env);
	} else {
		path = ndrun_own_file(ND_UNIX_SONAME);
	}
	if (!path) {
		load_status = STATUS_NO_MEMORY;
		return;
	}
	so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		/* Once, in words a user can act on: the provider itself can
		 * only say that it has no adapters. */
		ndrun_error("the ND provider's Linux side is not available: %s", dlerror());
		free(path);
		return;
	}
	entry = dlsym(so, ND_UNIX_ENTRY_SYMBOL);
	if (!entry || entry->abi_version != ND_UNIX_ABI_VERSION || entry->call_count != ND_UNIX_CALL_COUNT) {
		ndrun_error("%s: not the ND provider's Linux side of this ndrun (ABI %u, %u calls; want %u, %u)",
			    path, entry ? entry->abi_version : 0, entry ? entry->call_count : 0,
			    ND_UNIX_ABI_VERSION, ND_UNIX_CALL_COUNT);
		entry = NULL;
		load_status = STATUS_INVALID_IMAGE_FORMAT;
		free(path);
		return;
	}
	st = entry->init(&host);
	if (st) {
		ndrun_error("%s: initialisation failed (status 0x%08x)", path, (unsigned)st);
		entry = NULL;
		load_status = st;
		free(path);
		return;
	}
	TRACE(nd, "loaded %s\n", path);
	free(path);
	load_status = STATUS_SUCCESS;
}

/* The first call (or one after a failed load) takes the slow path; every
 * later one reads the published table and jumps, with no pthread_once
 * through the PLT on each Send and GetResults. */
static const struct nd_unix_entry *load_entry(void)
{
	pthread_once(&load_once, load);
	return entry;
}

HRESULT WINAPI NdshimUnixCall(ULONG code, void *params)
{
	const struct nd_unix_entry *e = __atomic_load_n(&published, __ATOMIC_ACQUIRE);

	if (__builtin_expect(!e, 0)) {
		if (!(e = load_entry()))
			return load_status;
		__atomic_store_n(&published, e, __ATOMIC_RELEASE);
	}
	if (__builtin_expect(code >= ND_UNIX_CALL_COUNT, 0))
		return STATUS_INVALID_PARAMETER;
	return e->calls[code](params);
}
