/* make soak (tests/vm/soak.sh): a long run under ndrun in the Soft-RoCE
 * guest, every byte checked.
 *
 *   ndsoak_rig serve ADDR PEER           until the client says the end
 *   ndsoak_rig connect ADDR PEER SECONDS
 *
 * Two connections: on the first a ping-pong of Sends whose sizes cycle
 * through 1 byte to 64 KiB (each message checked by the receiver, echoed
 * transformed, the echo checked by the sender); on the second an RDMA
 * Write stream, batches of 8 Writes of 64 KiB into the server's target,
 * each batch then checked by the server, byte for byte, before the client
 * overwrites it.  The client alternates a round trip and a batch until
 * SECONDS have passed, then ends both.  Every failed request, wrong byte or
 * unexpected message counts as an error.  Last line of each side:
 *   soak: ROLE: N round trips, N bytes each way; N batches, N bytes written;
 *   N errors
 * and the exit status is 0 only with no error. */
#include <winsock2.h>
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndspi.h"
#include "nd2peer.h"

#define MSG_MAX 65536
#define NRECV 4
#define BATCH 8
#define WCHUNK 65536
/* Layout of each side's registered memory. */
#define RECV_OFF 0					/* NRECV * MSG_MAX: Receives of the ping-pong */
#define NOTE_OFF (RECV_OFF + NRECV * MSG_MAX)		/* NRECV * 64: Receives of the stream's notes */
#define SEND_OFF (NOTE_OFF + NRECV * 64)		/* MSG_MAX: what is sent */
#define TGT_OFF (SEND_OFF + MSG_MAX + 4096)		/* BATCH * WCHUNK: the target / the source */
#define MEM (TGT_OFF + BATCH * WCHUNK)

enum { PING = 1, PONG, NOTE, CHECKED, END, ENDED };

struct hdr {
	UINT32 kind, seq, len, bad;
};

struct soak {
	struct side *s;
	char *mem;
	IND2MemoryRegion *mr;
	UINT32 tok;
	IND2QueuePair *qp[2];
	IND2Connector *c[2];
	ULONG trips, batches, errors;
	ULONGLONG pbytes, wbytes;
};

static char pat(ULONG seq, ULONG i, int kind)
{
	return (char)(seq * 131 + i * 7 + (i >> 9) + kind * 17);
}

static ULONG msg_size(ULONG seq)
{
	/* 1 byte to 64 KiB: small, page-sized and large in turn. */
	static const ULONG sizes[] = { 1, 17, 256, 4095, 4096, 4097, 16384, MSG_MAX - sizeof(struct hdr) - 2 };

	return sizes[seq % 8] + (seq / 8) % 3;
}

static void err(struct soak *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err(struct soak *k, const char *fmt, ...)
{
	va_list ap;

	if (k->errors++ < 20) {
		printf("    error: ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}

static void soak_recv(struct soak *k, int q, int slot)
{
	ND2_SGE sge;

	if (q == 0)
		sge = (ND2_SGE){ k->mem + RECV_OFF + slot * MSG_MAX, MSG_MAX, k->tok };
	else
		sge = (ND2_SGE){ k->mem + NOTE_OFF + slot * 64, 64, k->tok };
	if (k->qp[q]->lpVtbl->Receive(k->qp[q], (void *)(ULONG_PTR)(0x100 * (q + 1) + slot), &sge, 1) != ND_SUCCESS)
		err(k, "Receive on queue pair %d", q);
}

/* The next result; a wait of 60 s without one is an error and the end. */
static int next(struct soak *k, ND2_RESULT *r)
{
	if (get_one(k->s, r, 60000))
		return 1;
	err(k, "no completion in 60 s");
	return 0;
}

static int send_msg(struct soak *k, int q, UINT32 kind, UINT32 seq, UINT32 len, UINT32 bad)
{
	struct hdr *h = (struct hdr *)(k->mem + SEND_OFF);
	ND2_SGE sge = { h, sizeof(*h) + len, k->tok };
	ULONG i;

	h->kind = kind;
	h->seq = seq;
	h->len = len;
	h->bad = bad;
	for (i = 0; i < len; i++)
		((char *)(h + 1))[i] = pat(seq, i, kind);
	if (k->qp[q]->lpVtbl->Send(k->qp[q], (void *)0x5E, &sge, 1, 0) != ND_SUCCESS) {
		err(k, "Send kind %u seq %u", kind, seq);
		return 0;
	}
	return 1;
}

/* A received message: kind, seq, length and payload checked. */
static struct hdr *got_msg(struct soak *k, const ND2_RESULT *r, int *q, int *slot)
{
	struct hdr *h;
	ULONG i, bad = 0;

	*q = ((ULONG_PTR)r->RequestContext >> 8) - 1;
	*slot = (ULONG_PTR)r->RequestContext & 0xff;
	h = (struct hdr *)(k->mem + (*q ? NOTE_OFF + *slot * 64 : RECV_OFF + *slot * MSG_MAX));
	if (r->BytesTransferred != sizeof(*h) + h->len) {
		err(k, "message of %lu bytes, its header says %u", r->BytesTransferred, h->len);
		return h;
	}
	for (i = 0; i < h->len; i++)
		bad += ((char *)(h + 1))[i] != pat(h->seq, i, h->kind);
	if (bad)
		err(k, "message kind %u seq %u: %lu of %u bytes wrong", h->kind, h->seq, bad, h->len);
	return h;
}

static char wpat(ULONG batch, ULONG i)
{
	return (char)((batch * 2654435761u + i * 40503u) >> 13);
}

static void connect_both(struct soak *k, IND2Listener *l, const char *peer)
{
	int q, i;

	for (q = 0; q < 2; q++) {
		if (k->s->ad->lpVtbl->CreateQueuePair(k->s->ad, &IID_IND2QueuePair, (IUnknown *)k->s->cq, (IUnknown *)k->s->cq,
						      (void *)(ULONG_PTR)(q + 1), NRECV, BATCH + 2, 1, 1, 0,
						      (void **)&k->qp[q]) != ND_SUCCESS)
			die("CreateQueuePair");
		for (i = 0; i < NRECV; i++)
			soak_recv(k, q, i);
		if (l) {
			k->c[q] = get_request(k->s, l);
			if (accept_on(k->s, k->c[q], k->qp[q]) != ND_SUCCESS)
				die("Accept");
		} else {
			k->c[q] = new_connector(k->s);
			if (connect_to(k->s, k->c[q], k->qp[q], peer, 1) != ND_SUCCESS)
				die("Connect");
		}
	}
}

static void server(struct soak *k)
{
	ND2_RESULT r;
	int q, slot, ended = 0;

	ctl_send(k->s, "target", (UINT64)(ULONG_PTR)(k->mem + TGT_OFF), k->mr->lpVtbl->GetRemoteToken(k->mr));
	while (!ended && next(k, &r)) {
		struct hdr *h;

		if (r.Status != ND_SUCCESS) {
			err(k, "request type %d ended %#lx", (int)r.RequestType, r.Status);
			break;
		}
		if (r.RequestType == Nd2RequestTypeSend)
			continue;
		h = got_msg(k, &r, &q, &slot);
		if (h->kind == PING && q == 0) {
			ULONG seq = h->seq, len = h->len;

			k->trips++;
			k->pbytes += len;
			soak_recv(k, q, slot);
			send_msg(k, 0, PONG, seq, len, 0);
		} else if (h->kind == NOTE && q == 1) {
			ULONG b = h->seq, i, bad = 0;
			const char *t = k->mem + TGT_OFF;

			for (i = 0; i < BATCH * WCHUNK; i++)
				bad += t[i] != wpat(b, i);
			if (bad)
				err(k, "batch %lu: %lu of %u bytes wrong", b, bad, BATCH * WCHUNK);
			k->batches++;
			k->wbytes += BATCH * WCHUNK;
			soak_recv(k, q, slot);
			send_msg(k, 1, CHECKED, b, 0, bad);
		} else if (h->kind == END) {
			send_msg(k, q, ENDED, h->seq, 0, (UINT32)k->errors);
			ended = 1;
		} else {
			err(k, "unexpected message kind %u on queue pair %d", h->kind, q);
			break;
		}
	}
	/* The ENDED Send's completion. */
	if (ended && next(k, &r) && r.Status != ND_SUCCESS)
		err(k, "the last Send ended %#lx", r.Status);
}

/* One result of the wanted kind, Send completions counted on the way. */
static struct hdr *await(struct soak *k, int want_q, UINT32 want_kind, ULONG seq, int *sends)
{
	ND2_RESULT r;
	int q, slot;
	struct hdr *h;

	while (next(k, &r)) {
		if (r.Status != ND_SUCCESS) {
			err(k, "request type %d ended %#lx", (int)r.RequestType, r.Status);
			return NULL;
		}
		if (r.RequestType != Nd2RequestTypeReceive) {
			(*sends)--;
			continue;
		}
		h = got_msg(k, &r, &q, &slot);
		if (q != want_q || h->kind != want_kind || h->seq != seq) {
			err(k, "got kind %u seq %u on queue pair %d, wanted %u seq %lu on %d", h->kind, h->seq, q, want_kind, seq,
			    want_q);
			return NULL;
		}
		soak_recv(k, q, slot);
		return h;
	}
	return NULL;
}

static void client(struct soak *k, ULONG seconds)
{
	struct ctl_msg m;
	ULONGLONG end = GetTickCount64() + (ULONGLONG)seconds * 1000, next_note = GetTickCount64() + 60000;
	char *src = k->mem + TGT_OFF;
	int sends = 0;
	ULONG seq = 0, b = 0, i;

	if (!ctl_recv(k->s, "target", &m))
		die("the server's target");
	while (GetTickCount64() < end && !k->errors) {
		struct hdr *h;
		ND2_RESULT r;
		ULONG len = msg_size(seq);

		/* The ping-pong: the echo comes back as PONG, checked. */
		if (!send_msg(k, 0, PING, seq, len, 0))
			break;
		sends++;
		h = await(k, 0, PONG, seq, &sends);
		if (!h || h->len != len) {
			err(k, "round trip %lu: no echo of %lu bytes", seq, len);
			break;
		}
		k->trips++;
		k->pbytes += len;
		seq++;

		/* A batch of Writes, then the note the server checks it by. */
		for (i = 0; i < BATCH * WCHUNK; i++)
			src[i] = wpat(b, i);
		for (i = 0; i < BATCH; i++) {
			ND2_SGE sge = { src + i * WCHUNK, WCHUNK, k->tok };

			if (k->qp[1]->lpVtbl->Write(k->qp[1], (void *)(ULONG_PTR)i, &sge, 1, m.addr + i * WCHUNK, m.token, 0) !=
			    ND_SUCCESS)
				err(k, "Write %lu of batch %lu", i, b);
		}
		for (i = 0; i < BATCH && !k->errors;) {
			if (!next(k, &r))
				break;
			if (r.Status != ND_SUCCESS)
				err(k, "batch %lu: result type %d status %#lx", b, (int)r.RequestType, r.Status);
			else if (r.RequestType == Nd2RequestTypeSend)
				sends--;	/* the last Send's, late */
			else if (r.RequestType == Nd2RequestTypeWrite)
				i++;
			else
				err(k, "batch %lu: a result of type %d", b, (int)r.RequestType);
		}
		if (k->errors || !send_msg(k, 1, NOTE, b, 0, 0))
			break;
		sends++;
		h = await(k, 1, CHECKED, b, &sends);
		if (!h || h->bad) {
			err(k, "batch %lu: the server found %u bytes wrong", b, h ? h->bad : 0);
			break;
		}
		k->batches++;
		k->wbytes += BATCH * WCHUNK;
		b++;
		if (GetTickCount64() >= next_note) {
			printf("soak: progress: %lu round trips, %lu batches\n", k->trips, k->batches);
			next_note += 60000;
		}
	}
	if (send_msg(k, 0, END, seq, 0, 0)) {
		struct hdr *h;

		sends++;
		h = await(k, 0, ENDED, seq, &sends);
		if (!h)
			err(k, "the server did not answer the end");
		else if (h->bad)
			err(k, "the server counted %u errors", h->bad);
	}
	while (sends > 0) {
		ND2_RESULT r;

		if (!next(k, &r))
			break;
		if (r.Status != ND_SUCCESS)
			err(k, "a Send ended %#lx", r.Status);
		sends--;
	}
}

int main(int argc, char **argv)
{
	struct side s = { 0 };
	struct soak k = { 0 };
	IND2Listener *l = NULL;
	OVERLAPPED ov = { 0 };
	WSADATA wsa;
	HRESULT st;
	DWORD t0 = GetTickCount();
	int serve, q;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 4 || (strcmp(argv[1], "serve") && strcmp(argv[1], "connect")) ||
	    (!strcmp(argv[1], "connect") && argc != 5)) {
		fprintf(stderr, "usage: %s serve ADDR PEER | connect ADDR PEER SECONDS\n", argv[0]);
		return 2;
	}
	serve = !strcmp(argv[1], "serve");
	role = serve ? "soak server" : "soak client";
	WSAStartup(MAKEWORD(2, 2), &wsa);
	open_side(&s, argv[2]);
	k.s = &s;
	k.mem = VirtualAlloc(NULL, MEM, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	s.ad->lpVtbl->CreateMemoryRegion(s.ad, &IID_IND2MemoryRegion, s.file, (void **)&k.mr);
	if (!k.mem || !k.mr)
		die("memory");
	st = k.mr->lpVtbl->Register(k.mr, k.mem, MEM, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov);
	if (wait_ov(&s, st, &ov, 5000) != ND_SUCCESS)
		die("Register");
	k.tok = k.mr->lpVtbl->GetLocalToken(k.mr);
	if (serve) {
		struct sockaddr_in sa = addr_of(argv[2], PORT);

		s.ad->lpVtbl->CreateListener(s.ad, &IID_IND2Listener, s.file, (void **)&l);
		if (!l || l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) || l->lpVtbl->Listen(l, 0))
			die("a listener");
	}
	ctl_open(&s, argv[2], argv[3], serve);
	connect_both(&k, l, argv[3]);
	printf("soak: connected\n");
	if (serve)
		server(&k);
	else
		client(&k, strtoul(argv[4], NULL, 0));
	for (q = 0; q < 2; q++) {
		disconnect(&s, k.c[q]);
		if (k.c[q]->lpVtbl->Release(k.c[q]) || k.qp[q]->lpVtbl->Release(k.qp[q]))
			err(&k, "release the connector and QP %d", q);
	}
	memset(&ov, 0, sizeof(ov));
	st = k.mr->lpVtbl->Deregister(k.mr, &ov);
	if (wait_ov(&s, st, &ov, 5000) != ND_SUCCESS || k.mr->lpVtbl->Release(k.mr))
		err(&k, "Deregister");
	if (l && l->lpVtbl->Release(l))
		err(&k, "release the listener");
	closesocket(s.ctl);
	printf("soak: %s: %lu round trips, %llu bytes each way; %lu batches, %llu bytes written; %lu errors; %lu s\n",
	       serve ? "server" : "client", k.trips, k.pbytes, k.batches, k.wbytes, k.errors, (GetTickCount() - t0) / 1000);
	return k.errors ? 1 : 0;
}
