/* Guard pages and stacks a runtime makes itself.
 *
 * Windows rules checked (Microsoft's "Creating Guard Pages", "Thread
 * Stack Size", VirtualAlloc/VirtualQuery, SetThreadStackGuarantee and
 * GetCurrentThreadStackLimits docs):
 *  - touching a PAGE_GUARD page raises STATUS_GUARD_PAGE_VIOLATION (a
 *    read or write, at that address) once; the guard is then gone, the
 *    access works and VirtualQuery shows the page without PAGE_GUARD;
 *  - a stack a runtime reserves with VirtualAlloc, commits one page of
 *    and puts a guard page under (and describes in the TEB, as fibers
 *    and coroutine libraries do) grows as the code running on it goes
 *    deeper: each guard fault commits the page and moves the guard down,
 *    and the TEB's StackLimit follows;
 *  - running off the end of such a stack raises EXCEPTION_STACK_OVERFLOW,
 *    which a vectored handler sees on that stack and can recover from;
 *  - GetCurrentThreadStackLimits brackets a local variable;
 *    SetThreadStackGuarantee reports the previous guarantee.
 * The stack switch is inline assembly: call fn(arg) with rsp at top. */
#include "test.h"

#define STACK_SIZE (1024 * 1024)
#ifndef STATUS_GUARD_PAGE_VIOLATION
#define STATUS_GUARD_PAGE_VIOLATION 0x80000001
#endif

typedef void(WINAPI *limits_fn)(PULONG_PTR, PULONG_PTR);

/* The TEB (gs:[0x30] holds its own address); NtCurrentTeb's inline
 * gs read trips gcc 12's array-bounds warning. */
static char *teb(void)
{
	char *t;

	__asm__("movq %%gs:0x30, %0" : "=r"(t));
	return t;
}

static CONTEXT resume_ctx;
static volatile int armed, seen;
static volatile DWORD seen_code;
static volatile ULONG_PTR seen_info[2];

static LONG CALLBACK catcher(EXCEPTION_POINTERS *ptrs)
{
	DWORD code = ptrs->ExceptionRecord->ExceptionCode;

	if (!armed || (code != STATUS_GUARD_PAGE_VIOLATION && code != EXCEPTION_STACK_OVERFLOW))
		return EXCEPTION_CONTINUE_SEARCH;
	armed = 0;
	seen++;
	seen_code = code;
	seen_info[0] = ptrs->ExceptionRecord->ExceptionInformation[0];
	seen_info[1] = ptrs->ExceptionRecord->ExceptionInformation[1];
	if (code == EXCEPTION_STACK_OVERFLOW) {
		/* Back to before the stack switch. */
		*ptrs->ContextRecord = resume_ctx;
	}
	return EXCEPTION_CONTINUE_EXECUTION;
}

static void test_guard_page(void)
{
	volatile char *p = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE | PAGE_GUARD);
	MEMORY_BASIC_INFORMATION mbi;
	char v;

	ok(p != NULL, "VirtualAlloc: %lu\n", GetLastError());
	if (!p)
		return;
	ok(VirtualQuery((void *)p, &mbi, sizeof(mbi)) && mbi.Protect == (PAGE_READWRITE | PAGE_GUARD),
	   "protect before %#lx\n", mbi.Protect);
	seen = 0;
	armed = 1;
	v = p[100];
	armed = 0;
	ok(seen == 1 && seen_code == STATUS_GUARD_PAGE_VIOLATION, "first read: %d exceptions, code %#lx\n", seen,
	   seen_code);
	ok(seen_info[0] == 0 && seen_info[1] == (ULONG_PTR)(p + 100), "first read: info %lu %#llx\n",
	   (unsigned long)seen_info[0], (unsigned long long)seen_info[1]);
	ok(v == 0, "read %d\n", v);
	seen = 0;
	armed = 1;
	p[200] = 7;
	v = p[200];
	armed = 0;
	ok(seen == 0 && v == 7, "second access: %d exceptions, read %d\n", seen, v);
	ok(VirtualQuery((void *)p, &mbi, sizeof(mbi)) && mbi.Protect == PAGE_READWRITE, "protect after %#lx\n",
	   mbi.Protect);

	/* A write to a guard page set by VirtualProtect. */
	{
		DWORD old;

		ok(VirtualProtect((void *)p, 4096, PAGE_READWRITE | PAGE_GUARD, &old), "VirtualProtect: %lu\n",
		   GetLastError());
		seen = 0;
		armed = 1;
		p[300] = 9;
		armed = 0;
		ok(seen == 1 && seen_code == STATUS_GUARD_PAGE_VIOLATION && seen_info[0] == 1 &&
			   seen_info[1] == (ULONG_PTR)(p + 300),
		   "write: %d exceptions, code %#lx, info %lu\n", seen, seen_code, (unsigned long)seen_info[0]);
		ok(p[300] == 9, "written value %d\n", p[300]);
	}
	VirtualFree((void *)p, 0, MEM_RELEASE);
}

/* Uses about depth KiB of stack, touching every page on the way down. */
static volatile ULONG_PTR deepest_sp;

static int __attribute__((noinline)) dig(int depth)
{
	volatile char buf[1000];

	buf[0] = (char)depth;
	buf[999] = (char)depth;
	if ((ULONG_PTR)buf < deepest_sp)
		deepest_sp = (ULONG_PTR)buf;
	if (depth <= 0)
		return buf[0];
	return dig(depth - 1) + buf[999] - (char)depth + 1;
}

static volatile int dig_result;
static volatile int dig_depth;

static void WINAPI run_dig(void)
{
	dig_result = dig(dig_depth);
}

/* Calls fn with rsp at top (16-byte aligned, a home area below). */
static void __attribute__((noinline)) call_on_stack(void (WINAPI *fn)(void), char *top)
{
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "mov %1, %%rsp\n\t"
			 "sub $0x20, %%rsp\n\t"
			 "call *%0\n\t"
			 "mov %%rbx, %%rsp"
			 :
			 : "r"(fn), "r"(top)
			 : "rbx", "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "memory");
}

struct runtime_stack {
	char *base, *top;
	PVOID saved_base, saved_limit, saved_dealloc;
};

static int make_stack(struct runtime_stack *s)
{
	NT_TIB *tib = (NT_TIB *)teb();

	s->base = VirtualAlloc(NULL, STACK_SIZE, MEM_RESERVE, PAGE_READWRITE);
	if (!s->base)
		return 0;
	s->top = s->base + STACK_SIZE;
	if (!VirtualAlloc(s->top - 4096, 4096, MEM_COMMIT, PAGE_READWRITE) ||
	    !VirtualAlloc(s->top - 8192, 4096, MEM_COMMIT, PAGE_READWRITE | PAGE_GUARD))
		return 0;
	/* Described in the TEB for the time the code runs on it, as fiber
	 * switches and coroutine libraries do (DeallocationStack at 0x1478). */
	s->saved_base = tib->StackBase;
	s->saved_limit = tib->StackLimit;
	s->saved_dealloc = *(PVOID *)(teb() + 0x1478);
	tib->StackBase = s->top;
	tib->StackLimit = s->top - 4096;
	*(PVOID *)(teb() + 0x1478) = s->base;
	return 1;
}

static void restore_teb(struct runtime_stack *s)
{
	NT_TIB *tib = (NT_TIB *)teb();

	tib->StackBase = s->saved_base;
	tib->StackLimit = s->saved_limit;
	*(PVOID *)(teb() + 0x1478) = s->saved_dealloc;
}

static void test_runtime_stack_grows(void)
{
	NT_TIB *tib = (NT_TIB *)teb();
	struct runtime_stack s;
	MEMORY_BASIC_INFORMATION mbi;
	PVOID limit_after;
	int made = make_stack(&s);

	ok(made, "runtime stack: %lu\n", GetLastError());
	if (!made)
		return;
	deepest_sp = ~(ULONG_PTR)0;
	dig_depth = 300; /* about 300 KiB */
	seen = 0;
	armed = 1;
	call_on_stack(run_dig, s.top);
	armed = 0;
	limit_after = tib->StackLimit;
	restore_teb(&s);
	ok(dig_result == 300, "result %d\n", dig_result);
	ok(seen == 0, "%d exceptions seen (code %#lx) while the stack grew\n", seen, seen_code);
	ok(deepest_sp < (ULONG_PTR)s.top - 290 * 1024 && deepest_sp > (ULONG_PTR)s.base, "went down to %#llx\n",
	   (unsigned long long)deepest_sp);
	ok((ULONG_PTR)limit_after <= deepest_sp && (ULONG_PTR)limit_after > deepest_sp - 16384,
	   "StackLimit %p, deepest %#llx\n", limit_after, (unsigned long long)deepest_sp);
	/* Committed from the limit up, a guard page just below. */
	ok(VirtualQuery(limit_after, &mbi, sizeof(mbi)) && mbi.State == MEM_COMMIT && mbi.Protect == PAGE_READWRITE &&
		   (char *)mbi.BaseAddress + mbi.RegionSize == s.top,
	   "committed part: state %#lx protect %#lx size %#llx\n", mbi.State, mbi.Protect,
	   (unsigned long long)mbi.RegionSize);
	ok(VirtualQuery((char *)limit_after - 4096, &mbi, sizeof(mbi)) && mbi.State == MEM_COMMIT &&
		   mbi.Protect == (PAGE_READWRITE | PAGE_GUARD) && mbi.RegionSize == 4096,
	   "guard page: state %#lx protect %#lx size %#llx\n", mbi.State, mbi.Protect,
	   (unsigned long long)mbi.RegionSize);
	ok(VirtualQuery((char *)limit_after - 8192, &mbi, sizeof(mbi)) && mbi.State == MEM_RESERVE,
	   "below the guard: state %#lx\n", mbi.State);
	VirtualFree(s.base, 0, MEM_RELEASE);
}

static void test_runtime_stack_overflow(void)
{
	struct runtime_stack s;
	int made = make_stack(&s);
	volatile int returned = 0;

	ok(made, "runtime stack: %lu\n", GetLastError());
	if (!made)
		return;
	dig_depth = 5000; /* 5 MB: far more than the stack has */
	seen = 0;
	seen_code = 0;
	armed = 1;
	RtlCaptureContext(&resume_ctx);
	if (!seen) {
		call_on_stack(run_dig, s.top);
		returned = 1;
	}
	armed = 0;
	restore_teb(&s);
	ok(!returned, "ran 5 MB deep on a 1 MB stack\n");
	ok(seen == 1 && seen_code == EXCEPTION_STACK_OVERFLOW, "%d exceptions, code %#lx\n", seen, seen_code);
	VirtualFree(s.base, 0, MEM_RELEASE);
}

static void test_limits(void)
{
	limits_fn get_limits =
		(limits_fn)(void *)GetProcAddress(GetModuleHandleA("kernel32.dll"), "GetCurrentThreadStackLimits");
	ULONG_PTR low = 0, high = 0;
	ULONG size = 64 * 1024, prev;
	int local;

	ok(get_limits != NULL, "GetCurrentThreadStackLimits missing\n");
	if (get_limits) {
		get_limits(&low, &high);
		ok(low < (ULONG_PTR)&local && (ULONG_PTR)&local < high, "limits %#llx-%#llx, local at %p\n",
		   (unsigned long long)low, (unsigned long long)high, (void *)&local);
		ok(high == (ULONG_PTR)((NT_TIB *)teb())->StackBase, "high %#llx is not StackBase\n",
		   (unsigned long long)high);
	}
	ok(SetThreadStackGuarantee(&size), "SetThreadStackGuarantee: %lu\n", GetLastError());
	prev = size;
	size = 0;
	ok(SetThreadStackGuarantee(&size) && size >= 64 * 1024, "guarantee now %lu (was %lu)\n", size, prev);
}

int main(void)
{
	void *h = AddVectoredExceptionHandler(1, catcher);

	test_guard_page();
	test_runtime_stack_grows();
	test_runtime_stack_overflow();
	test_limits();
	RemoveVectoredExceptionHandler(h);
	return test_summary();
}
