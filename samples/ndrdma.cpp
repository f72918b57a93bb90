/* ndrdma: RDMA Write and RDMA Read between two NetworkDirect v2 queue
 * pairs, latency and bandwidth over a range of sizes, in perftest's table
 * style (ib_write_lat, ib_read_lat, ib_write_bw, ib_read_bw).
 *
 *   ndrdma -s ADDR[:PORT] [-b]
 *   ndrdma -c SERVER[:PORT] [-l LOCAL] [-t write|read] [-m lat|bw] [-b] [-r]
 *          [-n ITERS] [-S MIN] [-M MAX] [-d DEPTH] [-w SECS] [-X]
 *
 * The client chooses the test and tells the server in Connect's private
 * data.  After the connection each side binds a memory window over the
 * part of its buffer the peer may touch (write: ALLOW_WRITE, read:
 * ALLOW_READ; -r: the region's own remote token instead) and sends its
 * address, length and token in a Send.
 *
 *   write lat  ping-pong like ib_write_lat: the client writes SIZE bytes
 *              into the server's buffer, the server spins on their last
 *              byte and writes SIZE bytes back; latency is half the round
 *              trip.  Two slots per side alternate, so each side checks
 *              the message it got while the next one is on its way.
 *   read lat   the client reads SIZE bytes from the server's buffer and
 *              waits for the completion (ib_read_lat: the whole read).
 *   write bw   a stream of writes, DEPTH outstanding, each to its own slot
 *              of the server's buffer (ib_write_bw); read bw the same with
 *              reads (ib_read_bw).  The slots hold at most 32 MiB: a size
 *              with more transfers than slots runs in rounds, and after
 *              each round the data is checked (the server checks what was
 *              written when the client asks it to) and the target slots are
 *              overwritten with the complement of what must arrive next.
 *              Only the transfers are timed, not the checks between rounds.
 *
 * Every transfer is checked: each byte against a pattern that depends on
 * its place (and in the write ping-pong on the message), the target set to
 * the pattern's complement before it is written or read again.  Mismatches
 * are counted, reported with the first bad offset, and make the program
 * exit 1 (on both sides: the server's count reaches the client at the end).
 *
 * Completions of the program's own requests: polling (spin on GetResults),
 * or with -b blocking: Notify on the completion queue, an OVERLAPPED on the
 * adapter's overlapped file associated with an I/O completion port, and
 * GetQueuedCompletionStatus.  The write ping-pong's arrival has no
 * completion on the target side (RDMA Write carries none): it is found by
 * spinning on the last byte in both modes, as ib_write_lat does.
 *
 * Exit status 0 when every transfer completed and matched and everything
 * was released; 1 otherwise; 2 for a bad command line. */
#include "ndrdma/ndrdma.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- client ------------------------------------------------------------------------ */

enum Outcome { DONE, FAILED, REFUSED };

static const char *TestName(const Hello *h)
{
	return h->test == TEST_WRITE ? (h->mode == MODE_LAT ? "write latency" : "write bandwidth")
				     : (h->mode == MODE_LAT ? "read latency" : "read bandwidth");
}

static Outcome ClientConnect(Rdma *rd, const sockaddr *local, int localLength)
{
	const Options *o = rd->opt;
	Welcome welcome;
	ULONG len = sizeof(welcome);
	SOCKADDR_INET bind;
	NdRequest r;
	HRESULT hr;
	/* Reads need the server to let us have some outstanding. */
	ULONG outbound = rd->plan.test == TEST_READ ? rd->plan.depth : 0;

	if (outbound > rd->info.MaxOutboundReadLimit)
		outbound = rd->info.MaxOutboundReadLimit;
	memcpy(&bind, local, localLength);
	bind.Ipv4.sin_port = 0;	/* same offset in sockaddr_in6 */
	hr = rd->connector->Bind((const sockaddr *)&bind, localLength);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Connector::Bind failed: %s", NdStatusString(hr));
		return FAILED;
	}
	/* ND_TIMEOUT is a success code: the peer did not answer in time, and
	 * a client tries again. */
	for (int attempt = 0;; attempt++) {
		NdIssue(&r);
		hr = NdWait(&rd->waiter, rd->connector, &r,
			    rd->connector->Connect(rd->qp, (const sockaddr *)&o->address, o->addressLength, 0, outbound,
						   &rd->plan, sizeof(rd->plan), &r.ov),
			    WAIT_MS);
		if (hr != ND_TIMEOUT || attempt == 3)
			break;
	}
	if (hr == ND_CONNECTION_REFUSED)
		return REFUSED;
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Connector::Connect failed: %s", NdStatusString(hr));
		return FAILED;
	}
	memset(&welcome, 0, sizeof(welcome));
	hr = rd->connector->GetPrivateData(&welcome, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || len < sizeof(welcome) || welcome.magic != HELLO_MAGIC ||
	    welcome.version != PROTOCOL_VERSION) {
		Fail(rd, "the server's private data is not ndrdma's (%s, %lu bytes)", NdStatusString(hr),
		     (unsigned long)len);
		return FAILED;
	}
	hr = rd->connector->GetReadLimits(&rd->inboundReadLimit, &rd->outboundReadLimit);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Connector::GetReadLimits failed: %s", NdStatusString(hr));
		return FAILED;
	}
	if (rd->plan.test == TEST_READ && !rd->outboundReadLimit) {
		Fail(rd, "the connection allows no outstanding Read (we asked for %lu)", (unsigned long)outbound);
		return FAILED;
	}
	NdIssue(&r);
	hr = NdWait(&rd->waiter, rd->connector, &r, rd->connector->CompleteConnect(&r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Connector::CompleteConnect failed: %s", NdStatusString(hr));
		return FAILED;
	}
	rd->connected = true;
	printf("ndrdma client: connected; the server transfers up to %lu bytes\n", (unsigned long)welcome.maxTransfer);
	return DONE;
}

/* The end: each side's count of mismatched transfers to the other. */
static bool ClientFinish(Rdma *rd)
{
	Ctl done = { CTL_DONE, 0, 0, (UINT32)rd->badTransfers, rd->checkedTransfers, 0, 0, 0 }, answer;

	if (!SendCtl(rd, &done) || !NextCtl(rd, CTL_DONE, &answer))
		return false;
	rd->peerBadTransfers = answer.errors;
	printf("ndrdma client: %llu transfers checked here, %llu at the server; mismatched: %llu here, %llu there\n",
	       rd->checkedTransfers, (unsigned long long)answer.address, rd->badTransfers, rd->peerBadTransfers);
	if (rd->badTransfers || rd->peerBadTransfers) {
		Fail(rd, "%llu transfers did not arrive as sent", rd->badTransfers + rd->peerBadTransfers);
		return false;
	}
	return true;
}

static Outcome Client(const Options *o)
{
	Rdma rd;
	SOCKADDR_INET local;
	SIZE_T localLength = sizeof(local);
	Outcome out = FAILED;
	HRESULT hr;
	char text[80], text2[80];

	memset(&rd, 0, sizeof(rd));
	rd.opt = o;
	rd.role = "client";
	rd.ctlWaitMs = WAIT_MS;
	if (o->haveLocal) {
		local = o->local;
		localLength = o->localLength;
	} else {
		hr = NdResolveAddress((const sockaddr *)&o->address, o->addressLength, (sockaddr *)&local, &localLength);
		if (FAILED(hr)) {
			Fail(&rd, "no NetworkDirect address reaches %s: %s",
			     NdAddressString((const sockaddr *)&o->address, text, sizeof(text)), NdStatusString(hr));
			return FAILED;
		}
	}
	if (!Setup(&rd, (const sockaddr *)&local, (int)localLength)) {
		Teardown(&rd);
		return FAILED;
	}
	Hello *h = &rd.plan;

	h->magic = HELLO_MAGIC;
	h->version = PROTOCOL_VERSION;
	h->test = o->test;
	h->mode = o->mode;
	h->flags = (o->regionToken ? HELLO_REGION_TOKEN : 0) | (o->inject ? HELLO_INJECT : 0);
	h->minSize = o->minSize;
	h->maxSize = o->maxSize ? o->maxSize : NdDefaultMaxSize(rd.info.MaxTransferLength);
	h->iterations = o->iterations;
	h->depth = o->mode == MODE_BW ? o->depth : 1;
	if (h->maxSize > rd.info.MaxTransferLength || h->minSize > h->maxSize) {
		Fail(&rd, "sizes %lu..%lu: the adapter transfers at most %lu bytes (MaxTransferLength)",
		     (unsigned long)h->minSize, (unsigned long)h->maxSize, (unsigned long)rd.info.MaxTransferLength);
		Teardown(&rd);
		return FAILED;
	}
	static bool announced;

	/* Once, not again for each refused try. */
	if (!announced)
		printf("ndrdma client: %s -> %s, %s, %s, %lu iterations, sizes %lu..%lu\n",
		       NdAddressString((const sockaddr *)&local, text, sizeof(text)),
		       NdAddressString((const sockaddr *)&o->address, text2, sizeof(text2)), TestName(h),
		       o->blocking ? "blocking" : "polling", (unsigned long)h->iterations, (unsigned long)h->minSize,
		       (unsigned long)h->maxSize);
	announced = true;
	if (SetupQueuePair(&rd)) {
		out = ClientConnect(&rd, (const sockaddr *)&local, (int)localLength);
		if (out == DONE && !(ExchangeBuffers(&rd) && ClientRun(&rd) && ClientFinish(&rd)))
			out = FAILED;
	}
	Teardown(&rd);
	if (out == DONE && rd.failed)
		out = FAILED;
	return out;
}

/* ---- server ------------------------------------------------------------------------ */

static bool ServerAccept(Rdma *rd)
{
	const Options *o = rd->opt;
	Welcome welcome;
	Hello *h = &rd->plan;
	ULONG len = sizeof(*h);
	SOCKADDR_INET peer;
	ULONG peerLength = sizeof(peer);
	ULONG inbound;
	NdRequest r;
	HRESULT hr;
	char text[80];

	hr = rd->adapter->CreateListener(IID_IND2Listener, rd->file, (void **)&rd->listener);
	if (FAILED(hr)) {
		Fail(rd, "IND2Adapter::CreateListener failed: %s", NdStatusString(hr));
		return false;
	}
	hr = rd->listener->Bind((const sockaddr *)&o->address, o->addressLength);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Listener::Bind(%s) failed: %s",
		     NdAddressString((const sockaddr *)&o->address, text, sizeof(text)), NdStatusString(hr));
		return false;
	}
	hr = rd->listener->Listen(1);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Listener::Listen failed: %s", NdStatusString(hr));
		return false;
	}
	printf("ndrdma server: listening on %s (%s)\n", NdAddressString((const sockaddr *)&o->address, text, sizeof(text)),
	       o->blocking ? "blocking" : "polling");
	fflush(stdout);
	NdIssue(&r);
	hr = NdWait(&rd->waiter, rd->listener, &r, rd->listener->GetConnectionRequest(rd->connector, &r.ov),
		    INFINITE);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Listener::GetConnectionRequest failed: %s", NdStatusString(hr));
		return false;
	}
	memset(h, 0, sizeof(*h));
	hr = rd->connector->GetPrivateData(h, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || len < sizeof(*h) || h->magic != HELLO_MAGIC ||
	    h->version != PROTOCOL_VERSION || (h->test != TEST_WRITE && h->test != TEST_READ) ||
	    (h->mode != MODE_LAT && h->mode != MODE_BW) || h->flags & ~(HELLO_REGION_TOKEN | HELLO_INJECT) || !h->iterations ||
	    !h->depth || !h->minSize || h->minSize > h->maxSize) {
		Fail(rd, "rejecting a connection request that is not a valid ndrdma client's (%s, %lu bytes)",
		     NdStatusString(hr), (unsigned long)len);
		rd->connector->Reject(NULL, 0);
		return false;
	}
	if (h->maxSize > rd->info.MaxTransferLength) {
		Fail(rd, "rejecting a client that wants %lu-byte transfers: this adapter's MaxTransferLength is %lu",
		     (unsigned long)h->maxSize, (unsigned long)rd->info.MaxTransferLength);
		rd->connector->Reject(NULL, 0);
		return false;
	}
	hr = rd->connector->GetPeerAddress((sockaddr *)&peer, &peerLength);
	printf("ndrdma server: connection request from %s: %s, %lu iterations, sizes %lu..%lu\n",
	       hr == ND_SUCCESS ? NdAddressString((const sockaddr *)&peer, text, sizeof(text)) : "?", TestName(h),
	       (unsigned long)h->iterations, (unsigned long)h->minSize, (unsigned long)h->maxSize);
	if (!SetupQueuePair(rd)) {
		rd->connector->Reject(NULL, 0);
		return false;
	}
	inbound = h->test == TEST_READ ? h->depth : 0;
	if (inbound > rd->info.MaxInboundReadLimit)
		inbound = rd->info.MaxInboundReadLimit;
	welcome.magic = HELLO_MAGIC;
	welcome.version = PROTOCOL_VERSION;
	welcome.maxTransfer = rd->info.MaxTransferLength;
	NdIssue(&r);
	hr = NdWait(&rd->waiter, rd->connector, &r,
		    rd->connector->Accept(rd->qp, inbound, 0, &welcome, sizeof(welcome), &r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2Connector::Accept failed: %s", NdStatusString(hr));
		return false;
	}
	rd->connected = true;
	NdIssue(&rd->disconnectNotify);
	hr = rd->connector->NotifyDisconnect(&rd->disconnectNotify.ov);
	if (hr != ND_PENDING) {
		Fail(rd, "IND2Connector::NotifyDisconnect returned %s, not ND_PENDING", NdStatusString(hr));
		return false;
	}
	return true;
}

/* The server does what the client asks until it is done. */
static bool ServerRun(Rdma *rd)
{
	/* Between two requests the client may work for long (a read test
	 * asks nothing until its end); its going away ends the wait. */
	rd->ctlWaitMs = INFINITE;
	for (;;) {
		Ctl ask;

		if (!NextCtl(rd, 0, &ask))
			return false;
		switch (ask.type) {
		case CTL_SIZE:
			if (rd->plan.mode != MODE_LAT || rd->plan.test != TEST_WRITE) {
				Fail(rd, "a ping-pong asked for in a %s test", TestName(&rd->plan));
				return false;
			}
			if (!ServePingSize(rd, &ask))
				return false;
			break;
		case CTL_VERIFY:
			if (rd->plan.mode != MODE_BW || rd->plan.test != TEST_WRITE) {
				Fail(rd, "a check asked for in a %s test", TestName(&rd->plan));
				return false;
			}
			if (!ServeVerify(rd, &ask))
				return false;
			break;
		case CTL_DONE: {
			Ctl done = { CTL_DONE, 0, 0, (UINT32)rd->badTransfers, rd->checkedTransfers, 0, 0, 0 };

			rd->peerBadTransfers = ask.errors;
			/* The client's last access is behind it: the window goes
			 * before the client hears from us and disconnects. */
			if (!Unbind(rd) || !SendCtl(rd, &done))
				return false;
			while (rd->ctlSendOutstanding) {
				if (!Progress(rd))
					return false;
			}
			printf("ndrdma server: %llu transfers checked here, %llu at the client; mismatched: %llu here, "
			       "%llu there\n", rd->checkedTransfers, (unsigned long long)ask.address, rd->badTransfers,
			       rd->peerBadTransfers);
			if (rd->badTransfers || rd->peerBadTransfers) {
				Fail(rd, "%llu transfers did not arrive as sent", rd->badTransfers + rd->peerBadTransfers);
				return false;
			}
			return true;
		}
		default:
			Fail(rd, "control message %lu from the client", (unsigned long)ask.type);
			return false;
		}
	}
}

static Outcome Server(const Options *o)
{
	Rdma rd;
	bool ok;

	memset(&rd, 0, sizeof(rd));
	rd.opt = o;
	rd.role = "server";
	rd.ctlWaitMs = WAIT_MS;
	ok = Setup(&rd, (const sockaddr *)&o->address, o->addressLength) && ServerAccept(&rd) &&
	     ExchangeBuffers(&rd) && ServerRun(&rd);
	Teardown(&rd);
	return ok && !rd.failed ? DONE : FAILED;
}

/* ---- command line ----------------------------------------------------------------- */

static void Usage(FILE *f = stderr)
{
	fprintf(f,
		"usage: ndrdma -s ADDR[:PORT] [-b]\n"
		"       ndrdma -c SERVER[:PORT] [-l LOCAL] [-t write|read] [-m lat|bw] [-b] [-r]\n"
		"              [-n ITERS] [-S MIN] [-M MAX] [-d DEPTH] [-w SECS] [-X]\n"
		"  -s ADDR[:PORT]    serve one client on this NetworkDirect address (port %u)\n"
		"  -c SERVER[:PORT]  connect to a server; the client chooses the test\n"
		"  -l LOCAL          the local address to use (default: the route to SERVER)\n"
		"  -t write|read     RDMA Write (default) or RDMA Read\n"
		"  -m lat|bw         latency (default: write ping-pong spinning on the last byte,\n"
		"                    or one Read at a time) or bandwidth (a stream, DEPTH outstanding)\n"
		"  -b                blocking: CQ Notify + I/O completion port (default: polling)\n"
		"  -r                the peer uses the memory region's remote token (default: a\n"
		"                    memory window bound over the buffer)\n"
		"  -n ITERS          transfers per size (default 1000)\n"
		"  -S MIN, -M MAX    sizes MIN, then doubling up to MAX (default 1 and the adapter's\n"
		"                    MaxTransferLength or 8 MiB, whichever is less; k/m suffixes)\n"
		"  -d DEPTH          bandwidth: requests outstanding (default 16)\n"
		"  -w SECS           retry a refused connection for up to SECS seconds (default 0)\n"
		"  -X                self-test of the checks: one byte of the data is corrupted on\n"
		"                    purpose (a write's source, or the server's buffer for reads);\n"
		"                    the run must report the mismatch and exit 1\n"
		"  -h, --help        this text\n"
		"Every transfer's data is checked; mismatches are counted and reported.\n"
		"exit status: 0 every transfer went through and matched, 1 a failure (no adapter,\n"
		"connection refused or lost, a request failed, mismatched data), 2 bad command line\n",
		DEFAULT_PORT);
}

int main(int argc, char **argv)
{
	Options o;
	const char *addr = NULL, *local = NULL;
	bool client = false, clientOnly = false;
	Outcome out;
	HRESULT hr;

	memset(&o, 0, sizeof(o));
	o.test = TEST_WRITE;
	o.mode = MODE_LAT;
	o.iterations = 1000;
	o.minSize = 1;
	o.depth = 16;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			Usage(stdout);
			return 0;
		}
		if (!strcmp(a, "-b")) {
			o.blocking = true;
			continue;
		}
		if (!strcmp(a, "-r")) {
			o.regionToken = clientOnly = true;
			continue;
		}
		if (!strcmp(a, "-X")) {
			o.inject = clientOnly = true;
			continue;
		}
		if (a[0] != '-' || !a[1] || a[2] || !v) {
			Usage();
			return 2;
		}
		i++;
		bool good = true;

		switch (a[1]) {
		case 's':
			o.server = true;
			addr = v;
			break;
		case 'c':
			client = true;
			addr = v;
			break;
		case 'l':
			local = v;
			clientOnly = true;
			break;
		case 't':
			o.test = !strcmp(v, "write") ? TEST_WRITE : !strcmp(v, "read") ? TEST_READ : 0;
			good = o.test != 0;
			clientOnly = true;
			break;
		case 'm':
			o.mode = !strcmp(v, "lat") ? MODE_LAT : !strcmp(v, "bw") ? MODE_BW : 0;
			good = o.mode != 0;
			clientOnly = true;
			break;
		case 'n':
			good = NdParseNumber(v, &o.iterations) && o.iterations;
			clientOnly = true;
			break;
		case 'S':
			good = NdParseNumber(v, &o.minSize) && o.minSize;
			clientOnly = true;
			break;
		case 'M':
			good = NdParseNumber(v, &o.maxSize) && o.maxSize;
			clientOnly = true;
			break;
		case 'd':
			good = NdParseNumber(v, &o.depth) && o.depth && o.depth <= 65536;
			clientOnly = true;
			break;
		case 'w':
			good = NdParseNumber(v, &o.waitSeconds);
			clientOnly = true;
			break;
		default:
			good = false;
		}
		if (!good) {
			Usage();
			return 2;
		}
	}
	if (o.server == client || (o.maxSize && o.minSize > o.maxSize) || (o.server && clientOnly)) {
		Usage();
		return 2;
	}
	if (!NdParseAddress(addr, DEFAULT_PORT, &o.address, &o.addressLength)) {
		fprintf(stderr, "ndrdma: not a numeric address: %s\n", addr);
		return 2;
	}
	if (local) {
		if (!NdParseAddress(local, 0, &o.local, &o.localLength)) {
			fprintf(stderr, "ndrdma: not a numeric address: %s\n", local);
			return 2;
		}
		o.haveLocal = true;
	}
	hr = NdStartup();
	if (FAILED(hr)) {
		fprintf(stderr, "ndrdma: NdStartup failed: %s\n", NdStatusString(hr));
		return 1;
	}
	if (o.server) {
		out = Server(&o);
	} else {
		ULONGLONG deadline = GetTickCount64() + (ULONGLONG)o.waitSeconds * 1000;

		/* A refused connection (no server listening yet) is tried again
		 * from scratch: new queue pair, new connector. */
		while ((out = Client(&o)) == REFUSED && GetTickCount64() < deadline)
			Sleep(500);
		if (out == REFUSED)
			fprintf(stderr, "ndrdma client: connection refused by %s\n", addr);
	}
	NdCleanup();
	return out == DONE ? 0 : 1;
}
