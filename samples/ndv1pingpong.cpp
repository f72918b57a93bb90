/* ndv1pingpong: Send/Receive ping-pong between two NetworkDirect v1
 * endpoints (INDAdapter, INDConnector, INDEndpoint), over a range of
 * message sizes: the program an older ND client is, for the provider's
 * v1 entry.
 *
 *   ndv1pingpong -s ADDR[:PORT]
 *   ndv1pingpong -c SERVER[:PORT] [-l LOCAL] [-n ITERS] [-S MIN] [-M MAX] [-w SECS]
 *
 * The adapter comes from the catalog's ND v1 entry (NdOpenV1Adapter).
 * The client posts its receives before it connects (v1 allows it), tells
 * the server its schedule in Connect's private data, and sends a message
 * of each size (MIN, then doubling up to MAX) ITERS times; the server
 * checks it and sends one of the same size back, which the client checks.
 * Every byte is checked against a pattern of the message's sequence
 * number, size and direction; each completion's ND_RESULT must be the
 * request's own, with ND_SUCCESS and the size as BytesTransferred.
 *
 * Exit status 0 when every message completed and matched and everything
 * was released; 1 otherwise; 2 for a bad command line. */
#include "common/ndutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PORT 54421
#define RECV_DEPTH 4
#define WAIT_MS 30000
#define MAX_BUFFER (1u << 20)
#define HELLO_MAGIC 0x3150504Eu	/* "NPP1" */
#define REFUSED 3	/* Client(): refused, may try again */

struct Hello {
	UINT32 magic;
	UINT32 minSize;
	UINT32 maxSize;
	UINT32 iterations;
};

struct Options {
	bool server;
	SOCKADDR_INET address;
	int addressLength;
	bool haveLocal;
	SOCKADDR_INET local;
	int localLength;
	ULONG iterations, minSize, maxSize;
	ULONG waitSeconds;
};

struct V1 {
	const char *role;
	INDAdapter *adapter;
	INDCompletionQueue *cq;
	INDConnector *connector;
	INDEndpoint *endpoint;
	INDListen *listen;
	ND_MR_HANDLE mr;
	char *buffer;		/* RECV_DEPTH receive buffers, then the send buffer */
	ULONG slot;		/* bytes per buffer */
	ND_RESULT recvResult[RECV_DEPTH];
	ND_RESULT sendResult;
	OVERLAPPED ov;
};

static int Fail(V1 *v, const char *what, HRESULT hr)
{
	fprintf(stderr, "ndv1pingpong %s: %s failed: %s\n", v->role, what, NdStatusString(hr));
	return 1;
}

/* An overlapped request to its end: ND_PENDING waits on the event. */
static HRESULT Finish(INDOverlapped *o, OVERLAPPED *ov, HRESULT hr, SIZE_T *bytes)
{
	SIZE_T dummy;

	if (hr == ND_PENDING)
		hr = o->GetOverlappedResult(ov, bytes ? bytes : &dummy, TRUE);
	return hr;
}

static unsigned char Pattern(ULONG seq, ULONG size, ULONG dir, ULONG i)
{
	return (unsigned char)(seq * 131 + size * 7 + dir * 61 + i * 13 + (i >> 8));
}

static void Fill(char *p, ULONG seq, ULONG size, ULONG dir)
{
	for (ULONG i = 0; i < size; i++)
		p[i] = (char)Pattern(seq, size, dir, i);
}

static bool Check(V1 *v, const char *p, ULONG seq, ULONG size, ULONG dir)
{
	for (ULONG i = 0; i < size; i++) {
		if ((unsigned char)p[i] != Pattern(seq, size, dir, i)) {
			fprintf(stderr, "ndv1pingpong %s: message %lu of %lu bytes differs at offset %lu\n", v->role,
				(unsigned long)seq, (unsigned long)size, (unsigned long)i);
			return false;
		}
	}
	return true;
}

static HRESULT PostReceive(V1 *v, ULONG k)
{
	ND_SGE sge = { v->buffer + (SIZE_T)k * v->slot, v->slot, v->mr };

	v->recvResult[k].Status = ND_PENDING;
	return v->endpoint->Receive(&v->recvResult[k], &sge, 1);
}

/* The next completion: its ND_RESULT, or NULL after WAIT_MS. */
static ND_RESULT *NextResult(V1 *v)
{
	ULONGLONG end = GetTickCount64() + WAIT_MS;
	ND_RESULT *r;

	do {
		if (v->cq->GetResults(&r, 1) == 1)
			return r;
	} while (GetTickCount64() < end);
	fprintf(stderr, "ndv1pingpong %s: no completion in %u ms\n", v->role, WAIT_MS);
	return NULL;
}

/* Waits for the send and for one receive (in either order); the index of
 * the receive, -1 on failure. */
static int Exchange(V1 *v, bool wantSend, ULONG size)
{
	int recv = -1;
	bool sent = !wantSend;

	while (recv < 0 || !sent) {
		ND_RESULT *r = NextResult(v);

		if (!r)
			return -1;
		if (r == &v->sendResult) {
			if (r->Status != ND_SUCCESS || sent) {
				Fail(v, "Send", r->Status);
				return -1;
			}
			sent = true;
			continue;
		}
		if (r < v->recvResult || r >= v->recvResult + RECV_DEPTH || recv >= 0) {
			fprintf(stderr, "ndv1pingpong %s: GetResults returned an ND_RESULT no request gave (%p)\n",
				v->role, (void *)r);
			return -1;
		}
		if (r->Status != ND_SUCCESS) {
			Fail(v, "Receive", r->Status);
			return -1;
		}
		if (r->BytesTransferred != size) {
			fprintf(stderr, "ndv1pingpong %s: received %lu bytes, expected %lu\n", v->role,
				(unsigned long)r->BytesTransferred, (unsigned long)size);
			return -1;
		}
		recv = (int)(r - v->recvResult);
	}
	return recv;
}

static HRESULT Send(V1 *v, ULONG seq, ULONG size, ULONG dir)
{
	char *p = v->buffer + (SIZE_T)RECV_DEPTH * v->slot;
	ND_SGE sge = { p, size, v->mr };

	Fill(p, seq, size, dir);
	v->sendResult.Status = ND_PENDING;
	return v->endpoint->Send(&v->sendResult, &sge, size ? 1 : 0, 0);
}

static int Setup(V1 *v, const struct sockaddr *local, int localLength, ULONG slot)
{
	ND_ADAPTER_INFO1 info;
	SIZE_T size = sizeof(info), maxInline;
	HRESULT hr;

	hr = NdOpenV1Adapter(local, localLength, &v->adapter);
	if (FAILED(hr))
		return Fail(v, "NdOpenV1Adapter", hr);
	hr = v->adapter->Query(ND_VERSION_1, &info, &size);
	if (FAILED(hr))
		return Fail(v, "INDAdapter::Query", hr);
	if (slot > info.MaxInboundLength || slot > info.MaxOutboundLength) {
		fprintf(stderr, "ndv1pingpong %s: messages of %lu bytes exceed the adapter's limits\n", v->role,
			(unsigned long)slot);
		return 1;
	}
	v->slot = slot ? slot : 1;
	v->ov.hEvent = CreateEventW(NULL, FALSE, FALSE, NULL);
	v->buffer = (char *)VirtualAlloc(NULL, (SIZE_T)(RECV_DEPTH + 1) * v->slot, MEM_COMMIT | MEM_RESERVE,
					 PAGE_READWRITE);
	if (!v->ov.hEvent || !v->buffer)
		return Fail(v, "allocating", ND_NO_MEMORY);
	hr = v->adapter->RegisterMemory(v->buffer, (SIZE_T)(RECV_DEPTH + 1) * v->slot, &v->ov, &v->mr);
	hr = Finish(v->adapter, &v->ov, hr, NULL);
	if (FAILED(hr))
		return Fail(v, "INDAdapter::RegisterMemory", hr);
	hr = v->adapter->CreateCompletionQueue(2 * RECV_DEPTH + 2, &v->cq);
	if (FAILED(hr))
		return Fail(v, "INDAdapter::CreateCompletionQueue", hr);
	hr = v->adapter->CreateConnector(&v->connector);
	if (FAILED(hr))
		return Fail(v, "INDAdapter::CreateConnector", hr);
	hr = v->connector->CreateEndpoint(v->cq, v->cq, RECV_DEPTH, 1, 1, 1, 0, 0, &maxInline, &v->endpoint);
	if (FAILED(hr))
		return Fail(v, "INDConnector::CreateEndpoint", hr);
	/* Receives before the connection exists: v1 allows it. */
	for (ULONG k = 0; k < RECV_DEPTH; k++) {
		hr = PostReceive(v, k);
		if (FAILED(hr))
			return Fail(v, "INDEndpoint::Receive", hr);
	}
	return 0;
}

static int Teardown(V1 *v, int rc)
{
	HRESULT hr;

	if (v->connector && rc == 0) {
		hr = Finish(v->connector, &v->ov, v->connector->Disconnect(&v->ov), NULL);
		if (FAILED(hr))
			rc = Fail(v, "INDConnector::Disconnect", hr);
	}
	if (v->endpoint)
		v->endpoint->Release();
	if (v->connector)
		v->connector->Release();
	if (v->listen)
		v->listen->Release();
	if (v->cq)
		v->cq->Release();
	if (v->mr) {
		hr = Finish(v->adapter, &v->ov, v->adapter->DeregisterMemory(v->mr, &v->ov), NULL);
		if (FAILED(hr) && rc == 0)
			rc = Fail(v, "INDAdapter::DeregisterMemory", hr);
	}
	if (v->adapter && v->adapter->Release() != 0 && rc == 0) {
		fprintf(stderr, "ndv1pingpong %s: the adapter outlived its last release\n", v->role);
		rc = 1;
	}
	if (v->buffer)
		VirtualFree(v->buffer, 0, MEM_RELEASE);
	if (v->ov.hEvent)
		CloseHandle(v->ov.hEvent);
	return rc;
}

static int Server(const Options *o)
{
	V1 v = {};
	Hello hello;
	/* The private data arrives padded to what the transport carries
	 * (56 bytes for RoCE): room for all of it. */
	char priv[256];
	SIZE_T in, out, len = sizeof(priv);
	USHORT port = ntohs(o->address.si_family == AF_INET ? o->address.Ipv4.sin_port : o->address.Ipv6.sin6_port);
	USHORT assigned = 0;
	ULONG seq = 0, received = 0;
	HRESULT hr;
	int rc;

	v.role = "server";
	rc = Setup(&v, (const struct sockaddr *)&o->address, o->addressLength, MAX_BUFFER);
	if (rc)
		return Teardown(&v, rc);
	hr = v.adapter->Listen(1, IPPROTO_TCP, port, &assigned, &v.listen);
	if (FAILED(hr))
		return Teardown(&v, Fail(&v, "INDAdapter::Listen", hr));
	printf("ndv1pingpong server: listening on port %u\n", assigned);
	fflush(stdout);
	hr = Finish(v.listen, &v.ov, v.listen->GetConnectionRequest(v.connector, &v.ov), NULL);
	if (FAILED(hr))
		return Teardown(&v, Fail(&v, "INDListen::GetConnectionRequest", hr));
	hr = v.connector->GetConnectionData(&in, &out, priv, &len);
	if (FAILED(hr))
		return Teardown(&v, Fail(&v, "INDConnector::GetConnectionData", hr));
	memcpy(&hello, priv, sizeof(hello));
	if (len < sizeof(hello) || hello.magic != HELLO_MAGIC || hello.maxSize > MAX_BUFFER) {
		v.connector->Reject(NULL, 0);
		fprintf(stderr, "ndv1pingpong server: not a ping-pong client (%lu bytes of private data)\n",
			(unsigned long)len);
		return Teardown(&v, 1);
	}
	hr = Finish(v.connector, &v.ov, v.connector->Accept(v.endpoint, NULL, 0, &v.ov), NULL);
	if (FAILED(hr))
		return Teardown(&v, Fail(&v, "INDConnector::Accept", hr));
	for (ULONG size = hello.minSize;; size = size ? size * 2 : 1) {
		if (size > hello.maxSize)
			break;
		for (ULONG i = 0; i < hello.iterations; i++, seq++) {
			int k = Exchange(&v, false, size);

			if (k < 0 || !Check(&v, v.buffer + (SIZE_T)k * v.slot, seq, size, 0))
				return Teardown(&v, 1);
			hr = PostReceive(&v, (ULONG)k);
			if (SUCCEEDED(hr))
				hr = Send(&v, seq, size, 1);
			if (FAILED(hr))
				return Teardown(&v, Fail(&v, "INDEndpoint::Send", hr));
			ND_RESULT *r = NextResult(&v);
			if (r != &v.sendResult || r->Status != ND_SUCCESS)
				return Teardown(&v, Fail(&v, "the echo's Send", r ? r->Status : ND_IO_TIMEOUT));
			received++;
		}
		if (size == hello.maxSize)
			break;
	}
	/* The client disconnects first; wait for it, then we are done. */
	hr = Finish(v.connector, &v.ov, v.connector->NotifyDisconnect(&v.ov), NULL);
	if (FAILED(hr) && hr != (HRESULT)0xC000020C)
		return Teardown(&v, Fail(&v, "INDConnector::NotifyDisconnect", hr));
	printf("ndv1pingpong server: %lu messages received, checked and echoed\n", (unsigned long)received);
	v.connector->Release();
	v.connector = NULL;
	return Teardown(&v, 0);
}

static int Client(const Options *o)
{
	V1 v = {};
	Hello hello = { HELLO_MAGIC, o->minSize, o->maxSize, o->iterations };
	SOCKADDR_INET local = o->local;
	SIZE_T localLength = sizeof(local);
	ULONG seq = 0;
	HRESULT hr;
	int rc;

	v.role = "client";
	if (!o->haveLocal) {
		hr = NdResolveAddress((const struct sockaddr *)&o->address, o->addressLength,
				      (struct sockaddr *)&local, &localLength);
		if (FAILED(hr))
			return Fail(&v, "NdResolveAddress", hr);
	} else {
		localLength = o->localLength;
	}
	rc = Setup(&v, (const struct sockaddr *)&local, (int)localLength, o->maxSize);
	if (rc)
		return Teardown(&v, rc);
	hr = v.connector->Connect(v.endpoint, (const struct sockaddr *)&o->address, o->addressLength, IPPROTO_TCP, 0,
				  &hello, sizeof(hello), &v.ov);
	hr = Finish(v.connector, &v.ov, hr, NULL);
	if (hr == ND_CONNECTION_REFUSED && o->waitSeconds) {
		Teardown(&v, 1);
		return REFUSED;
	}
	if (FAILED(hr))
		return Teardown(&v, Fail(&v, "INDConnector::Connect", hr));
	hr = Finish(v.connector, &v.ov, v.connector->CompleteConnect(&v.ov), NULL);
	if (FAILED(hr))
		return Teardown(&v, Fail(&v, "INDConnector::CompleteConnect", hr));
	printf(" %-10s %-10s %-14s\n", "#bytes", "#iters", "t_avg[usec]");
	for (ULONG size = o->minSize;; size = size ? size * 2 : 1) {
		LARGE_INTEGER f, t0, t1;

		if (size > o->maxSize)
			break;
		QueryPerformanceFrequency(&f);
		QueryPerformanceCounter(&t0);
		for (ULONG i = 0; i < o->iterations; i++, seq++) {
			int k;

			hr = Send(&v, seq, size, 0);
			if (FAILED(hr))
				return Teardown(&v, Fail(&v, "INDEndpoint::Send", hr));
			k = Exchange(&v, true, size);
			if (k < 0 || !Check(&v, v.buffer + (SIZE_T)k * v.slot, seq, size, 1))
				return Teardown(&v, 1);
			hr = PostReceive(&v, (ULONG)k);
			if (FAILED(hr))
				return Teardown(&v, Fail(&v, "INDEndpoint::Receive", hr));
		}
		QueryPerformanceCounter(&t1);
		printf(" %-10lu %-10lu %-14.2f\n", (unsigned long)size, (unsigned long)o->iterations,
		       (double)(t1.QuadPart - t0.QuadPart) * 1e6 / (double)f.QuadPart / o->iterations / 2);
		if (size == o->maxSize)
			break;
	}
	return Teardown(&v, 0);
}

static void Usage(FILE *f)
{
	fprintf(f, "usage: ndv1pingpong -s ADDR[:PORT]\n"
		   "       ndv1pingpong -c SERVER[:PORT] [-l LOCAL] [-n ITERS] [-S MIN] [-M MAX] [-w SECS]\n"
		   "Send/Receive ping-pong over NetworkDirect v1 (INDEndpoint), every byte checked.\n"
		   "  -s ADDR[:PORT]    serve on this local ND address (port %u)\n"
		   "  -c SERVER[:PORT]  connect to a server\n"
		   "  -l LOCAL          the local ND address (default: the route to SERVER)\n"
		   "  -n ITERS          messages per size (default 100)\n"
		   "  -S MIN, -M MAX    sizes MIN, then doubling up to MAX bytes (default 0 to 65536;\n"
		   "                    at most %u)\n"
		   "  -w SECS           retry a refused connection for up to SECS seconds (default 0)\n"
		   "Exit status: 0 all messages matched, 1 a failure, 2 a bad command line.\n",
		DEFAULT_PORT, MAX_BUFFER);
}

static bool Number(const char *s, ULONG *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > MAX_BUFFER * 4ul)
		return false;
	*out = (ULONG)v;
	return true;
}

int main(int argc, char **argv)
{
	Options o = {};
	bool have = false;
	int rc;

	o.iterations = 100;
	o.minSize = 0;
	o.maxSize = 65536;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			Usage(stdout);
			return 0;
		}
		if (!val) {
			Usage(stderr);
			return 2;
		}
		i++;
		if (!strcmp(a, "-s") || !strcmp(a, "-c")) {
			o.server = a[1] == 's';
			have = NdParseAddress(val, DEFAULT_PORT, &o.address, &o.addressLength);
			if (!have) {
				fprintf(stderr, "ndv1pingpong: bad address '%s'\n", val);
				return 2;
			}
		} else if (!strcmp(a, "-l")) {
			o.haveLocal = NdParseAddress(val, 0, &o.local, &o.localLength);
			if (!o.haveLocal) {
				fprintf(stderr, "ndv1pingpong: bad address '%s'\n", val);
				return 2;
			}
		} else if ((!strcmp(a, "-n") && Number(val, &o.iterations) && o.iterations) ||
			   (!strcmp(a, "-S") && Number(val, &o.minSize)) ||
			   (!strcmp(a, "-M") && Number(val, &o.maxSize)) ||
			   (!strcmp(a, "-w") && Number(val, &o.waitSeconds))) {
			continue;
		} else {
			fprintf(stderr, "ndv1pingpong: bad option %s %s\n", a, val);
			Usage(stderr);
			return 2;
		}
	}
	if (!have || o.minSize > o.maxSize || o.maxSize > MAX_BUFFER) {
		Usage(stderr);
		return 2;
	}
	rc = NdStartup();
	if (FAILED(rc)) {
		fprintf(stderr, "ndv1pingpong: NdStartup failed: %s\n", NdStatusString(rc));
		return 1;
	}
	if (o.server) {
		rc = Server(&o);
	} else {
		ULONGLONG deadline = GetTickCount64() + o.waitSeconds * 1000ull;

		while ((rc = Client(&o)) == REFUSED && GetTickCount64() < deadline)
			Sleep(200);
		if (rc == REFUSED) {
			fprintf(stderr, "ndv1pingpong client: INDConnector::Connect failed: %s\n",
				NdStatusString(ND_CONNECTION_REFUSED));
			rc = 1;
		}
	}
	NdCleanup();
	fflush(stdout);
	return rc;
}
