/* ndmesh: what an MPI runtime does on one node, as a Windows program.
 *
 *   ndmesh [-n N] [--rounds R] [--bytes B] [--hold-ms MS]
 *          [--abandon V [--by sigkill|terminate]]
 *          [--nd IP[,IP...] [--host K] [--port P]]
 *
 * The launcher creates a named shared region, starts N copies of itself
 * ("ranks") with CreateProcessW, suspended, in a kill-on-close job
 * object, and resumes them.  Each rank maps the region by name, says
 * where it runs (node and processor), exchanges R numbered messages with
 * every other rank through per-pair mailboxes in the region, copies its
 * right neighbour's B-byte buffer with ReadProcessMemory and checks it,
 * then waits for the others to be done (a rank's buffer must outlive its
 * readers).  With --nd, every pair of ranks also connects over
 * NetworkDirect v2 and exchanges the checksum of its buffer
 * (ndmesh/nd.c): the hosts' ND addresses in order, this host being the
 * K-th (from 0); each host runs a launcher with the same N, so rank r of
 * host K is global rank K * N + r, listening on P + its global rank.  The launcher waits for every rank and exits with the first
 * failing rank's status, ending the others through the job; 0 when all
 * succeed.  --hold-ms keeps the ranks alive that long once done (to kill
 * one from outside in a test).
 *
 * Every rank sleeps on its own named auto-reset event (Local\<region>-
 * wake<r>), and on the process of the peer it waits for, so a dead peer
 * ends the wait at once; whoever changes what a rank waits for sets its
 * event.  A named mutex (Local\<region>-lock) guards the region's record:
 * the messages delivered, the order the ranks finished in.
 *
 * --abandon V: once all are done, rank V takes the mutex and dies holding
 * it, by a Linux SIGKILL it sends itself (--by sigkill, the default; ndrun
 * only) or TerminateProcess(self, 137) (--by terminate, for Windows and
 * Wine).  The others are blocked on the mutex by then: the first to get it
 * must see WAIT_ABANDONED, the rest WAIT_OBJECT_0, and their waits on V's
 * process must return with its status 137.  The launcher waits for all
 * and exits with V's 137 if the survivors' checks passed. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ndmesh/nd.h"

#define MAX_RANKS 64
#define PAYLOAD 200
#define MAGIC 0x6873656dUL /* "mesh" */
#define TIMEOUT_MS 60000
#define MAX_HOSTS 8
#define DEFAULT_PORT 54900

struct mailbox {
	volatile LONG seq;  /* messages written by the sender */
	volatile LONG ack;  /* messages the receiver has read */
	char payload[PAYLOAD];
};

struct rank_info {
	volatile LONG state; /* 0, READY, DONE */
	DWORD pid;
	ULONGLONG buffer;    /* address of its buffer, in its process */
	ULONGLONG sum;       /* what it found in its neighbour's buffer */
	USHORT node;
	BYTE group, number;
	LONG nd;             /* 1: the ND2 exchange with every peer passed */
	LONG abandon;        /* --abandon: its mutex wait's result, +1 */
	LONG victim_code;    /* 1: GetExitCodeProcess gave it the victim's 137 */
};

#define READY 1
#define DONE 2

/* Under the named mutex only: plain read-modify-writes that would lose
 * updates without it. */
struct record {
	LONG delivered;      /* messages read, all ranks */
	LONG done;
	BYTE order[MAX_RANKS];
	LONG abandoned;      /* survivors that got WAIT_ABANDONED */
	LONG survivors;      /* survivors that got the mutex at all */
};

struct region {
	ULONG magic;
	ULONG n, rounds;
	ULONGLONG bytes;
	ULONG nhosts, host;  /* nhosts 0: no ND2 part */
	USHORT port;
	char hosts[MAX_HOSTS][46];
	LONG victim;         /* --abandon's rank, or -1 */
	LONG victim_by_kill; /* 1: it SIGKILLs itself, 0: TerminateProcess */
	volatile LONG held;  /* the victim holds the mutex */
	struct record rec;
	struct rank_info rank[MAX_RANKS];
	struct mailbox box[]; /* [from * n + to] */
};

static size_t region_size(unsigned int n)
{
	return sizeof(struct region) + (size_t)n * n * sizeof(struct mailbox);
}

static int usage(FILE *f)
{
	fprintf(f, "usage: ndmesh [-n N] [--rounds R] [--bytes B] [--hold-ms MS]\n"
		   "              [--abandon V [--by sigkill|terminate]]\n"
		   "              [--nd IP[,IP...] [--host K] [--port P]]\n"
		   "  N ranks (1-%d, default 4) exchange R messages per pair (default 100)\n"
		   "  and copy B bytes from a neighbour (default 4194304) on this node;\n"
		   "  --nd: every pair of ranks of all hosts (ND addresses, this one the\n"
		   "  K-th from 0) also exchanges a checksum over NetworkDirect v2, rank r\n"
		   "  of host K listening on P + K * N + r (default port %d);\n"
		   "  --abandon: rank V dies holding the named mutex once all are done\n"
		   "  (SIGKILL, ndrun only, or TerminateProcess), the others check\n"
		   "  WAIT_ABANDONED and exit status 137, which the launcher exits with\n",
		MAX_RANKS, DEFAULT_PORT);
	return f == stdout ? 0 : 2;
}

/* ---- a rank ------------------------------------------------------------- */

static unsigned char pattern(unsigned int rank, size_t i)
{
	return (unsigned char)(i * 131 + rank * 7 + (i >> 12));
}

static struct region *the_region;

static ULONGLONG buffer_sum(unsigned int rank, size_t bytes)
{
	ULONGLONG sum = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < bytes; i++)
		sum = (sum ^ pattern(rank, i)) * 0x100000001b3ull; /* FNV-1a */
	return sum;
}

/* For ndmesh/nd.c: global ranks' addresses and buffer checksums. */
static const char *ip_of(unsigned int g)
{
	return the_region->hosts[g / the_region->n];
}

static ULONGLONG sum_of(unsigned int g)
{
	return buffer_sum(g, the_region->bytes);
}

static HANDLE wake[MAX_RANKS]; /* each rank's named auto-reset event */
static HANDLE peer[MAX_RANKS]; /* the peers' processes, once all are ready */
static HANDLE lock;            /* the named mutex over the region's record */
static unsigned int self_rank;

/* Wakes rank r: something it may wait for changed.  Auto-reset and
 * checked again before every wait, so a wake-up meant for another
 * condition costs one look, and none is lost. */
static void wake_rank(unsigned int r)
{
	if (r != self_rank && !SetEvent(wake[r]))
		fprintf(stderr, "rank %u: SetEvent(rank %u): error %lu\n", self_rank, r, GetLastError());
}

static void wake_all(unsigned int n)
{
	for (unsigned int r = 0; r < n; r++)
		wake_rank(r);
}

/* Sleeps on this rank's event until *p reaches want, and on the process
 * of rank from (once known): false if that rank dies first or after
 * TIMEOUT_MS. */
static BOOL wait_for(volatile LONG *p, LONG want, unsigned int from)
{
	DWORD start = GetTickCount();
	HANDLE h[2] = { wake[self_rank], peer[from] };

	while (*p < want) {
		DWORD spent = GetTickCount() - start, w;

		if (spent >= TIMEOUT_MS)
			return FALSE;
		w = WaitForMultipleObjects(h[1] ? 2 : 1, h, FALSE, TIMEOUT_MS - spent);
		if (w == WAIT_OBJECT_0 + 1 && *p < want) {
			DWORD code = 0;

			GetExitCodeProcess(h[1], &code);
			fprintf(stderr, "rank %u: rank %u ended (status %lu)\n", self_rank, from, code);
			return FALSE;
		}
		if (w == WAIT_FAILED) {
			fprintf(stderr, "rank %u: wait: error %lu\n", self_rank, GetLastError());
			return FALSE;
		}
	}
	MemoryBarrier();
	return TRUE;
}

static BOOL wait_all(struct region *rg, LONG state)
{
	for (unsigned int i = 0; i < rg->n; i++)
		if (!wait_for(&rg->rank[i].state, state, i))
			return FALSE;
	return TRUE;
}

static BOOL take_lock(void)
{
	DWORD w = WaitForSingleObject(lock, TIMEOUT_MS);

	if (w != WAIT_OBJECT_0) {
		fprintf(stderr, "rank %u: the mutex: wait %#lx, error %lu\n", self_rank, w, GetLastError());
		return FALSE;
	}
	return TRUE;
}

static BOOL drop_lock(void)
{
	if (!ReleaseMutex(lock)) {
		fprintf(stderr, "rank %u: ReleaseMutex: error %lu\n", self_rank, GetLastError());
		return FALSE;
	}
	return TRUE;
}

/* The record's counter, read and written apart with a yield between:
 * only the mutex keeps the ranks' updates from overwriting each other. */
static BOOL count_delivered(struct region *rg, LONG k)
{
	LONG v;

	if (!take_lock())
		return FALSE;
	v = rg->rec.delivered;
	SwitchToThread();
	rg->rec.delivered = v + k;
	return drop_lock();
}

/* SIGKILL from Linux, as a crash or the OOM killer would: ndrun runs PE
 * code natively, so the syscall instruction reaches the kernel. */
static void linux_sigkill_self(void)
{
	long pid;

	__asm__ volatile("syscall" : "=a"(pid) : "0"(39L) /* getpid */ : "rcx", "r11", "memory");
	__asm__ volatile("syscall" : : "a"(62L) /* kill */, "D"(pid), "S"(9L) : "rcx", "r11", "memory");
}

/* The victim: take the mutex, tell the others, give them time to block
 * on it, die holding it. */
static int die_holding(struct region *rg)
{
	if (!take_lock())
		return 30;
	InterlockedExchange(&rg->held, 1);
	wake_all(rg->n);
	Sleep(500);
	if (rg->victim_by_kill)
		linux_sigkill_self();
	else
		TerminateProcess(GetCurrentProcess(), 137);
	fprintf(stderr, "rank %u: still alive after %s\n", self_rank,
		rg->victim_by_kill ? "kill(getpid(), SIGKILL)" : "TerminateProcess");
	return 31;
}

/* A survivor: blocked on the mutex while the victim holds it, then on its
 * process. */
static int see_abandoned(struct region *rg)
{
	unsigned int v = (unsigned int)rg->victim;
	DWORD w, code = 0;

	if (!wait_for(&rg->held, 1, v))
		return 32;
	w = WaitForSingleObject(lock, TIMEOUT_MS);
	if (w != WAIT_ABANDONED && w != WAIT_OBJECT_0) {
		fprintf(stderr, "rank %u: the abandoned mutex: wait %#lx, error %lu\n", self_rank, w, GetLastError());
		return 33;
	}
	/* It owns the mutex either way. */
	rg->rank[self_rank].abandon = (LONG)w + 1;
	rg->rec.abandoned += w == WAIT_ABANDONED;
	rg->rec.survivors++;
	if (!drop_lock())
		return 34;
	w = WaitForSingleObject(peer[v], TIMEOUT_MS);
	if (w != WAIT_OBJECT_0) {
		fprintf(stderr, "rank %u: rank %u's process: wait %#lx, error %lu\n", self_rank, v, w, GetLastError());
		return 35;
	}
	if (GetExitCodeProcess(peer[v], &code)) {
		if (code != 137) {
			fprintf(stderr, "rank %u: rank %u's status %lu, want 137\n", self_rank, v, code);
			return 36;
		}
		rg->rank[self_rank].victim_code = 1;
	} else if (!rg->victim_by_kill || GetLastError() != ERROR_ACCESS_DENIED) {
		fprintf(stderr, "rank %u: GetExitCodeProcess(rank %u): error %lu\n", self_rank, v, GetLastError());
		return 37;
	}
	return 0;
}

/* Names derived from the region's: NAME-wakeR, NAME-lock. */
static void sync_name(wchar_t *out, const wchar_t *region, const wchar_t *what, int r)
{
	if (r >= 0)
		swprintf(out, 96, L"%ls-%ls%d", region, what, r);
	else
		swprintf(out, 96, L"%ls-%ls", region, what);
}

static BOOL open_sync(const wchar_t *name, unsigned int n)
{
	wchar_t s[96];

	for (unsigned int r = 0; r < n; r++) {
		sync_name(s, name, L"wake", (int)r);
		if (!(wake[r] = OpenEventW(EVENT_MODIFY_STATE | SYNCHRONIZE, FALSE, s))) {
			fprintf(stderr, "rank %u: OpenEvent(%ls): error %lu\n", self_rank, s, GetLastError());
			return FALSE;
		}
	}
	sync_name(s, name, L"lock", -1);
	if (!(lock = OpenMutexW(MUTEX_MODIFY_STATE | SYNCHRONIZE, FALSE, s))) {
		fprintf(stderr, "rank %u: OpenMutex(%ls): error %lu\n", self_rank, s, GetLastError());
		return FALSE;
	}
	return TRUE;
}

static int rank_main(unsigned int me, const wchar_t *name, DWORD hold_ms)
{
	HANDLE map = OpenFileMappingW(FILE_MAP_ALL_ACCESS, FALSE, name);
	struct region *rg;
	unsigned char *buf, *copy;
	unsigned int n, right;
	PROCESSOR_NUMBER pn;
	USHORT node = 0;
	ULONGLONG sum = 0xcbf29ce484222325ull;
	SIZE_T got = 0;

	self_rank = me;
	if (!map) {
		fprintf(stderr, "rank %u: OpenFileMapping: error %lu\n", me, GetLastError());
		return 10;
	}
	rg = MapViewOfFile(map, FILE_MAP_ALL_ACCESS, 0, 0, 0);
	if (!rg || rg->magic != MAGIC || me >= rg->n) {
		fprintf(stderr, "rank %u: bad region (error %lu)\n", me, GetLastError());
		return 11;
	}
	n = rg->n;
	the_region = rg;
	if (!open_sync(name, n))
		return 21;
	buf = VirtualAlloc(NULL, rg->bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	copy = VirtualAlloc(NULL, rg->bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (!buf || !copy) {
		fprintf(stderr, "rank %u: VirtualAlloc(%llu): error %lu\n", me, rg->bytes, GetLastError());
		return 12;
	}
	for (size_t i = 0; i < rg->bytes; i++)
		buf[i] = pattern(rg->host * n + me, i); /* by global rank */
	GetCurrentProcessorNumberEx(&pn);
	GetNumaProcessorNodeEx(&pn, &node);
	rg->rank[me].pid = GetCurrentProcessId();
	rg->rank[me].buffer = (ULONGLONG)(ULONG_PTR)buf;
	rg->rank[me].node = node;
	rg->rank[me].group = (BYTE)pn.Group;
	rg->rank[me].number = pn.Number;
	InterlockedExchange(&rg->rank[me].state, READY);
	wake_all(n);
	if (!wait_all(rg, READY)) {
		fprintf(stderr, "rank %u: the others never came\n", me);
		return 13;
	}
	for (unsigned int p = 0; p < n; p++) {
		/* Itself too: rank 0 of 1 reads its own buffer. */
		peer[p] = OpenProcess(SYNCHRONIZE | PROCESS_VM_READ | PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
				      rg->rank[p].pid);
		if (!peer[p]) {
			fprintf(stderr, "rank %u: OpenProcess(rank %u, pid %lu): error %lu\n", me, p, rg->rank[p].pid,
				GetLastError());
			return 17;
		}
	}

	/* Round k: send k to every peer (once it has read k - 1), then read
	 * k from every peer. */
	for (LONG k = 1; k <= (LONG)rg->rounds; k++) {
		for (unsigned int p = 0; p < n; p++) {
			struct mailbox *out = &rg->box[me * n + p];

			if (p == me)
				continue;
			if (!wait_for(&out->ack, k - 1, p)) {
				fprintf(stderr, "rank %u: rank %u stopped reading at %ld\n", me, p, out->ack);
				return 14;
			}
			snprintf(out->payload, PAYLOAD, "%u->%u #%ld", me, p, k);
			MemoryBarrier();
			InterlockedExchange(&out->seq, k);
			wake_rank(p);
		}
		for (unsigned int p = 0; p < n; p++) {
			struct mailbox *in = &rg->box[p * n + me];
			char want[PAYLOAD];

			if (p == me)
				continue;
			if (!wait_for(&in->seq, k, p)) {
				fprintf(stderr, "rank %u: rank %u stopped sending at %ld\n", me, p, in->seq);
				return 15;
			}
			snprintf(want, sizeof(want), "%u->%u #%ld", p, me, k);
			if (strcmp(in->payload, want)) {
				fprintf(stderr, "rank %u: got \"%.*s\", want \"%s\"\n", me, PAYLOAD, in->payload, want);
				return 16;
			}
			InterlockedExchange(&in->ack, k);
			wake_rank(p);
		}
		if (!count_delivered(rg, (LONG)n - 1))
			return 22;
	}

	/* The right neighbour's buffer, straight out of its process. */
	right = (me + 1) % n;
	if (!ReadProcessMemory(peer[right], (void *)(ULONG_PTR)rg->rank[right].buffer, copy, rg->bytes, &got) ||
	    got != rg->bytes) {
		fprintf(stderr, "rank %u: ReadProcessMemory from rank %u (pid %lu): error %lu, %zu bytes\n", me, right,
			rg->rank[right].pid, GetLastError(), (size_t)got);
		return 17;
	}
	for (size_t i = 0; i < rg->bytes; i++) {
		if (copy[i] != pattern(rg->host * n + right, i)) {
			fprintf(stderr, "rank %u: rank %u's byte %zu is %#x, want %#x\n", me, right, i, copy[i],
				pattern(rg->host * n + right, i));
			return 18;
		}
		sum = (sum ^ copy[i]) * 0x100000001b3ull; /* FNV-1a, as buffer_sum */
	}
	rg->rank[me].sum = sum;
	if (rg->nhosts) {
		unsigned int g = rg->host * n + me;

		if (nd_mesh(g, rg->nhosts * n, ip_of, rg->port, sum_of))
			return 20;
		rg->rank[me].nd = 1;
	}
	if (!take_lock())
		return 22;
	rg->rec.order[rg->rec.done] = (BYTE)me;
	SwitchToThread();
	rg->rec.done++;
	if (!drop_lock())
		return 22;
	InterlockedExchange(&rg->rank[me].state, DONE);
	wake_all(n);
	if (!wait_all(rg, DONE)) {
		fprintf(stderr, "rank %u: the others never finished\n", me);
		return 19;
	}
	if (rg->victim >= 0)
		return rg->victim == (LONG)me ? die_holding(rg) : see_abandoned(rg);
	if (hold_ms)
		Sleep(hold_ms);
	return 0;
}

/* ---- the launcher --------------------------------------------------------- */

static HANDLE kill_on_close_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
	HANDLE job = CreateJobObjectW(NULL, NULL);

	memset(&li, 0, sizeof(li));
	li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	if (job && !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof(li))) {
		CloseHandle(job);
		return NULL;
	}
	return job;
}

/* The ranks' events and the record's mutex, held by the launcher so the
 * names live as long as the run. */
static BOOL create_sync(const wchar_t *name, unsigned int n, HANDLE *events, HANDLE *mutex)
{
	wchar_t s[96];

	for (unsigned int r = 0; r < n; r++) {
		sync_name(s, name, L"wake", (int)r);
		events[r] = CreateEventW(NULL, FALSE, FALSE, s);
		if (!events[r] || GetLastError() == ERROR_ALREADY_EXISTS) {
			fprintf(stderr, "ndmesh: CreateEvent(%ls): error %lu\n", s, GetLastError());
			return FALSE;
		}
	}
	sync_name(s, name, L"lock", -1);
	*mutex = CreateMutexW(NULL, FALSE, s);
	if (!*mutex || GetLastError() == ERROR_ALREADY_EXISTS) {
		fprintf(stderr, "ndmesh: CreateMutex(%ls): error %lu\n", s, GetLastError());
		return FALSE;
	}
	return TRUE;
}

/* What the record and the survivors say; false with the reason printed. */
static BOOL check_record(struct region *rg, unsigned int n)
{
	ULONGLONG seen = 0;

	if (rg->rec.delivered != (LONG)(rg->rounds * n * (n - 1))) {
		fprintf(stderr, "ndmesh: the record counts %ld messages, want %u\n", rg->rec.delivered,
			(unsigned int)(rg->rounds * n * (n - 1)));
		return FALSE;
	}
	for (LONG i = 0; i < rg->rec.done; i++)
		seen |= 1ull << rg->rec.order[i];
	if (rg->rec.done != (LONG)n || seen != (n == 64 ? ~0ull : (1ull << n) - 1)) {
		fprintf(stderr, "ndmesh: the record has %ld ranks done, want each of %u once\n", rg->rec.done, n);
		return FALSE;
	}
	if (rg->victim < 0)
		return TRUE;
	if (rg->rec.survivors != (LONG)n - 1 || rg->rec.abandoned != (n > 1)) {
		fprintf(stderr, "ndmesh: %ld of %u survivors got the mutex, %ld of them WAIT_ABANDONED (want 1)\n",
			rg->rec.survivors, n - 1, rg->rec.abandoned);
		return FALSE;
	}
	return TRUE;
}

static int launcher(unsigned int n, unsigned int rounds, ULONGLONG bytes, DWORD hold_ms, char hosts[][46],
		    unsigned int nhosts, unsigned int host, USHORT port, long victim, BOOL by_kill)
{
	HANDLE procs[MAX_RANKS], map, job, events[MAX_RANKS], mutex;
	wchar_t name[64], self[MAX_PATH], line[MAX_PATH + 200];
	unsigned int left = n, failed_rank = 0;
	DWORD status = 0, start = GetTickCount();
	struct region *rg;

	swprintf(name, 64, L"Local\\ndmesh-%lu", GetCurrentProcessId());
	map = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, (DWORD)region_size(n), name);
	rg = map ? MapViewOfFile(map, FILE_MAP_ALL_ACCESS, 0, 0, 0) : NULL;
	if (!rg) {
		fprintf(stderr, "ndmesh: shared region %ls: error %lu\n", name, GetLastError());
		return 1;
	}
	rg->n = n;
	rg->rounds = rounds;
	rg->bytes = bytes;
	rg->nhosts = nhosts;
	rg->host = host;
	rg->port = port;
	memcpy(rg->hosts, hosts, sizeof(rg->hosts));
	rg->victim = victim;
	rg->victim_by_kill = by_kill;
	if (!create_sync(name, n, events, &mutex))
		return 1;
	rg->magic = MAGIC;
	if (!(job = kill_on_close_job())) {
		fprintf(stderr, "ndmesh: job object: error %lu\n", GetLastError());
		return 1;
	}
	GetModuleFileNameW(NULL, self, MAX_PATH);
	for (unsigned int r = 0; r < n; r++) {
		STARTUPINFOW si;
		PROCESS_INFORMATION pi;

		memset(&si, 0, sizeof(si));
		si.cb = sizeof(si);
		swprintf(line, sizeof(line) / sizeof(*line), L"\"%ls\" --rank %u --map %ls --hold-ms %lu", self, r, name,
			 hold_ms);
		if (!CreateProcessW(self, line, NULL, NULL, FALSE, CREATE_SUSPENDED, NULL, NULL, &si, &pi)) {
			fprintf(stderr, "ndmesh: starting rank %u: error %lu\n", r, GetLastError());
			return 1; /* closing the job ends those started */
		}
		if (!AssignProcessToJobObject(job, pi.hProcess)) {
			fprintf(stderr, "ndmesh: rank %u into the job: error %lu\n", r, GetLastError());
			TerminateProcess(pi.hProcess, 1);
			return 1;
		}
		ResumeThread(pi.hThread);
		CloseHandle(pi.hThread);
		procs[r] = pi.hProcess;
		printf("rank %u: pid %lu\n", r, pi.dwProcessId);
	}
	fflush(stdout);

	/* The first rank to fail decides; the job ends the rest. */
	while (left) {
		HANDLE live[MAX_RANKS];
		unsigned int idx[MAX_RANKS], k = 0;
		DWORD w, code = 0;

		for (unsigned int r = 0; r < n; r++)
			if (procs[r]) {
				idx[k] = r;
				live[k++] = procs[r];
			}
		w = WaitForMultipleObjects(k, live, FALSE, 2 * TIMEOUT_MS);
		if (w >= WAIT_OBJECT_0 + k) {
			fprintf(stderr, "ndmesh: ranks still running after %d s (wait %#lx, error %lu)\n",
				2 * TIMEOUT_MS / 1000, w, GetLastError());
			status = 1;
			break;
		}
		GetExitCodeProcess(live[w - WAIT_OBJECT_0], &code);
		CloseHandle(live[w - WAIT_OBJECT_0]);
		procs[idx[w - WAIT_OBJECT_0]] = NULL;
		left--;
		if (code && (LONG)idx[w - WAIT_OBJECT_0] == victim && !status) {
			/* Expected: the others check what its death left. */
			failed_rank = idx[w - WAIT_OBJECT_0];
			status = code;
			fprintf(stderr, "ndmesh: rank %u failed with status %lu, holding the mutex\n", failed_rank, code);
		} else if (code) {
			failed_rank = idx[w - WAIT_OBJECT_0];
			status = code;
			fprintf(stderr, "ndmesh: rank %u failed with status %lu; ending the others\n", failed_rank, code);
			TerminateJobObject(job, 1);
			break;
		}
	}
	for (unsigned int r = 0; r < n; r++)
		if (procs[r]) {
			WaitForSingleObject(procs[r], 10000);
			CloseHandle(procs[r]);
		}
	CloseHandle(job);
	if (victim >= 0 && status == 137 && failed_rank == (unsigned int)victim && !left) {
		if (!check_record(rg, n))
			return 1;
		for (unsigned int r = 0; r < n; r++)
			if ((LONG)r != victim)
				printf("rank %u: the mutex: %s, rank %ld's process: ended, %s\n", r,
				       rg->rank[r].abandon == WAIT_ABANDONED + 1 ? "WAIT_ABANDONED" : "WAIT_OBJECT_0",
				       victim,
				       rg->rank[r].victim_code ? "status 137" :
				       "status unknown here (ndrun: a SIGKILLed process records none, "
				       "only its parent reaps it)");
		printf("ndmesh: rank %ld died holding the mutex (%s): abandoned, seen by %u ranks: ok\n", victim,
		       by_kill ? "SIGKILL" : "TerminateProcess", n - 1);
		fflush(stdout);
	}
	if (status)
		return (int)status;
	if (victim >= 0) {
		fprintf(stderr, "ndmesh: rank %ld was to die and did not\n", victim);
		return 1;
	}
	if (!check_record(rg, n))
		return 1;
	for (unsigned int r = 0; r < n; r++) {
		printf("rank %u: node %u, processor %u:%u, read rank %u's %llu bytes, checksum %016llx", r,
		       rg->rank[r].node, rg->rank[r].group, rg->rank[r].number, (r + 1) % n, bytes, rg->rank[r].sum);
		if (nhosts)
			printf(", ND2 with %u peers: %s", nhosts * n - 1, rg->rank[r].nd ? "ok" : "not done");
		printf("\n");
	}
	printf("ndmesh: %u ranks, %u rounds of %u messages", n, rounds, n * (n - 1));
	if (nhosts)
		printf(", ND2 between all %u ranks of %u hosts", nhosts * n, nhosts);
	printf(", %ld messages counted under the mutex, %lu ms: ok\n", rg->rec.delivered, GetTickCount() - start);
	for (unsigned int r = 0; r < n; r++)
		CloseHandle(events[r]);
	CloseHandle(mutex);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 4, rounds = 100, hold_ms = 0, host = 0, port = DEFAULT_PORT;
	unsigned long long bytes = 4 << 20;
	long rank = -1;
	wchar_t map[64] = L"";
	static char hosts[MAX_HOSTS][46];
	unsigned int nhosts = 0;
	long victim = -1;
	BOOL by_kill = TRUE;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return usage(stdout);
		if (!v)
			return usage(stderr);
		if (!strcmp(a, "-n"))
			n = strtoul(v, &end, 10);
		else if (!strcmp(a, "--rounds"))
			rounds = strtoul(v, &end, 10);
		else if (!strcmp(a, "--bytes"))
			bytes = strtoull(v, &end, 10);
		else if (!strcmp(a, "--hold-ms"))
			hold_ms = strtoul(v, &end, 10);
		else if (!strcmp(a, "--rank"))
			rank = strtol(v, &end, 10);
		else if (!strcmp(a, "--host"))
			host = strtoul(v, &end, 10);
		else if (!strcmp(a, "--abandon"))
			victim = strtol(v, &end, 10);
		else if (!strcmp(a, "--by")) {
			end = (char *)v + strlen(v);
			if (!strcmp(v, "sigkill"))
				by_kill = TRUE;
			else if (!strcmp(v, "terminate"))
				by_kill = FALSE;
			else
				return usage(stderr);
		} else if (!strcmp(a, "--port"))
			port = strtoul(v, &end, 10);
		else if (!strcmp(a, "--nd")) {
			const char *p = v;

			end = (char *)v + strlen(v);
			while (*p && nhosts < MAX_HOSTS) {
				size_t len = strcspn(p, ",");

				if (!len || len >= sizeof(hosts[0]))
					return usage(stderr);
				memcpy(hosts[nhosts], p, len);
				hosts[nhosts++][len] = 0;
				p += len + (p[len] == ',');
			}
			if (*p)
				return usage(stderr);
		} else if (!strcmp(a, "--map")) {
			end = (char *)v + strlen(v);
			MultiByteToWideChar(CP_UTF8, 0, v, -1, map, 64);
		} else
			return usage(stderr);
		if (*end)
			return usage(stderr);
		i++;
	}
	if (rank >= 0)
		return rank_main((unsigned int)rank, map, hold_ms);
	if (n < 1 || n > MAX_RANKS || !bytes || rounds < 1 || (nhosts && host >= nhosts) ||
	    port + nhosts * n > 65535 || victim >= (long)n || victim < -1 || (victim >= 0 && n < 2))
		return usage(stderr);
	return launcher((unsigned int)n, (unsigned int)rounds, bytes, hold_ms, hosts, nhosts, (unsigned int)host,
			(USHORT)port, victim, by_kill);
}
