/* Vectored exception and continue handlers, RaiseException and hardware
 * faults from C (mingw has no __try): a handler that only observes, one
 * that resumes after an access violation by repairing the CONTEXT, one
 * that unwinds the faulting function after a division by zero, int3 stepped over,
 * handler order and removal, and the top-level filter continuing an
 * otherwise unhandled RaiseException. */
#include <stdint.h>

#include "test.h"

/* Handlers run behind the compiler's back: what they share is volatile. */
static volatile int observed;
static volatile DWORD observed_codes[16];

static LONG CALLBACK observer(EXCEPTION_POINTERS *ptrs)
{
	if (observed < 16)
		observed_codes[observed] = ptrs->ExceptionRecord->ExceptionCode;
	observed++;
	return EXCEPTION_CONTINUE_SEARCH;
}

static volatile int av_seen;
static volatile ULONG_PTR av_kind, av_addr;
static volatile int repaired_target;

/* Resume after an access violation: the faulting instruction's address
 * register held the bad address; point it at valid memory instead. */
static LONG CALLBACK repair_av(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;
	DWORD64 *regs = &ptrs->ContextRecord->Rax;
	int fixed = 0;

	if (rec->ExceptionCode != EXCEPTION_ACCESS_VIOLATION)
		return EXCEPTION_CONTINUE_SEARCH;
	av_seen++;
	av_kind = rec->ExceptionInformation[0];
	av_addr = rec->ExceptionInformation[1];
	for (int i = 0; i < 16; i++) {
		if (i != 4 && regs[i] == av_addr) {
			regs[i] = (DWORD64)(uintptr_t)&repaired_target;
			fixed = 1;
		}
	}
	return fixed ? EXCEPTION_CONTINUE_EXECUTION : EXCEPTION_CONTINUE_SEARCH;
}

static volatile int continue_calls;

static LONG CALLBACK continue_handler(EXCEPTION_POINTERS *ptrs)
{
	(void)ptrs;
	continue_calls++;
	return EXCEPTION_CONTINUE_SEARCH;
}

static int running_on_wine(void)
{
	return GetProcAddress(GetModuleHandleA("ntdll.dll"), "wine_get_version") != NULL;
}

static int * volatile bad_pointer = (int *)(uintptr_t)0x10;

static void test_access_violation(void)
{
	void *obs = AddVectoredExceptionHandler(1, observer);
	void *rep = AddVectoredExceptionHandler(0, repair_av);
	void *cont = AddVectoredContinueHandler(0, continue_handler);
	int value;

	observed = av_seen = continue_calls = 0;
	*bad_pointer = 1234;
	ok(av_seen == 1, "repair handler called %d times\n", av_seen);
	ok(av_kind == EXCEPTION_WRITE_FAULT, "kind %lu\n", (unsigned long)av_kind);
	ok(av_addr == 0x10, "address %#lx\n", (unsigned long)av_addr);
	ok(repaired_target == 1234, "value %d\n", repaired_target);
	/* The observer, added first, saw it before the repair. */
	ok(observed == 1 && observed_codes[0] == EXCEPTION_ACCESS_VIOLATION, "observed %d %#lx\n", observed,
	   observed_codes[0]);
	/* Windows calls the continue handlers once execution continues;
	 * Wine accepts them but never calls them. */
	ok(continue_calls == 1 || (running_on_wine() && !continue_calls), "continue handlers %d\n",
	   continue_calls);

	repaired_target = 77;
	bad_pointer = (int *)(uintptr_t)0x20;
	value = *bad_pointer;
	ok(value == 77, "read %d\n", value);
	ok(av_kind == EXCEPTION_READ_FAULT && av_addr == 0x20, "kind %lu address %#lx\n",
	   (unsigned long)av_kind, (unsigned long)av_addr);

	ok(RemoveVectoredExceptionHandler(rep), "remove failed\n");
	ok(!RemoveVectoredExceptionHandler(rep), "removed twice\n");
	ok(RemoveVectoredExceptionHandler(obs), "remove failed\n");
	ok(RemoveVectoredContinueHandler(cont), "remove failed\n");
}

static volatile DWORD div_code;

/* Resume in the caller of the faulting function, as if it had returned
 * -1: the unwinder (RtlLookupFunctionEntry/RtlVirtualUnwind) finds the
 * caller's registers. */
static LONG CALLBACK divide_handler(EXCEPTION_POINTERS *ptrs)
{
	CONTEXT *ctx = ptrs->ContextRecord;
	RUNTIME_FUNCTION *rf;
	DWORD64 base, frame;
	void *data;

	if (ptrs->ExceptionRecord->ExceptionCode != EXCEPTION_INT_DIVIDE_BY_ZERO)
		return EXCEPTION_CONTINUE_SEARCH;
	div_code = ptrs->ExceptionRecord->ExceptionCode;
	rf = RtlLookupFunctionEntry(ctx->Rip, &base, NULL);
	if (rf) {
		RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, ctx->Rip, rf, ctx, &data, &frame, NULL);
	} else {
		ctx->Rip = *(DWORD64 *)(uintptr_t)ctx->Rsp;
		ctx->Rsp += 8;
	}
	ctx->Rax = (DWORD64)-1;
	return EXCEPTION_CONTINUE_EXECUTION;
}

static int __attribute__((noinline)) divide(int a, int b)
{
	return a / b;
}

static void test_divide_by_zero(void)
{
	void *h = AddVectoredExceptionHandler(1, divide_handler);
	int result;

	div_code = 0;
	result = divide(100, 4);
	ok(result == 25, "result %d\n", result);
	result = divide(100, 0);
	ok(result == -1, "result %d\n", result);
	ok(div_code == EXCEPTION_INT_DIVIDE_BY_ZERO, "code %#lx\n", div_code);
	RemoveVectoredExceptionHandler(h);
}

static volatile int breakpoints;

static LONG CALLBACK breakpoint_handler(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;
	CONTEXT *ctx = ptrs->ContextRecord;

	if (rec->ExceptionCode != EXCEPTION_BREAKPOINT)
		return EXCEPTION_CONTINUE_SEARCH;
	breakpoints++;
	/* x64 Windows reports int3 at the instruction itself. */
	ok((DWORD64)(uintptr_t)rec->ExceptionAddress == ctx->Rip, "address %p rip %#llx\n",
	   rec->ExceptionAddress, (unsigned long long)ctx->Rip);
	ok(*(BYTE *)(uintptr_t)ctx->Rip == 0xcc, "byte at rip %#x\n", *(BYTE *)(uintptr_t)ctx->Rip);
	ctx->Rip++;
	return EXCEPTION_CONTINUE_EXECUTION;
}

static void test_breakpoint(void)
{
	void *h = AddVectoredExceptionHandler(1, breakpoint_handler);

	breakpoints = 0;
	__debugbreak();
	ok(breakpoints == 1, "breakpoints %d\n", breakpoints);
	RemoveVectoredExceptionHandler(h);
}

static volatile ULONG_PTR raised_params[3];
static volatile DWORD raised_code, raised_flags, raised_count;
static void *volatile raised_address;

static LONG CALLBACK raise_handler(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;

	if ((rec->ExceptionCode & 0xffff0000) != 0xE0020000)
		return EXCEPTION_CONTINUE_SEARCH;
	raised_code = rec->ExceptionCode;
	raised_flags = rec->ExceptionFlags;
	raised_count = rec->NumberParameters;
	raised_address = rec->ExceptionAddress;
	for (DWORD i = 0; i < rec->NumberParameters && i < 3; i++)
		raised_params[i] = rec->ExceptionInformation[i];
	return EXCEPTION_CONTINUE_EXECUTION;
}

static void test_raise_exception(void)
{
	void *h = AddVectoredExceptionHandler(0, raise_handler);
	ULONG_PTR params[3] = { 11, 22, 33 };
	ULONG_PTR many[EXCEPTION_MAXIMUM_PARAMETERS + 5] = { 0 };

	RaiseException(0xE0020001, 0, 3, params);
	ok(raised_code == 0xE0020001, "code %#lx\n", raised_code);
	ok(raised_flags == 0, "flags %#lx\n", raised_flags);
	ok(raised_count == 3, "count %lu\n", raised_count);
	ok(raised_params[0] == 11 && raised_params[1] == 22 && raised_params[2] == 33, "params %lu %lu %lu\n",
	   (unsigned long)raised_params[0], (unsigned long)raised_params[1], (unsigned long)raised_params[2]);
	ok(raised_address != NULL, "no address\n");

	/* Only the documented flag is kept; the count is capped. */
	RaiseException(0xE0020002, 0x10, EXCEPTION_MAXIMUM_PARAMETERS + 5, many);
	ok(raised_flags == 0, "flags %#lx\n", raised_flags);
	ok(raised_count == EXCEPTION_MAXIMUM_PARAMETERS, "count %lu\n", raised_count);
	RemoveVectoredExceptionHandler(h);
}

static volatile int filter_calls;

static LONG WINAPI top_filter(EXCEPTION_POINTERS *ptrs)
{
	if (ptrs->ExceptionRecord->ExceptionCode != 0xE0030001)
		return EXCEPTION_CONTINUE_SEARCH;
	filter_calls++;
	return EXCEPTION_CONTINUE_EXECUTION;
}

static void test_top_level_filter(void)
{
	LPTOP_LEVEL_EXCEPTION_FILTER previous = SetUnhandledExceptionFilter(top_filter);

	/* Nobody handles it: the top-level filter resumes after the call. */
	RaiseException(0xE0030001, 0, 0, NULL);
	ok(filter_calls == 1, "filter calls %d\n", filter_calls);
	ok(SetUnhandledExceptionFilter(previous) == top_filter, "previous filter not returned\n");
}

int main(void)
{
	test_access_violation();
	test_divide_by_zero();
	test_breakpoint();
	test_raise_exception();
	test_top_level_filter();
	return test_summary();
}
