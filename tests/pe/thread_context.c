/* SuspendThread/ResumeThread on running threads and Get/SetThreadContext
 * (Microsoft's docs): suspend counts (each call returns the previous
 * count; a thread runs only at count 0), a suspended thread makes no
 * progress, its CONTEXT shows where it stopped (Rip inside the loop it
 * runs, Rsp on its stack, the registers the loop uses), a changed
 * register or Rip takes effect when it resumes, threads suspending one
 * thread at once, and GetThreadContext on the calling thread itself. */
#include <stdint.h>

#include "test.h"

/* Leaf loops in assembly, so that the registers are known: spin_reg
 * returns r12 once something makes it non-zero; spin_forever never
 * returns; both count their turns in *rcx. */
DWORD64 spin_reg(volatile LONG *turns);
void spin_forever(volatile LONG *turns);
extern const char spin_reg_loop[], spin_reg_end[], spin_forever_loop[], spin_forever_end[];
__asm__(".text\n"
	".globl spin_reg\n"
	"spin_reg:\n"
	"	push %r12\n"
	"	xor %r12d, %r12d\n"
	".globl spin_reg_loop\n"
	"spin_reg_loop:\n"
	"	lock incl (%rcx)\n"
	"	pause\n"
	"	test %r12, %r12\n"
	"	jz spin_reg_loop\n"
	".globl spin_reg_end\n"
	"spin_reg_end:\n"
	"	mov %r12, %rax\n"
	"	pop %r12\n"
	"	ret\n"
	".globl spin_forever\n"
	"spin_forever:\n"
	".globl spin_forever_loop\n"
	"spin_forever_loop:\n"
	"	lock incl (%rcx)\n"
	"	pause\n"
	"	jmp spin_forever_loop\n"
	".globl spin_forever_end\n"
	"spin_forever_end:\n");

static volatile LONG turns_a, turns_b;

static DWORD WINAPI reg_thread(void *arg)
{
	(void)arg;
	return (DWORD)spin_reg(&turns_a);
}

static DWORD WINAPI forever_thread(void *arg)
{
	(void)arg;
	spin_forever(&turns_b);
	return 1;
}

/* Where forever_thread is sent: it runs as if called with arg. */
static void WINAPI redirected(DWORD64 arg)
{
	ExitThread((DWORD)arg + 1);
}

static void wait_turns(volatile LONG *turns)
{
	LONG start = *turns;

	for (int i = 0; i < 500 && *turns == start; i++)
		Sleep(10);
	ok(*turns != start, "the thread does not run\n");
}

static void test_counts_and_progress(void)
{
	HANDLE h = CreateThread(NULL, 0, reg_thread, NULL, 0, NULL);
	LONG before;
	CONTEXT ctx;
	DWORD code;

	ok(h != NULL, "CreateThread: %lu\n", GetLastError());
	wait_turns(&turns_a);
	ok(SuspendThread(h) == 0, "first SuspendThread\n");
	ok(SuspendThread(h) == 1, "second SuspendThread\n");
	ok(SuspendThread(h) == 2, "third SuspendThread\n");
	/* The context is read once the thread has really stopped. */
	memset(&ctx, 0xcc, sizeof(ctx));
	ctx.ContextFlags = CONTEXT_CONTROL | CONTEXT_INTEGER;
	ok(GetThreadContext(h, &ctx), "GetThreadContext: %lu\n", GetLastError());
	before = turns_a;
	Sleep(100);
	ok(turns_a == before, "a suspended thread ran: %ld -> %ld\n", before, turns_a);
	ok(ctx.Rip >= (DWORD64)(uintptr_t)spin_reg_loop && ctx.Rip <= (DWORD64)(uintptr_t)spin_reg_end,
	   "Rip %#llx is not in the loop [%p, %p]\n", ctx.Rip, spin_reg_loop, spin_reg_end);
	ok(ctx.Rcx == (DWORD64)(uintptr_t)&turns_a, "Rcx %#llx, expected %p\n", ctx.Rcx, (void *)&turns_a);
	ok(ctx.R12 == 0, "R12 %#llx\n", ctx.R12);
	ok(ctx.Rsp && !(ctx.Rsp & 7) && ctx.Rsp != 0xccccccccccccccccull, "Rsp %#llx\n", ctx.Rsp);
	ok(ctx.SegCs == 0x33, "SegCs %#x\n", ctx.SegCs);

	/* Change a register: the loop ends and returns it. */
	ctx.ContextFlags = CONTEXT_INTEGER;
	ctx.R12 = 0x5eed1234;
	ok(SetThreadContext(h, &ctx), "SetThreadContext: %lu\n", GetLastError());
	ok(ResumeThread(h) == 3, "ResumeThread from 3\n");
	ok(ResumeThread(h) == 2, "ResumeThread from 2\n");
	Sleep(50);
	ok(WaitForSingleObject(h, 0) == WAIT_TIMEOUT, "the thread ran with a suspend count of 1\n");
	ok(turns_a == before, "the thread ran with a suspend count of 1\n");
	ok(ResumeThread(h) == 1, "ResumeThread from 1\n");
	ok(WaitForSingleObject(h, 5000) == WAIT_OBJECT_0, "the thread did not end\n");
	ok(GetExitCodeThread(h, &code) && code == 0x5eed1234, "exit code %#lx\n", code);
	ok(ResumeThread(h) == 0 || ResumeThread(h) == (DWORD)-1, "ResumeThread on an ended thread\n");
	CloseHandle(h);
}

static void test_redirect(void)
{
	HANDLE h = CreateThread(NULL, 0, forever_thread, NULL, 0, NULL);
	CONTEXT ctx;
	DWORD code;

	ok(h != NULL, "CreateThread: %lu\n", GetLastError());
	wait_turns(&turns_b);
	ok(ResumeThread(h) == 0, "ResumeThread on a running thread\n");
	ok(SuspendThread(h) == 0, "SuspendThread\n");
	ctx.ContextFlags = CONTEXT_FULL;
	ok(GetThreadContext(h, &ctx), "GetThreadContext: %lu\n", GetLastError());
	ok(ctx.Rip >= (DWORD64)(uintptr_t)spin_forever_loop && ctx.Rip <= (DWORD64)(uintptr_t)spin_forever_end,
	   "Rip %#llx is not in the loop\n", ctx.Rip);
	/* As if redirected(41) had been called from the loop: a return
	 * address slot and the home area below a 16-byte aligned rsp. */
	ctx.Rsp = (ctx.Rsp & ~(DWORD64)15) - 0x100 - 8;
	ctx.Rip = (DWORD64)(uintptr_t)redirected;
	ctx.Rcx = 41;
	ok(SetThreadContext(h, &ctx), "SetThreadContext: %lu\n", GetLastError());
	ctx.Rip = ctx.Rcx = 0;
	ok(GetThreadContext(h, &ctx), "GetThreadContext: %lu\n", GetLastError());
	ok(ctx.Rip == (DWORD64)(uintptr_t)redirected && ctx.Rcx == 41, "after SetThreadContext: Rip %#llx Rcx %llu\n",
	   ctx.Rip, ctx.Rcx);
	ok(ResumeThread(h) == 1, "ResumeThread\n");
	ok(WaitForSingleObject(h, 5000) == WAIT_OBJECT_0, "the redirected thread did not end\n");
	ok(GetExitCodeThread(h, &code) && code == 42, "exit code %lu\n", code);
	CloseHandle(h);
}

/* A thread suspended while it waits stays suspended after the wait is
 * satisfied, and the wait completes once it is resumed. */
static HANDLE go_event;

static DWORD WINAPI waiting_thread(void *arg)
{
	(void)arg;
	return WaitForSingleObject(go_event, 10000) == WAIT_OBJECT_0 ? 7 : 8;
}

static void test_waiting_thread(void)
{
	HANDLE h;
	CONTEXT ctx;
	DWORD code;

	go_event = CreateEventA(NULL, TRUE, FALSE, NULL);
	h = CreateThread(NULL, 0, waiting_thread, NULL, 0, NULL);
	Sleep(50);
	ok(SuspendThread(h) == 0, "SuspendThread\n");
	ctx.ContextFlags = CONTEXT_CONTROL;
	ok(GetThreadContext(h, &ctx), "GetThreadContext of a waiting thread: %lu\n", GetLastError());
	SetEvent(go_event);
	ok(WaitForSingleObject(h, 200) == WAIT_TIMEOUT, "a suspended thread finished\n");
	ok(ResumeThread(h) == 1, "ResumeThread\n");
	ok(WaitForSingleObject(h, 5000) == WAIT_OBJECT_0, "the thread did not end\n");
	ok(GetExitCodeThread(h, &code) && code == 7, "exit code %lu\n", code);
	CloseHandle(h);
	CloseHandle(go_event);
}

/* Two threads suspend, read and resume a third at once while it works
 * the synchronization objects (in and out of ndrun's wait code): every
 * pair balances, the counts stay consistent, the thread goes on. */
static volatile LONG stop_busy, busy_turns;
static HANDLE busy_thread;

static DWORD WINAPI busy(void *arg)
{
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL);

	(void)arg;
	while (!stop_busy) {
		SetEvent(ev);
		WaitForSingleObject(ev, 0);
		ResetEvent(ev);
		InterlockedIncrement(&busy_turns);
	}
	CloseHandle(ev);
	return 0;
}

static DWORD WINAPI suspender(void *arg)
{
	DWORD bad = 0;

	(void)arg;
	/* Which checks failed, as bits of the exit code. */
	for (int i = 0; i < 300; i++) {
		CONTEXT ctx;
		DWORD prev = SuspendThread(busy_thread);

		if (prev > 1)
			bad |= 1;
		ctx.ContextFlags = CONTEXT_CONTROL;
		ctx.Rsp = 0;
		if (!GetThreadContext(busy_thread, &ctx))
			bad |= 2;
		else if (!ctx.Rsp)
			bad |= 4;
		prev = ResumeThread(busy_thread);
		if (prev != 1 && prev != 2)
			bad |= 8;
	}
	return bad;
}

static void test_concurrent(void)
{
	HANDLE s[2];
	DWORD bad;
	LONG before;

	busy_thread = CreateThread(NULL, 0, busy, NULL, 0, NULL);
	wait_turns(&busy_turns);
	s[0] = CreateThread(NULL, 0, suspender, NULL, 0, NULL);
	s[1] = CreateThread(NULL, 0, suspender, NULL, 0, NULL);
	ok(WaitForMultipleObjects(2, s, TRUE, 30000) == WAIT_OBJECT_0, "the suspenders did not finish\n");
	for (int i = 0; i < 2; i++) {
		bad = 0xdead;
		ok(GetExitCodeThread(s[i], &bad), "GetExitCodeThread: %lu\n", GetLastError());
		ok(!bad, "suspender %d: bad answers %#lx\n", i, bad);
		CloseHandle(s[i]);
	}
	ok(SuspendThread(busy_thread) == 0, "suspend count left over\n");
	ok(ResumeThread(busy_thread) == 1, "ResumeThread\n");
	before = busy_turns;
	wait_turns(&busy_turns);
	ok(busy_turns != before, "the thread stopped\n");
	stop_busy = 1;
	ok(WaitForSingleObject(busy_thread, 5000) == WAIT_OBJECT_0, "the busy thread did not end\n");
	CloseHandle(busy_thread);
}

static void test_current_thread(void)
{
	CONTEXT ctx;
	char here;

	memset(&ctx, 0, sizeof(ctx));
	ctx.ContextFlags = CONTEXT_CONTROL | CONTEXT_INTEGER;
	ok(GetThreadContext(GetCurrentThread(), &ctx), "GetThreadContext(self): %lu\n", GetLastError());
	ok(ctx.Rsp < (DWORD64)(uintptr_t)&here && (DWORD64)(uintptr_t)&here - ctx.Rsp < 0x10000,
	   "Rsp %#llx is not just below %p\n", ctx.Rsp, (void *)&here);
	ok(ctx.Rip != 0, "Rip 0\n");
	ok(!GetThreadContext(NULL, &ctx) && GetLastError() == ERROR_INVALID_HANDLE, "NULL handle: %lu\n",
	   GetLastError());
}

int main(void)
{
	test_counts_and_progress();
	test_redirect();
	test_waiting_thread();
	test_concurrent();
	test_current_thread();
	return test_summary();
}
