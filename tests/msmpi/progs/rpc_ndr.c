/* rpcrt4's two NDR client-call families against ndrun's SmpdMgrRpc server,
 * with hand-made procedure format strings (the -Oif header MIDL and widl
 * write: handle type, flags, RPC flags, procedure number, stack size, the
 * explicit handle's descriptor):
 *
 *   rpc_ndr.exe pmi        a rank of a one-rank job (under mpiexec.hydra):
 *       CreateSmpdMgrContext (NdrClientCall2), INIT (NdrAsyncClientCall,
 *       completion port), DBPUT (Ndr64AsyncClientCall, event), BARRIER
 *       (NdrClientCall2, sync), DBGET (NdrClientCall3), BCPUT/BCGET,
 *       DeleteSmpdMgrContext; then the failures: a stale context, an
 *       endpoint nobody serves, an unknown interface
 *   rpc_ndr.exe singleton  no process manager: the server is unavailable
 *
 * A failed call raises its status as an exception (caught here by a
 * vectored handler, as catch_av.h does for access violations). */
#include <windows.h>
#include <rpc.h>
#include <rpcasync.h>
#include <rpcndr.h>
#include <stdio.h>
#include <string.h>

static int failures, checks;
#define ok(c, ...)                                                   \
	do {                                                         \
		checks++;                                            \
		if (!(c)) {                                          \
			failures++;                                  \
			printf("rpc_ndr.c:%d: Test failed: ", __LINE__); \
			printf(__VA_ARGS__);                         \
		}                                                    \
	} while (0)

/* ---- catching a raised status ---- */
static CONTEXT catch_ctx;
static volatile int armed, caught;
static volatile DWORD caught_code;

static LONG CALLBACK handler(EXCEPTION_POINTERS *p)
{
	if (!armed)
		return EXCEPTION_CONTINUE_SEARCH;
	armed = 0;
	caught = 1;
	caught_code = p->ExceptionRecord->ExceptionCode;
	*p->ContextRecord = catch_ctx;
	return EXCEPTION_CONTINUE_EXECUTION;
}

/* 0 when fn(arg) returned, else the exception code it raised. */
static DWORD __attribute__((noinline)) raised(void (*fn)(void *), void *arg)
{
	caught = 0;
	caught_code = 0;
	armed = 1;
	RtlCaptureContext(&catch_ctx);
	if (!caught)
		fn(arg);
	armed = 0;
	return caught ? caught_code : 0;
}

/* ---- the interface ---- */
static RPC_CLIENT_INTERFACE smpd_if = {
	sizeof(RPC_CLIENT_INTERFACE),
	{ { 0x4fd29f8a, 0xd2e2, 0x485e, { 0x9e, 0xb9, 0xad, 0x66, 0x10, 0x7a, 0x5d, 0x06 } }, { 1, 0 } },
	{ { 0x8a885d04, 0x1ceb, 0x11c9, { 0x9f, 0xe8, 0x08, 0x00, 0x2b, 0x10, 0x48, 0x60 } }, { 2, 0 } },
	0, 0, 0, 0, 0, 0
};
static RPC_CLIENT_INTERFACE other_if = {
	sizeof(RPC_CLIENT_INTERFACE),
	{ { 0x11112222, 0x3333, 0x4444, { 0x55, 0x55, 0x66, 0x66, 0x77, 0x77, 0x88, 0x88 } }, { 1, 0 } },
	{ { 0x8a885d04, 0x1ceb, 0x11c9, { 0x9f, 0xe8, 0x08, 0x00, 0x2b, 0x10, 0x48, 0x60 } }, { 2, 0 } },
	0, 0, 0, 0, 0, 0
};
static MIDL_STUB_DESC desc = { .RpcInterfaceInformation = &smpd_if };
static MIDL_STUB_DESC other_desc = { .RpcInterfaceInformation = &other_if };
static MIDL_STUBLESS_PROXY_INFO proxy = { .pStubDesc = &desc };

/* Procedure 0 with an explicit primitive handle at stack offset 0;
 * procedures 1-3 take a context handle first. */
static const unsigned char fmt_create[] = { 0x00, 0x48, 0, 0, 0, 0, 0, 0, 0x38, 0, 0x32, 0x00, 0, 0 };
static const unsigned char fmt_async[] = { 0x00, 0x48, 0, 0, 0, 0, 1, 0, 0x20, 0, 0x30, 0x40, 0, 0 };
static const unsigned char fmt_sync[] = { 0x00, 0x48, 0, 0, 0, 0, 2, 0, 0x20, 0, 0x30, 0x40, 0, 0 };
static const unsigned char fmt_delete[] = { 0x00, 0x48, 0, 0, 0, 0, 3, 0, 0x10, 0, 0x30, 0xe0, 0, 0 };

/* SmpdRpc.idl's command and result layouts. */
struct cmd_hdr {
	int type;
	INT16 src, dest;
	UINT16 ctx_key;
};
struct cmd {
	struct cmd_hdr hdr;
	GUID kvs;
	union {
		struct {
			char key[32];
			char value[512];
		} db;
		struct {
			UINT16 rank, nprocs;
			char value[512];
		} bc;
	} u;
};
struct res {
	INT16 src, dest;
	DWORD err;
	char value[512];
};
enum { BARRIER = 2, BCGET = 7, BCPUT = 8, DBGET = 9, DBPUT = 10, INIT = 14 };

static RPC_BINDING_HANDLE binding(const char *endpoint)
{
	RPC_CSTR s = NULL;
	RPC_BINDING_HANDLE h = NULL;

	ok(RpcStringBindingComposeA(NULL, (RPC_CSTR) "ncalrpc", NULL, (RPC_CSTR)endpoint, NULL, &s) == RPC_S_OK,
	   "compose\n");
	ok(RpcBindingFromStringBindingA(s, &h) == RPC_S_OK, "binding\n");
	ok(RpcBindingSetAuthInfoA(h, NULL, RPC_C_AUTHN_LEVEL_PKT_PRIVACY, RPC_C_AUTHN_WINNT, NULL, 0) == RPC_S_OK,
	   "auth info\n");
	RpcStringFreeA(&s);
	return h;
}

struct create_args {
	RPC_BINDING_HANDLE b;
	void *ctx;
	DWORD ret;
	const MIDL_STUB_DESC *d;
};

static void create(void *p)
{
	struct create_args *a = p;
	BYTE data[8] = { 0 };

	a->ret = (DWORD)NdrClientCall2((PMIDL_STUB_DESC)a->d, fmt_create, a->b, 4u, L"host", data, 8u, &a->ctx).Simple;
}

struct sync_args {
	void *ctx;
	struct cmd *c;
	struct res *r;
};

static void sync_call(void *p)
{
	struct sync_args *a = p;

	NdrClientCall2(&desc, fmt_sync, a->ctx, a->c->hdr.type, a->c, a->r);
}

static void sync3_call(void *p)
{
	struct sync_args *a = p;

	NdrClientCall3(&proxy, 2, NULL, a->ctx, a->c->hdr.type, a->c, a->r);
}

static void test_pmi(void)
{
	struct create_args ca = { 0 };
	struct sync_args sa;
	struct cmd c;
	struct res r;
	RPC_ASYNC_STATE as;
	HANDLE port, ev;
	DWORD bytes, st;
	ULONG_PTR key;
	OVERLAPPED ov, *pov;
	void *ctx2;
	char *ep = getenv("PMI_PORT");

	ok(ep && *ep, "no PMI_PORT\n");
	if (!ep)
		return;
	ca.b = binding(ep);
	ca.d = &desc;
	ok(raised(create, &ca) == 0 && ca.ret == 0 && ca.ctx, "CreateSmpdMgrContext: %lu %p\n", ca.ret, ca.ctx);

	/* INIT, asynchronous, completing on a completion port. */
	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	memset(&c, 0, sizeof(c));
	memset(&r, 0xcc, sizeof(r));
	c.hdr.type = INIT;
	ok(RpcAsyncInitializeHandle(&as, sizeof(as)) == RPC_S_OK, "init handle\n");
	as.NotificationType = RpcNotificationTypeIoc;
	as.u.IOC.hIOPort = port;
	as.u.IOC.dwNumberOfBytesTransferred = 8;
	as.u.IOC.dwCompletionKey = 77;
	as.u.IOC.lpOverlapped = &ov;
	NdrAsyncClientCall(&desc, fmt_async, &as, ca.ctx, INIT, &c, &r);
	ok(GetQueuedCompletionStatus(port, &bytes, &key, &pov, 10000), "no completion\n");
	ok(bytes == 8 && key == 77 && pov == &ov, "packet %lu %lu %p\n", bytes, (unsigned long)key, (void *)pov);
	ok(RpcAsyncCompleteCall(&as, NULL) == RPC_S_OK && r.err == 0, "INIT: %lu\n", r.err);
	CloseHandle(port);

	/* DBPUT, NDR64's asynchronous call, completing with an event. */
	ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	c.hdr.type = DBPUT;
	strcpy(c.u.db.key, "ndr-key");
	strcpy(c.u.db.value, "a value; with spaces=and separators%");
	ok(RpcAsyncInitializeHandle(&as, sizeof(as)) == RPC_S_OK, "init handle\n");
	as.NotificationType = RpcNotificationTypeEvent;
	as.u.hEvent = ev;
	Ndr64AsyncClientCall(&proxy, 1, NULL, &as, ca.ctx, DBPUT, &c, &r);
	ok(WaitForSingleObject(ev, 10000) == WAIT_OBJECT_0, "event not set\n");
	ok((st = RpcAsyncCompleteCall(&as, NULL)) == RPC_S_OK && r.err == 0, "DBPUT: %lu %lu\n", st, r.err);
	CloseHandle(ev);

	/* BARRIER and DBGET, synchronous, one of each family. */
	sa.ctx = ca.ctx;
	sa.c = &c;
	sa.r = &r;
	c.hdr.type = BARRIER;
	ok(raised(sync_call, &sa) == 0 && r.err == 0, "BARRIER: %lu\n", r.err);
	c.hdr.type = DBGET;
	memset(r.value, 0, sizeof(r.value));
	ok(raised(sync3_call, &sa) == 0 && r.err == 0, "DBGET: %lu\n", r.err);
	ok(!strcmp(r.value, "a value; with spaces=and separators%"), "DBGET gave '%s'\n", r.value);
	c.hdr.type = BCPUT;
	c.u.bc.rank = 0;
	c.u.bc.nprocs = 1;
	strcpy(c.u.bc.value, "business card 0");
	ok(raised(sync_call, &sa) == 0 && r.err == 0, "BCPUT: %lu\n", r.err);
	c.hdr.type = BARRIER;
	ok(raised(sync_call, &sa) == 0 && r.err == 0, "BARRIER: %lu\n", r.err);
	c.hdr.type = BCGET;
	memset(r.value, 0, sizeof(r.value));
	ok(raised(sync_call, &sa) == 0 && r.err == 0 && !strcmp(r.value, "business card 0"), "BCGET: %lu '%s'\n", r.err,
	   r.value);
	c.hdr.type = DBGET;
	strcpy(c.u.db.key, "never-put");
	ok(raised(sync_call, &sa) == 0 && r.err == ERROR_NOT_FOUND, "a missing key: %lu\n", r.err);

	/* A second context, dropped on the client side only. */
	ok(raised(create, &ca) == 0 && ca.ctx, "second context\n");
	ctx2 = ca.ctx;
	RpcSsDestroyClientContext(&ctx2);
	ok(ctx2 == NULL, "RpcSsDestroyClientContext left %p\n", ctx2);
	ca.ctx = sa.ctx;

	/* DeleteSmpdMgrContext: PMI finalize; the context is gone after. */
	ok((DWORD)NdrClientCall2(&desc, fmt_delete, &ca.ctx).Simple == 0 && ca.ctx == NULL, "delete\n");
	ok(raised(sync_call, &sa) == RPC_X_SS_CONTEXT_MISMATCH, "a stale context: %#lx\n", caught_code);

	/* Failures before the server: the wrong endpoint, another interface. */
	RpcBindingFree(&ca.b);
	ca.b = binding("nobody-serves-this");
	ok(raised(create, &ca) == RPC_S_SERVER_UNAVAILABLE, "another endpoint: %#lx\n", caught_code);
	RpcBindingFree(&ca.b);
	ca.b = binding(ep);
	ca.d = &other_desc;
	ok(raised(create, &ca) == RPC_S_UNKNOWN_IF, "an unknown interface: %#lx\n", caught_code);
	RpcBindingFree(&ca.b);
}

static void test_singleton(void)
{
	struct create_args ca = { 0 };

	ok(!getenv("PMI_PORT"), "PMI_PORT set\n");
	ca.b = binding("ndshim-pmi");
	ca.d = &desc;
	ok(raised(create, &ca) == RPC_S_SERVER_UNAVAILABLE, "no process manager: %#lx\n", caught_code);
	RpcBindingFree(&ca.b);
}

int main(int argc, char **argv)
{
	void *h = AddVectoredExceptionHandler(1, handler);

	if (argc > 1 && !strcmp(argv[1], "pmi"))
		test_pmi();
	else
		test_singleton();
	RemoveVectoredExceptionHandler(h);
	printf("rpc_ndr: %d tests executed, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
