/* ndrdma: the transfers (write ping-pong, read latency, bandwidth
 * streams), their checks, and the client's table. */
#include "ndrdma/ndrdma.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool PingPong(Rdma *rd, ULONG size, ULONGLONG seq, ULONG iterations, double *rtt);

/* ---- checks ---------------------------------------------------------------------- */

/* A transfer whose data did not match: counted, the first few reported. */
static void BadData(Rdma *rd, const char *what, ULONG size, ULONGLONG n, SIZE_T offset, UINT8 got, UINT8 want)
{
	rd->badTransfers++;
	if (rd->badTransfers <= 5)
		fprintf(stderr, "ndrdma %s: data mismatch in %s %llu of %lu bytes at offset %lu: got 0x%02X, expected 0x%02X\n",
			rd->role, what, n, (unsigned long)size, (unsigned long)offset, got, want);
}

static bool Check(Rdma *rd, const char *what, const char *p, UINT64 seed, SIZE_T start, ULONG size, ULONGLONG n)
{
	SIZE_T bad;

	rd->checkedTransfers++;
	rd->checkedBytes += size;
	if (PatternCheck(p, seed, start, size, &bad))
		return true;
	BadData(rd, what, size, n, bad, (UINT8)p[bad], PatternByte(seed, start + bad));
	return false;
}

/* ---- the write ping-pong ------------------------------------------------------------ */

/* The marker that ends message seq: never 0 (a fresh slot) and never the
 * marker of the message before it in the same slot. */
static UINT8 Marker(ULONGLONG seq)
{
	return (UINT8)((seq >> 1) % 255 + 1);
}

static UINT64 PingSeed(ULONGLONG seq, bool fromServer)
{
	return seq * 2 + (fromServer ? 1 : 0) + 0x1000;
}

static char *Slot(char *area, ULONG size, ULONGLONG seq)
{
	return area + (SIZE_T)size * (seq & 1);
}

/* Message seq of the given size, into a local slot: the pattern, then the
 * marker in its last byte. */
static void PingFill(Rdma *rd, ULONG size, ULONGLONG seq)
{
	char *p = Slot(rd->local, size, seq);

	PatternFill(p, PingSeed(seq, rd->opt->server), 0, size);
	p[size - 1] = (char)Marker(seq);
	/* -X: one byte of the client's first message that has more than its
	 * marker (a wrong marker would never be seen arrive). */
	if (rd->plan.flags & HELLO_INJECT && !rd->opt->server && size >= 2 && !rd->injected) {
		p[(size - 1) / 2] ^= 0x80;
		rd->injected = true;
	}
}

/* The message seq that arrived in our exposed slot. */
static void PingCheck(Rdma *rd, ULONG size, ULONGLONG seq)
{
	const char *p = Slot(rd->exposed, size, seq);
	bool fromServer = !rd->opt->server;

	rd->checkedTransfers++;
	rd->checkedBytes += size;
	SIZE_T bad;

	if (!PatternCheck(p, PingSeed(seq, fromServer), 0, size - 1, &bad))
		BadData(rd, "message", size, seq, bad, (UINT8)p[bad], PatternByte(PingSeed(seq, fromServer), bad));
	else if ((UINT8)p[size - 1] != Marker(seq))
		BadData(rd, "message", size, seq, size - 1, (UINT8)p[size - 1], Marker(seq));
}

/* Spins until the last byte of the exposed slot says message seq is
 * there; looks at the completion queue now and then, so a peer that went
 * away or a failed request ends the wait. */
static bool SpinMarker(Rdma *rd, ULONG size, ULONGLONG seq)
{
	volatile const char *last = Slot(rd->exposed, size, seq) + size - 1;
	char want = (char)Marker(seq);
	ULONGLONG start = 0;
	unsigned spins = 0;

	while (*last != want) {
		/* With one CPU for both sides (a small guest), the peer runs
		 * only when we let it: a yield costs a system call when nobody
		 * else is runnable, and saves a time slice when the peer is. */
		if (++spins % 1024 == 0)
			SwitchToThread();
		if (spins % 4096)
			continue;
		if (!Poll(rd))
			return false;
		if (rd->peerGone) {
			Fail(rd, "the peer disconnected before message %llu", seq);
			return false;
		}
		if (!start)
			start = GetTickCount64();
		else if (GetTickCount64() - start > WAIT_MS) {
			Fail(rd, "message %llu (%lu bytes) did not arrive in %u s", seq, (unsigned long)size,
			     WAIT_MS / 1000);
			return false;
		}
	}
	/* Acquire: the bytes before the marker are read after it. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return true;
}

/* Before the ping-pong of a size: the bytes where its first two messages
 * end are cleared on both sides (0 is no marker), so what the size before
 * left there cannot pass for a message.  The client asks, the server
 * clears and answers: the client writes nothing before that. */
static void ClearMarkers(Rdma *rd, ULONG size)
{
	rd->exposed[size - 1] = 0;
	rd->exposed[2 * (SIZE_T)size - 1] = 0;
}

static bool PingStart(Rdma *rd, ULONG size, ULONGLONG seq)
{
	Ctl ask = { CTL_SIZE, size, 0, 0, seq, 0, 0, 0 }, answer;

	ClearMarkers(rd, size);
	return SendCtl(rd, &ask) && NextCtl(rd, CTL_RESULT, &answer);
}

bool ServePingSize(Rdma *rd, const Ctl *ask)
{
	Ctl answer = { CTL_RESULT, ask->size, 0, 0, 0, 0, 0, 0 };

	if (!ask->size || ask->size > rd->plan.maxSize) {
		Fail(rd, "the client asked for a ping-pong of %lu bytes (most %lu)", (unsigned long)ask->size,
		     (unsigned long)rd->plan.maxSize);
		return false;
	}
	ClearMarkers(rd, ask->size);
	return SendCtl(rd, &answer) && PingPong(rd, ask->size, ask->address, rd->plan.iterations, NULL);
}

static bool PingPong(Rdma *rd, ULONG size, ULONGLONG seq, ULONG iterations, double *rtt)
{
	bool server = rd->opt->server;

	/* The first two messages of this size; later ones are filled once the
	 * slot's last Write has completed. */
	PingFill(rd, size, seq);
	if (iterations > 1)
		PingFill(rd, size, seq + 1);
	for (ULONG it = 0; it < iterations; it++, seq++) {
		SIZE_T off = (SIZE_T)size * (seq & 1);
		LARGE_INTEGER t0, t1;

		if (server && !SpinMarker(rd, size, seq))
			return false;
		QueryPerformanceCounter(&t0);
		if (!PostOp(rd, Slot(rd->local, size, seq), size, rd->peerAddress + off))
			return false;
		if (!server && !SpinMarker(rd, size, seq))
			return false;
		QueryPerformanceCounter(&t1);
		if (rtt)
			rtt[it] = NdSeconds(t0, t1);
		/* Untimed: the Write's own completion (its slot is reused two
		 * messages on), the check, the message after next. */
		if (!WaitOps(rd, 0))
			return false;
		PingCheck(rd, size, seq);
		if (it + 2 < iterations)
			PingFill(rd, size, seq + 2);
	}
	return true;
}

/* ---- the read latency -------------------------------------------------------------- */

static bool ReadLatency(Rdma *rd, ULONG size, ULONGLONG *seq, ULONG iterations, double *rtt)
{
	for (ULONG it = 0; it < iterations; it++, (*seq)++) {
		LARGE_INTEGER t0, t1;

		/* The sink holds the complement of what must arrive. */
		PatternPoison(rd->local, EXPOSED_SEED, 0, size);
		QueryPerformanceCounter(&t0);
		if (!PostOp(rd, rd->local, size, rd->peerAddress) || !WaitOps(rd, 0))
			return false;
		QueryPerformanceCounter(&t1);
		rtt[it] = NdSeconds(t0, t1);
		Check(rd, "read", rd->local, EXPOSED_SEED, 0, size, *seq);
	}
	return true;
}

/* ---- the bandwidth streams ----------------------------------------------------------- */

/* Slots of this size in an area of areaBytes, for a stream of iterations. */
ULONG StreamSlots(SIZE_T areaBytes, ULONG size, ULONG iterations)
{
	SIZE_T n = areaBytes / size;

	if (n > iterations)
		n = iterations;
	return n ? (ULONG)n : 1;
}

/* One round: count transfers, slot i of the local area to (write) or from
 * (read) slot i of the peer's, depth outstanding.  Returns the seconds it
 * took. */
static bool StreamRound(Rdma *rd, ULONG size, ULONG count, double *seconds)
{
	ULONG depth = rd->plan.depth;
	LARGE_INTEGER t0, t1;

	QueryPerformanceCounter(&t0);
	for (ULONG i = 0; i < count; i++) {
		SIZE_T off = (SIZE_T)size * i;

		if (rd->opsOutstanding >= depth && !WaitOps(rd, depth - 1))
			return false;
		if (!PostOp(rd, rd->local + off, size, rd->peerAddress + off))
			return false;
	}
	if (!WaitOps(rd, 0))
		return false;
	QueryPerformanceCounter(&t1);
	*seconds += NdSeconds(t0, t1);
	return true;
}

static bool Stream(Rdma *rd, ULONG size, ULONGLONG *seq, ULONG iterations, double *seconds)
{
	bool write = rd->plan.test == TEST_WRITE;
	ULONG slots = StreamSlots(rd->areaBytes, size, iterations);

	*seconds = 0;
	for (ULONG done = 0; done < iterations;) {
		ULONG count = iterations - done < slots ? iterations - done : slots;
		SIZE_T bytes = (SIZE_T)size * count;

		bool inject = write && rd->plan.flags & HELLO_INJECT && !rd->injected;

		if (!write)
			PatternPoison(rd->local, EXPOSED_SEED, 0, bytes);
		/* -X: the first round's first write carries a wrong byte. */
		if (inject)
			rd->local[size / 2] ^= 0x80;
		if (!StreamRound(rd, size, count, seconds))
			return false;
		if (inject) {
			rd->local[size / 2] ^= 0x80;
			rd->injected = true;
		}
		if (write) {
			/* The server checks its slots and answers with the
			 * transfers that did not match. */
			Ctl ask = { CTL_VERIFY, size, count, 0, *seq, 0, 0, 0 }, answer;

			if (!SendCtl(rd, &ask) || !NextCtl(rd, CTL_RESULT, &answer))
				return false;
			if (answer.errors)
				fprintf(stderr, "ndrdma client: the server found %lu of %lu writes of %lu bytes mismatched\n",
					(unsigned long)answer.errors, (unsigned long)count, (unsigned long)size);
		} else {
			for (ULONG i = 0; i < count; i++)
				Check(rd, "read", rd->local + (SIZE_T)size * i, EXPOSED_SEED, (SIZE_T)size * i, size,
				      *seq + i);
		}
		done += count;
		*seq += count;
	}
	return true;
}

/* The server's side of a write stream: check the slots the client wrote,
 * set them to the complement of the pattern again, answer. */
bool ServeVerify(Rdma *rd, const Ctl *ask)
{
	ULONGLONG before = rd->badTransfers;
	SIZE_T bytes = (SIZE_T)ask->size * ask->count;

	if (!ask->size || ask->count > StreamSlots(rd->areaBytes, ask->size, rd->plan.iterations) ||
	    bytes > rd->areaBytes) {
		Fail(rd, "the client asked to check %lu transfers of %lu bytes: more than the slots it has",
		     (unsigned long)ask->count, (unsigned long)ask->size);
		return false;
	}
	for (ULONG i = 0; i < ask->count; i++)
		Check(rd, "write", rd->exposed + (SIZE_T)ask->size * i, LOCAL_SEED, (SIZE_T)ask->size * i, ask->size,
		      ask->address + i);
	PatternPoison(rd->exposed, LOCAL_SEED, 0, bytes);
	Ctl answer = { CTL_RESULT, ask->size, ask->count, (UINT32)(rd->badTransfers - before), 0, 0, 0, 0 };
	return SendCtl(rd, &answer);
}

/* ---- the client's table ------------------------------------------------------------ */

static int CompareDoubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define RULE "---------------------------------------------------------------------------------------------------------------"

static void PrintHeader(const Rdma *rd)
{
	const Hello *h = &rd->plan;
	bool write = h->test == TEST_WRITE;

	printf("%s\n", RULE);
	printf("                    RDMA %s %s, NetworkDirect v2 (%s completions)\n", write ? "Write" : "Read",
	       h->mode == MODE_LAT ? "latency" : "bandwidth", rd->opt->blocking ? "blocking: Notify + IOCP" : "polling");
	printf(" Remote access   : %s\n", h->flags & HELLO_REGION_TOKEN ? "the region's remote token"
									 : "a memory window bound over the buffer");
	printf(" Max transfer    : %lu (the adapter's MaxTransferLength %lu)\n", (unsigned long)h->maxSize,
	       (unsigned long)rd->info.MaxTransferLength);
	printf(" Inline size     : %lu\n", (unsigned long)rd->inlineSize);
	if (h->flags & HELLO_INJECT)
		printf(" Self-test (-X)  : one byte is corrupted on purpose: this run must fail its check\n");
	if (h->mode == MODE_BW) {
		printf(" Outstanding     : %lu requests; slots per size up to %lu KiB, checked after each round\n",
		       (unsigned long)h->depth, (unsigned long)(rd->areaBytes >> 10));
		printf(" Read limits     : inbound %lu, outbound %lu\n", (unsigned long)rd->inboundReadLimit,
		       (unsigned long)rd->outboundReadLimit);
	} else if (write) {
		printf(" Latency is half the round trip, as perftest's ib_write_lat reports it;\n"
		       " each side spins on the last byte of its slot\n");
	} else {
		printf(" Latency is the whole Read, as perftest's ib_read_lat reports it\n");
	}
	printf("%s\n", RULE);
	if (h->mode == MODE_LAT)
		printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
		       "t_stdev[usec]   99%% percentile[usec]   checked\n");
	else
		printf(" #bytes     #iterations    BW average[MB/sec]   MsgRate[Mpps]   checked\n");
}

static void PrintLatency(ULONG size, ULONG n, double *t, double factor, ULONGLONG checked)
{
	double sum = 0, var = 0, avg;

	qsort(t, n, sizeof(*t), CompareDoubles);
	for (ULONG i = 0; i < n; i++)
		sum += t[i];
	avg = sum / n;
	for (ULONG i = 0; i < n; i++)
		var += (t[i] - avg) * (t[i] - avg);
	factor *= 1e6;
	printf(" %-7lu %-10lu %-14.2f %-12.2f %-16.2f %-14.2f %-16.2f %-22.2f %llu\n", (unsigned long)size,
	       (unsigned long)n, t[0] * factor, t[n - 1] * factor, t[n / 2] * factor, avg * factor,
	       (n > 1 ? __builtin_sqrt(var / (n - 1)) : 0) * factor, t[(n * 99) / 100] * factor, checked);
	fflush(stdout);
}

static void PrintBandwidth(ULONG size, ULONG n, double seconds, ULONGLONG checked)
{
	double mb = seconds > 0 ? (double)size * n / seconds / (1024.0 * 1024.0) : 0;
	double mpps = seconds > 0 ? n / seconds / 1e6 : 0;

	printf(" %-10lu %-14lu %-20.2f %-15.6f %llu\n", (unsigned long)size, (unsigned long)n, mb, mpps, checked);
	fflush(stdout);
}

bool ClientRun(Rdma *rd)
{
	const Hello *h = &rd->plan;
	double *t = new double[h->iterations];
	ULONGLONG seq = 0;
	bool ok = true;

	PrintHeader(rd);
	for (ULONG size = h->minSize; ok && size <= h->maxSize; size = size * 2) {
		ULONGLONG before = rd->checkedTransfers;
		double seconds = 0;

		if (h->mode == MODE_BW) {
			ok = Stream(rd, size, &seq, h->iterations, &seconds);
		} else if (h->test == TEST_WRITE) {
			ok = PingStart(rd, size, seq) && PingPong(rd, size, seq, h->iterations, t);
			seq += h->iterations;
		} else {
			ok = ReadLatency(rd, size, &seq, h->iterations, t);
		}
		/* Write streams are checked by the server, one round at a time. */
		ULONGLONG checked = h->mode == MODE_BW && h->test == TEST_WRITE ? h->iterations
										    : rd->checkedTransfers - before;

		if (ok && h->mode == MODE_BW)
			PrintBandwidth(size, h->iterations, seconds, checked);
		else if (ok)
			PrintLatency(size, h->iterations, t, h->test == TEST_WRITE ? 0.5 : 1.0, checked);
		if (size >= 0x80000000u)
			break;
	}
	if (ok)
		printf("%s\n", RULE);
	delete[] t;
	return ok;
}
