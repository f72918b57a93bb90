/* Running out of stack raises EXCEPTION_STACK_OVERFLOW in the thread,
 * where its handlers see it (Windows keeps a guard page and a reserve
 * below each stack for this), on a thread of its own and on the main
 * thread.  The handler here resumes the thread elsewhere, on the part of
 * its stack it had before recursing: in a new thread, a function that
 * ends the thread with a code; on the main thread, the end of the test. */
#include <stdint.h>
#include <stdlib.h>

#include "test.h"

static volatile DWORD seen_code, seen_tid;
static volatile ULONG_PTR seen_addr;
static volatile DWORD64 resume_rsp;
static void *volatile resume_at;

static LONG CALLBACK overflow_handler(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;
	CONTEXT *ctx = ptrs->ContextRecord;

	if (rec->ExceptionCode != EXCEPTION_STACK_OVERFLOW)
		return EXCEPTION_CONTINUE_SEARCH;
	seen_code = rec->ExceptionCode;
	seen_tid = GetCurrentThreadId();
	seen_addr = rec->NumberParameters >= 2 ? rec->ExceptionInformation[1] : 0;
	/* As if resume_at had been called with the stack of before. */
	ctx->Rsp = resume_rsp;
	ctx->Rip = (DWORD64)(uintptr_t)resume_at;
	return EXCEPTION_CONTINUE_EXECUTION;
}

/* Each level keeps a page of its own alive, so that nothing can turn the
 * recursion into a loop. */
static volatile int depth_limit = 1 << 30;

static int __attribute__((noinline)) recurse(volatile char *prev, int depth)
{
	volatile char page[4096];

	page[0] = (char)depth;
	page[4095] = prev ? prev[0] : 0;
	if (depth >= depth_limit)
		return 0;
	return recurse(page, depth + 1) + page[100];
}

static void __attribute__((noinline)) set_resume(void *fn)
{
	char here;

	/* Well above where the recursion starts; 16-byte aligned less the
	 * return address slot, as at a function's entry. */
	resume_rsp = (((DWORD64)(uintptr_t)&here - 0x1000) & ~(DWORD64)15) - 8;
	resume_at = fn;
}

static void WINAPI thread_resumed(void)
{
	ExitThread(0x5eed);
}

static DWORD WINAPI overflowing_thread(void *arg)
{
	(void)arg;
	set_resume((void *)thread_resumed);
	return (DWORD)recurse(NULL, 0);
}

static void test_thread(void)
{
	HANDLE h;
	DWORD code = 0, tid;

	for (int i = 0; i < 2; i++) {
		seen_code = 0;
		h = CreateThread(NULL, 256 * 1024, overflowing_thread, NULL, 0, &tid);
		ok(h != NULL, "CreateThread: %lu\n", GetLastError());
		ok(WaitForSingleObject(h, 10000) == WAIT_OBJECT_0, "the thread did not end\n");
		ok(GetExitCodeThread(h, &code) && code == 0x5eed, "thread %d: exit code %#lx\n", i, code);
		ok(seen_code == EXCEPTION_STACK_OVERFLOW, "thread %d: code %#lx\n", i, seen_code);
		ok(seen_tid == tid, "thread %d: raised on thread %lu, not %lu\n", i, seen_tid, tid);
		CloseHandle(h);
	}
}

static void WINAPI main_resumed(void)
{
	char here;

	ok(seen_code == EXCEPTION_STACK_OVERFLOW, "main thread: code %#lx\n", seen_code);
	ok(seen_tid == GetCurrentThreadId(), "main thread: raised on thread %lu\n", seen_tid);
	ok(seen_addr < (ULONG_PTR)&here, "main thread: address %#llx above the live stack %p\n",
	   (unsigned long long)seen_addr, (void *)&here);
	exit(test_summary());
}

int main(void)
{
	AddVectoredExceptionHandler(1, overflow_handler);
	test_thread();
	seen_code = 0;
	set_resume((void *)main_resumed);
	recurse(NULL, 0);
	ok(0, "the recursion returned\n");
	return test_summary();
}
