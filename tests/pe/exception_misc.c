/* Exception-side functions runtimes call (issue 23's list).
 *
 * Windows rules checked (Microsoft's RtlCaptureStackBackTrace,
 * RtlWalkFrameChain, IsThreadAFiber, WerSetFlags and WerGetFlags docs):
 *  - RtlCaptureStackBackTrace(0, ...) returns the return addresses up the
 *    caller's stack, the first inside the caller and the next in its
 *    caller; skipping one frame drops the first; the same stack gives
 *    the same hash (how it is computed is not documented); a count of 0
 *    captures nothing;
 *  - RtlWalkFrameChain (ntdll) gives the same frames, its first being
 *    the caller's (Wine 8 exports it as an unimplemented stub, which
 *    stops the program: not called under Wine);
 *  - a thread that was never converted to a fiber is not one;
 *  - WerGetFlags reads back what WerSetFlags stored for the process. */
#include "test.h"

typedef USHORT(WINAPI *capture_fn)(ULONG, ULONG, PVOID *, PULONG);
typedef ULONG(WINAPI *walk_fn)(PVOID *, ULONG, ULONG);
typedef HRESULT(WINAPI *wer_set_fn)(DWORD);
typedef HRESULT(WINAPI *wer_get_fn)(HANDLE, PDWORD);
typedef BOOL(WINAPI *fiber_fn)(void);

static capture_fn capture;
static walk_fn walk_chain;

/* Two captures from one call site (a loop the compiler cannot unroll,
 * its bound volatile), a capture skipping a frame, and a frame-chain
 * walk, all from inner, called by outer. */
static void *frames[2][16], *frames_skip[16], *frames_walk[16];
static USHORT count[2], count_skip;
static ULONG count_walk, hash[2];
static volatile int twice = 2;
static void *inner_ret;

static void __attribute__((noinline)) inner(void)
{
	for (int i = 0; i < twice; i++)
		count[i] = capture(0, 16, frames[i], &hash[i]);
	count_skip = capture(1, 16, frames_skip, NULL);
	if (walk_chain)
		count_walk = walk_chain(frames_walk, 16, 0);
	inner_ret = __builtin_return_address(0);
	__asm__ volatile("" ::: "memory"); /* no tail call: inner keeps its frame */
}

static void __attribute__((noinline)) outer(void)
{
	inner();
	__asm__ volatile("" ::: "memory");
}

static int in_inner(void *pc)
{
	return (char *)pc > (char *)inner && (char *)pc < (char *)inner + 0x100;
}

static void test_backtrace(void)
{
	capture = (capture_fn)(void *)GetProcAddress(GetModuleHandleA("kernel32.dll"), "RtlCaptureStackBackTrace");
	walk_chain = (walk_fn)(void *)GetProcAddress(GetModuleHandleA("ntdll.dll"), "RtlWalkFrameChain");
	ok(capture != NULL, "RtlCaptureStackBackTrace missing\n");
	ok(walk_chain != NULL, "RtlWalkFrameChain missing\n");
	if (test_on_wine()) {
		printf("RtlWalkFrameChain: not called under Wine (an unimplemented stub there)\n");
		walk_chain = NULL;
	}
	if (!capture)
		return;
	outer();
	ok(count[0] >= 3, "%u frames\n", count[0]);
	ok(in_inner(frames[0][0]), "frame 0 %p not in inner (%p)\n", frames[0][0], (void *)inner);
	ok(frames[0][1] == inner_ret, "frame 1 %p, inner returns to %p\n", frames[0][1], inner_ret);
	ok(count_skip == count[0] - 1 && frames_skip[0] == frames[0][1], "skipping one: %u frames, first %p\n",
	   count_skip, frames_skip[0]);
	ok(count[1] == count[0] && !memcmp(frames[1], frames[0], count[0] * sizeof(frames[0][0])) && hash[1] == hash[0],
	   "the same stack again: %u frames, hash %#lx then %#lx\n", count[1], (unsigned long)hash[0],
	   (unsigned long)hash[1]);
	ok(capture(0, 0, frames[1], NULL) == 0, "a count of 0 captured frames\n");
	if (walk_chain) {
		ok(count_walk >= 3, "RtlWalkFrameChain: %lu frames\n", count_walk);
		ok(in_inner(frames_walk[0]) && frames_walk[1] == inner_ret, "RtlWalkFrameChain: %p %p\n",
		   frames_walk[0], frames_walk[1]);
	}
}

static void test_fiber_and_wer(void)
{
	HMODULE k32 = GetModuleHandleA("kernel32.dll");
	fiber_fn is_fiber = (fiber_fn)(void *)GetProcAddress(k32, "IsThreadAFiber");
	wer_set_fn wer_set = (wer_set_fn)(void *)GetProcAddress(k32, "WerSetFlags");
	wer_get_fn wer_get = (wer_get_fn)(void *)GetProcAddress(k32, "WerGetFlags");
	DWORD flags = 0xdead;
	HRESULT hr;

	ok(is_fiber && !is_fiber(), "IsThreadAFiber\n");
	ok(wer_set && wer_get, "WerSetFlags/WerGetFlags missing\n");
	if (!wer_set || !wer_get)
		return;
	hr = wer_set(1); /* WER_FAULT_REPORTING_FLAG_NOHEAP */
	ok(hr == S_OK, "WerSetFlags: %#lx\n", (unsigned long)hr);
	hr = wer_get(GetCurrentProcess(), &flags);
	ok_todo_wine(hr == S_OK && flags == 1, "WerGetFlags: %#lx, flags %#lx\n", (unsigned long)hr, flags);
}

int main(void)
{
	test_backtrace();
	test_fiber_and_wer();
	return test_summary();
}
