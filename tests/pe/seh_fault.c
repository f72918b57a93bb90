/* Faults at addresses that are not code of a loaded image still reach the
 * program's handlers: executing a PAGE_READWRITE page (DEP), calling
 * through a NULL pointer (rip 0: the dispatcher finds the caller from the
 * return address at [rsp], as for a leaf function), both seen by a
 * vectored handler and by a frame-based handler of the calling function;
 * calling an address where nothing is mapped too.
 * ExceptionInformation[0] is 8 (execute) and [1] the address. */
#include <stdint.h>
#include <string.h>

#include "test.h"

static volatile int seen;
static volatile DWORD seen_code;
static volatile ULONG_PTR seen_kind, seen_addr;
static void *volatile seen_exc_addr;
static volatile DWORD64 seen_rip, seen_ret;

/* Records the fault, then resumes as if the called code had returned
 * 42: the return address is at [rsp], as at any function's entry. */
static void record_and_return(EXCEPTION_RECORD *rec, CONTEXT *ctx)
{
	seen++;
	seen_code = rec->ExceptionCode;
	seen_kind = rec->NumberParameters >= 2 ? rec->ExceptionInformation[0] : ~(ULONG_PTR)0;
	seen_addr = rec->NumberParameters >= 2 ? rec->ExceptionInformation[1] : ~(ULONG_PTR)0;
	seen_exc_addr = rec->ExceptionAddress;
	seen_rip = ctx->Rip;
	seen_ret = *(DWORD64 *)(uintptr_t)ctx->Rsp;
	ctx->Rip = seen_ret;
	ctx->Rsp += 8;
	ctx->Rax = 42;
}

static LONG CALLBACK vectored(EXCEPTION_POINTERS *ptrs)
{
	if (ptrs->ExceptionRecord->ExceptionCode != EXCEPTION_ACCESS_VIOLATION)
		return EXCEPTION_CONTINUE_SEARCH;
	record_and_return(ptrs->ExceptionRecord, ptrs->ContextRecord);
	return EXCEPTION_CONTINUE_EXECUTION;
}

static volatile int frame_calls;

EXCEPTION_DISPOSITION frame_handler(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx, void *disp)
{
	(void)frame;
	(void)disp;
	if (rec->ExceptionCode != EXCEPTION_ACCESS_VIOLATION || (rec->ExceptionFlags & EXCEPTION_UNWINDING))
		return ExceptionContinueSearch;
	frame_calls++;
	record_and_return(rec, ctx);
	return ExceptionContinueExecution;
}

typedef int (*int_fn)(void);

static int_fn volatile null_fn;

static int __attribute__((noinline)) call_plain(int_fn fn)
{
	return fn() + 1;
}

/* The same call, in a function whose unwind data names frame_handler as
 * its exception handler: what __try gives a function under MSVC. */
static int __attribute__((noinline)) call_guarded(int_fn fn)
{
	__asm__ __volatile__(".seh_handler frame_handler, @except");
	return fn() + 1;
}

static int in_this_image(DWORD64 addr)
{
	HMODULE self = GetModuleHandleA(NULL);
	MEMORY_BASIC_INFORMATION mbi;

	return VirtualQuery((void *)(uintptr_t)addr, &mbi, sizeof(mbi)) && mbi.AllocationBase == (void *)self;
}

static void check_fault(int result, const char *what, DWORD64 addr)
{
	ok(result == 43, "%s: result %d\n", what, result);
	ok(seen == 1, "%s: handler called %d times\n", what, seen);
	ok(seen_code == EXCEPTION_ACCESS_VIOLATION, "%s: code %#lx\n", what, seen_code);
	ok(seen_kind == EXCEPTION_EXECUTE_FAULT, "%s: kind %lu\n", what, (unsigned long)seen_kind);
	ok(seen_addr == addr, "%s: address %#llx, expected %#llx\n", what, (unsigned long long)seen_addr,
	   (unsigned long long)addr);
	ok((DWORD64)(uintptr_t)seen_exc_addr == addr, "%s: ExceptionAddress %p\n", what, seen_exc_addr);
	ok(seen_rip == addr, "%s: Rip %#llx\n", what, (unsigned long long)seen_rip);
	ok(in_this_image(seen_ret), "%s: [rsp] %#llx is not a return address in the program\n", what,
	   (unsigned long long)seen_ret);
}

static void test_vectored(BYTE *rw_page)
{
	void *h = AddVectoredExceptionHandler(1, vectored);

	seen = 0;
	check_fault(call_plain((int_fn)(uintptr_t)rw_page), "vectored, PAGE_READWRITE", (DWORD64)(uintptr_t)rw_page);
	seen = 0;
	check_fault(call_plain(null_fn), "vectored, NULL", 0);
	/* Nothing mapped there (a stale or corrupted pointer). */
	seen = 0;
	check_fault(call_plain((int_fn)(uintptr_t)0xdeadbeef000ull), "vectored, unmapped", 0xdeadbeef000ull);
	RemoveVectoredExceptionHandler(h);
}

static void test_frame_handler(BYTE *rw_page)
{
	seen = frame_calls = 0;
	check_fault(call_guarded((int_fn)(uintptr_t)rw_page), "frame, PAGE_READWRITE",
		    (DWORD64)(uintptr_t)rw_page);
	ok(frame_calls == 1, "frame handler called %d times\n", frame_calls);
	seen = frame_calls = 0;
	check_fault(call_guarded(null_fn), "frame, NULL", 0);
	ok(frame_calls == 1, "frame handler called %d times\n", frame_calls);
}

int main(void)
{
	/* mov eax, 7; ret */
	static const BYTE code[] = { 0xb8, 0x07, 0x00, 0x00, 0x00, 0xc3 };
	BYTE *page = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	DWORD old;

	ok(page != NULL, "VirtualAlloc failed: %lu\n", GetLastError());
	if (!page)
		return test_summary();
	memcpy(page, code, sizeof(code));
	test_vectored(page);
	test_frame_handler(page);

	/* The same bytes run once the page is executable. */
	ok(VirtualProtect(page, 4096, PAGE_EXECUTE_READ, &old), "VirtualProtect failed: %lu\n", GetLastError());
	ok(old == PAGE_READWRITE, "old protection %#lx\n", old);
	FlushInstructionCache(GetCurrentProcess(), page, sizeof(code));
	seen = 0;
	ok(call_plain((int_fn)(uintptr_t)page) == 8, "executable page: wrong result\n");
	ok(seen == 0, "executable page: handler called\n");
	VirtualFree(page, 0, MEM_RELEASE);
	return test_summary();
}
