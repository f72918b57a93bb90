/* Hardware faults in PE code become Windows exceptions.
 *
 * The signal handler only translates: it writes the CONTEXT and the
 * EXCEPTION_RECORD on the faulting thread's own stack, below the faulting
 * rsp (x64 Windows code keeps nothing below rsp), and makes the
 * interrupted context "call" fault_entry with them.  When the handler
 * returns, the thread runs the ordinary dispatcher as normal code, out of
 * the signal frame, so handlers may unwind anywhere; a handler that
 * continues execution has its (possibly edited) CONTEXT restored by
 * RtlRestoreContext.  The GS base (the TEB) is untouched by signals.
 *
 * Faults in ndrun's own code stay Linux crashes, with a message; every
 * other fault a PE thread takes is the program's (fault_is_pe). */
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, len) ((void)(addr), (void)(len))
#endif

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

#include "core/context.h"
#include "core/debug.h"
#include "core/eflags.h"
#include "core/startup.h"
#include "core/virtual.h"
#include "loader.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/probe.h"
#include "ntdll/seh.h"
#include "ntdll/seh_private.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define ALTSTACK_SIZE (64 * 1024)
/* How close below rsp a fault must be to count as running out of stack. */
#define STACK_OVERFLOW_REACH (64 * 1024)

#define TRAP_DEBUG 1
#define TRAP_BREAKPOINT 3
#define TRAP_GENERAL_PROTECTION 13
#define TRAP_PAGE_FAULT 14
#define PF_WRITE 0x2
#define PF_INSTRUCTION 0x10

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
static struct sigaction old_actions[NSIG];
static __thread void *altstack;

/* The stack's reserve for EXCEPTION_STACK_OVERFLOW, as Windows keeps a
 * guard page and a guarantee below a thread's stack: the lowest
 * STACK_RESERVE bytes of the TEB's stack range are made inaccessible.  A
 * fault there gives them back and raises the exception on the faulting
 * stack, which now has the room for the dispatcher and the handlers;
 * once used, the next overflow ends the program.  A thread's own stack
 * (pthread) is mapped: its reserve is protected in place.  The main
 * thread's stack grows on demand below what Linux has mapped so far: a
 * PROT_NONE mapping at the bottom of its range stops that growth (Linux
 * keeps a gap above it), and a fault below rsp inside the range gives it
 * back by unmapping it. */
#define STACK_RESERVE (64 * 1024)
/* What the dispatcher itself needs below an exception's frame. */
#define DISPATCH_ROOM (16 * 1024)
/* Linux keeps the main stack's growth a gap (stack_guard_gap, 1 MiB by
 * default) away from the mapping below it. */
#define MAIN_STACK_MIN (4 * 1024 * 1024)
enum { RESERVE_NONE, RESERVE_PROTECTED, RESERVE_MAPPED };
static __thread int reserve_kind;
static __thread uintptr_t reserve_lo;

/* Set once the handler has decided to end the program itself (no stack
 * left): a fault while it reports (the report runs on the signal stack,
 * in a process the program may have wrecked) ends it at once. */
static volatile sig_atomic_t ending;
static volatile DWORD ending_code;

static void begin_ending(DWORD code)
{
	ending_code = code;
	ending = 1;
}

/* What the handler leaves on the faulting stack for fault_entry. */
struct fault_frame {
	CONTEXT ctx;
	EXCEPTION_RECORD rec;
};

static void __attribute__((ms_abi, noreturn, used)) fault_entry(EXCEPTION_RECORD *rec, CONTEXT *ctx)
{
	seh_dispatch(rec, ctx);
	__builtin_unreachable();
}

static void ucontext_to_context(const ucontext_t *uc, CONTEXT *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ContextFlags = CONTEXT_CONTROL | CONTEXT_INTEGER | CONTEXT_SEGMENTS | CONTEXT_FLOATING_POINT;
	context_from_ucontext(uc, ctx, ctx->ContextFlags);
}

static void fill_record(int sig, const siginfo_t *si, const ucontext_t *uc, EXCEPTION_RECORD *rec,
			CONTEXT *ctx)
{
	ULONG64 trapno = uc->uc_mcontext.gregs[REG_TRAPNO];
	ULONG64 err = uc->uc_mcontext.gregs[REG_ERR];

	memset(rec, 0, sizeof(*rec));
	rec->ExceptionAddress = (void *)ctx->Rip;
	switch (sig) {
	case SIGSEGV:
		rec->ExceptionCode = EXCEPTION_ACCESS_VIOLATION;
		rec->NumberParameters = 2;
		if (trapno == TRAP_PAGE_FAULT) {
			rec->ExceptionInformation[0] = err & PF_INSTRUCTION ? EXCEPTION_EXECUTE_FAULT :
						       err & PF_WRITE ? EXCEPTION_WRITE_FAULT : EXCEPTION_READ_FAULT;
			rec->ExceptionInformation[1] = (ULONG_PTR)si->si_addr;
		} else {
			/* A general-protection fault (non-canonical address,
			 * misaligned SSE operand...) has no fault address. */
			rec->ExceptionInformation[0] = EXCEPTION_READ_FAULT;
			rec->ExceptionInformation[1] = ~(ULONG_PTR)0;
		}
		break;
	case SIGBUS:
		if (si->si_code == BUS_ADRALN) {
			rec->ExceptionCode = EXCEPTION_DATATYPE_MISALIGNMENT;
		} else {
			/* A mapped file shorter than its mapping. */
			rec->ExceptionCode = EXCEPTION_IN_PAGE_ERROR;
			rec->NumberParameters = 3;
			rec->ExceptionInformation[0] = err & PF_WRITE ? EXCEPTION_WRITE_FAULT : EXCEPTION_READ_FAULT;
			rec->ExceptionInformation[1] = (ULONG_PTR)si->si_addr;
			rec->ExceptionInformation[2] = STATUS_END_OF_FILE;
		}
		break;
	case SIGILL:
		rec->ExceptionCode = si->si_code == ILL_PRVOPC ? EXCEPTION_PRIV_INSTRUCTION :
				     EXCEPTION_ILLEGAL_INSTRUCTION;
		break;
	case SIGFPE:
		switch (si->si_code) {
		case FPE_INTDIV: rec->ExceptionCode = EXCEPTION_INT_DIVIDE_BY_ZERO; break;
		case FPE_INTOVF: rec->ExceptionCode = EXCEPTION_INT_OVERFLOW; break;
		case FPE_FLTDIV: rec->ExceptionCode = EXCEPTION_FLT_DIVIDE_BY_ZERO; break;
		case FPE_FLTOVF: rec->ExceptionCode = EXCEPTION_FLT_OVERFLOW; break;
		case FPE_FLTUND: rec->ExceptionCode = EXCEPTION_FLT_UNDERFLOW; break;
		case FPE_FLTRES: rec->ExceptionCode = EXCEPTION_FLT_INEXACT_RESULT; break;
		case FPE_FLTSUB: rec->ExceptionCode = EXCEPTION_ARRAY_BOUNDS_EXCEEDED; break;
		default: rec->ExceptionCode = EXCEPTION_FLT_INVALID_OPERATION; break;
		}
		break;
	case SIGTRAP:
		if (trapno == TRAP_DEBUG) {
			rec->ExceptionCode = EXCEPTION_SINGLE_STEP;
		} else {
			/* Windows reports int3 at the instruction itself and
			 * resumes there unless a handler moves rip on. */
			rec->ExceptionCode = EXCEPTION_BREAKPOINT;
			if (trapno == TRAP_BREAKPOINT)
				ctx->Rip--;
			rec->ExceptionAddress = (void *)ctx->Rip;
			rec->NumberParameters = 1;
			rec->ExceptionInformation[0] = 0; /* BREAKPOINT_BREAK */
		}
		break;
	}
}

static void say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

/* A fault outside PE code: ndrun's own bug.  Say where, then let the
 * previous disposition (default: core dump) take it. */
static void host_crash(int sig, siginfo_t *si, ucontext_t *uc)
{
	char line[200];
	void *frames[32];
	int n;

	snprintf(line, sizeof(line), "ndrun: internal error: signal %d (%s) at rip 0x%llx, address %p\n", sig,
		 strsignal(sig), (unsigned long long)uc->uc_mcontext.gregs[REG_RIP], si->si_addr);
	say(line);
	n = backtrace(frames, 32);
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
	sigaction(sig, &old_actions[sig], NULL);
	/* Returning re-executes the faulting instruction, except after int3. */
	if (sig == SIGTRAP)
		raise(sig);
}

static void stack_overflow(ucontext_t *uc, const siginfo_t *si) __attribute__((noreturn));
static void stack_overflow(ucontext_t *uc, const siginfo_t *si)
{
	static CONTEXT ctx;
	EXCEPTION_RECORD rec;

	/* No stack left to dispatch on: report from here, on the
	 * alternate stack, and end the process. */
	ucontext_to_context(uc, &ctx);
	memset(&rec, 0, sizeof(rec));
	rec.ExceptionCode = EXCEPTION_STACK_OVERFLOW;
	rec.ExceptionAddress = (void *)ctx.Rip;
	rec.NumberParameters = 2;
	rec.ExceptionInformation[1] = (ULONG_PTR)si->si_addr;
	begin_ending(EXCEPTION_STACK_OVERFLOW);
	seh_report(&rec, &ctx);
	seh_terminate_now(EXCEPTION_STACK_OVERFLOW);
}

/* Is the fault the program's?  Code of a loaded image or of a registered
 * function table is; so is code in memory the program allocated (ndrun
 * never runs code there).  A failed instruction fetch at rip (NULL, a
 * non-executable page, nothing mapped) is the doing of the call or jump
 * that led there: the program's when the return address at [rsp] is in
 * its code, as after a call (or a tail jump from a function it called).
 * On a thread that runs PE code, so is any fetch from outside ndrun's
 * code: ndrun only calls there what the program gave it (a thread's
 * start address, a callback, an image's entry point or TLS callback),
 * and a damaged program may return or jump anywhere. */
static int fault_is_pe(int sig, const siginfo_t *si, const ucontext_t *uc)
{
	const greg_t *g = uc->uc_mcontext.gregs;
	ULONG64 rip = g[REG_RIP], ret;

	if (seh_pc_in_pe(rip) || virtual_is_private((void *)rip))
		return 1;
	if (sig != SIGSEGV || g[REG_TRAPNO] != TRAP_PAGE_FAULT || !(g[REG_ERR] & PF_INSTRUCTION) ||
	    (ULONG64)si->si_addr != rip)
		return 0;
	if (!seh_peek(g[REG_RSP], &ret))
		ret = 0;
	/* A jump to memory that cannot run: the program's when it left PE
	 * code, or went to no object of ndrun's, or (a damaged import bound
	 * to a data export, say) went into ndrun's or glibc's data with no
	 * return address of theirs on top of the stack, which ndrun calling
	 * through a bad pointer of its own would have left.  Builtins call
	 * the program's callbacks through the loader's stub (core/pecall.h):
	 * its return address on top is the program's jump, wherever to. */
	return seh_pc_in_pe(ret) || ret == (ULONG64)loader_call_pe_ret ||
	       (loader_current_teb() && (!seh_pc_is_host(rip) || !seh_pc_is_host(ret)));
}

/* A fault at addr, just below rsp: if it is in this thread's stack and
 * the reserve is still there, give it back: true. */
static int release_stack_reserve(ULONG64 addr)
{
	TEB *teb = loader_current_teb();

	if (reserve_kind == RESERVE_NONE || !teb || addr < reserve_lo ||
	    addr >= (ULONG64)teb->Tib.StackBase)
		return 0;
	if (reserve_kind == RESERVE_PROTECTED)
		mprotect((void *)reserve_lo, STACK_RESERVE, PROT_READ | PROT_WRITE);
	else
		munmap((void *)reserve_lo, STACK_RESERVE);
	reserve_kind = RESERVE_NONE;
	return 1;
}

static void arm_stack_reserve(void)
{
	TEB *teb = loader_current_teb();
	uintptr_t lo;
	void *p;

	if (reserve_kind != RESERVE_NONE || !teb || !teb->Tib.StackLimit)
		return;
	lo = ((uintptr_t)teb->Tib.StackLimit + VIRTUAL_PAGE_SIZE - 1) & ~(uintptr_t)(VIRTUAL_PAGE_SIZE - 1);
	if ((uintptr_t)teb->Tib.StackBase - lo < 4 * STACK_RESERVE)
		return;
	if (!mprotect((void *)lo, STACK_RESERVE, PROT_NONE)) {
		reserve_kind = RESERVE_PROTECTED;
	} else if ((uintptr_t)teb->Tib.StackBase - lo < MAIN_STACK_MIN) {
		/* The guard gap above the mapping would leave too little. */
		TRACE(seh, "main stack too small for a reserve: a stack overflow will end the program\n");
		return;
	} else {
		p = mmap((void *)lo, STACK_RESERVE, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED || p != (void *)lo) {
			if (p != MAP_FAILED)
				munmap(p, STACK_RESERVE);
			TRACE(seh, "no stack reserve below %p: a stack overflow will end the program\n",
			      (void *)(lo + STACK_RESERVE));
			return;
		}
		reserve_kind = RESERVE_MAPPED;
	}
	reserve_lo = lo;
}

static void disarm_stack_reserve(void)
{
	/* A pthread stack is reused by the next thread: as it was. */
	if (reserve_kind == RESERVE_PROTECTED)
		mprotect((void *)reserve_lo, STACK_RESERVE, PROT_READ | PROT_WRITE);
	else if (reserve_kind == RESERVE_MAPPED)
		munmap((void *)reserve_lo, STACK_RESERVE);
	reserve_kind = RESERVE_NONE;
}

#ifndef STATUS_GUARD_PAGE_VIOLATION
#define STATUS_GUARD_PAGE_VIOLATION ((DWORD)0x80000001)
#endif

/* A PAGE_GUARD page touched at addr (virtual_guard_fault): grows a
 * thread stack, whose limit the TEB then records. */
static enum virtual_guard guard_fault(ULONG64 addr, ULONG64 rsp)
{
	TEB *teb = loader_current_teb();
	ULONG64 low = 0, high = 0;
	void *limit = NULL;
	enum virtual_guard g;

	if (teb) {
		low = teb->DeallocationStack ? (ULONG64)teb->DeallocationStack : (ULONG64)teb->Tib.StackLimit;
		high = (ULONG64)teb->Tib.StackBase;
	}
	/* Room for the overflow's handlers: the dispatcher's and theirs,
	 * and what SetThreadStackGuarantee asked for. */
	g = virtual_guard_fault((void *)addr, low, high, rsp,
				STACK_RESERVE + (teb ? teb->GuaranteedStackBytes : 0), &limit);
	if ((g == VIRTUAL_GUARD_STACK_GREW || g == VIRTUAL_GUARD_STACK_END) && teb && (ULONG64)limit >= low &&
	    (ULONG64)limit < high && limit < teb->Tib.StackLimit)
		teb->Tib.StackLimit = limit;
	return g;
}

/* Can the dispatcher's frame go at [lo, hi)?  Inside the thread's own
 * stack range it can (the main thread's grows on demand there).  Else
 * it must be memory the program owns -- a stack it allocated with
 * VirtualAlloc, or its image -- never ndrun's own (rsp pointing into
 * ndrun's heap in a damaged program), and the pages must be there and
 * writable, which the kernel checks for us: a fault here, in the
 * handler, would kill the process. */
static int frame_room(ULONG64 lo, ULONG64 hi)
{
	TEB *teb = loader_current_teb();
	struct iovec local, remote;
	char buf[256];

	if (lo > hi || lo < VIRTUAL_MIN_ADDRESS)
		return 0;
	/* A stack with guard pages grows to hold the frame, as it would
	 * for the program's own pushes. */
	for (ULONG64 p = (hi - 1) & ~(ULONG64)(VIRTUAL_PAGE_SIZE - 1); p >= (lo & ~(ULONG64)(VIRTUAL_PAGE_SIZE - 1));
	     p -= VIRTUAL_PAGE_SIZE)
		guard_fault(p, hi);
	if (teb && lo >= (ULONG64)teb->Tib.StackLimit && hi <= (ULONG64)teb->Tib.StackBase &&
	    !virtual_is_private((void *)lo))
		return 1;
	/* (A thread without a TEB runs no program: ndrun's unit tests.) */
	if (teb && !(virtual_is_private((void *)lo) && virtual_is_private((void *)(hi - 1))) &&
	    !(seh_pc_in_pe(lo) && seh_pc_in_pe(hi - 1)))
		return 0;
	/* Read a little of each page and write it back unchanged. */
	for (ULONG64 p = lo & ~(ULONG64)(VIRTUAL_PAGE_SIZE - 1); p < hi; p += VIRTUAL_PAGE_SIZE) {
		ULONG64 at = p < lo ? lo : p;

		local.iov_base = buf;
		local.iov_len = sizeof(buf) < hi - at ? sizeof(buf) : hi - at;
		remote.iov_base = (void *)at;
		remote.iov_len = local.iov_len;
		if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len ||
		    process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len)
			return 0;
	}
	return 1;
}

/* No stack to dispatch on: what Windows does then is end the process. */
static void no_stack(const CONTEXT *ctx, const EXCEPTION_RECORD *rec) __attribute__((noreturn));
static void no_stack(const CONTEXT *ctx, const EXCEPTION_RECORD *rec)
{
	char line[160];

	snprintf(line, sizeof(line),
		 "ndrun: exception 0x%08x at %p with no usable stack (rsp 0x%llx): ending the program\n",
		 (unsigned)rec->ExceptionCode, rec->ExceptionAddress, (unsigned long long)ctx->Rsp);
	say(line);
	begin_ending(rec->ExceptionCode);
	seh_report(rec, ctx);
	seh_terminate_now(rec->ExceptionCode);
}

/* Runs the dispatcher for rec in ctx on the thread's stack, below ctx's
 * rsp, once the signal handler returns. */
static void deliver(ucontext_t *uc, const CONTEXT *ctx, EXCEPTION_RECORD *rec)
{
	greg_t *g = uc->uc_mcontext.gregs;
	ULONG64 rsp = ctx->Rsp, sp;
	struct fault_frame *f;
	TEB *teb = loader_current_teb();

	sp = (rsp - sizeof(*f)) & ~63ull;
	/* The frame, the dispatcher and the handlers need room on this
	 * stack: where they would reach its reserve, the exception becomes
	 * a stack overflow (the reserve is theirs now), as on Windows when
	 * the exception frame lands on the guard page; with the reserve
	 * used up, there is no stack left. */
	if (teb && reserve_lo && sp >= (ULONG64)teb->Tib.StackLimit && sp < (ULONG64)teb->Tib.StackBase) {
		if (reserve_kind != RESERVE_NONE && sp - DISPATCH_ROOM < reserve_lo + STACK_RESERVE) {
			release_stack_reserve(reserve_lo);
			rec->ExceptionCode = EXCEPTION_STACK_OVERFLOW;
		} else if (reserve_kind == RESERVE_NONE && sp - 0x28 < reserve_lo) {
			no_stack(ctx, rec);
		}
	}
	if (!frame_room(sp - 0x28, rsp))
		no_stack(ctx, rec);
	f = (struct fault_frame *)sp;
	/* Memory below the interrupted rsp is, to memcheck, not there; this
	 * frame is the dispatcher's stack from now on. */
	VALGRIND_MAKE_MEM_UNDEFINED((void *)(sp - 0x28), rsp - (sp - 0x28));
	f->ctx = *ctx;
	f->rec = *rec;

	/* A call frame for fault_entry: home area and a null return address
	 * (it never returns), rsp 8 off 16-byte alignment as after a call. */
	sp -= 0x28;
	*(ULONG64 *)sp = 0;
	g[REG_RSP] = sp;
	g[REG_RIP] = (greg_t)fault_entry;
	g[REG_RCX] = (greg_t)&f->rec;
	g[REG_RDX] = (greg_t)&f->ctx;
	/* The dispatcher runs with the direction, trap and alignment-check
	 * flags clear (core/eflags.h). */
	g[REG_EFL] &= ~(greg_t)(0x500 | EFLAGS_AC);
}

/* A fault in host code on a thread running PE code: when a builtin
 * faulted on memory its PE caller passed (hostfault.c finds the
 * caller), the caller gets the exception, raised just after its call. */
static int builtin_fault(int sig, siginfo_t *si, ucontext_t *uc, enum virtual_guard guarded)
{
	ULONG64 rsp = uc->uc_mcontext.gregs[REG_RSP], addr = (ULONG64)si->si_addr;
	EXCEPTION_RECORD rec;
	CONTEXT ctx;

	if ((sig != SIGSEGV && sig != SIGBUS) || !loader_current_teb())
		return 0;
	ucontext_to_context(uc, &ctx);
	fill_record(sig, si, uc, &rec, &ctx);
	if (!seh_builtin_fault_caller(&ctx))
		return 0;
	rec.ExceptionAddress = (void *)ctx.Rip;
	if (sig == SIGSEGV && guarded != VIRTUAL_GUARD_NONE)
		rec.ExceptionCode = guarded == VIRTUAL_GUARD_PAGE ? STATUS_GUARD_PAGE_VIOLATION : EXCEPTION_STACK_OVERFLOW;
	/* A builtin that ran out of stack: the program's stack overflow. */
	if (sig == SIGSEGV && guarded == VIRTUAL_GUARD_NONE && addr < rsp && rsp - addr <= STACK_OVERFLOW_REACH) {
		if (!release_stack_reserve(addr))
			stack_overflow(uc, si);
		rec.ExceptionCode = EXCEPTION_STACK_OVERFLOW;
	}
#ifdef __SANITIZE_ADDRESS__
	/* The builtin's frames are abandoned, not returned from: their
	 * redzones must not stay poisoned under the dispatcher's frames.
	 * Only on the thread's own stack (a damaged program's rsp may be
	 * anywhere). */
	{
		TEB *teb = loader_current_teb();

		if (rsp - 128 < ctx.Rsp && rsp - 128 >= (ULONG64)teb->Tib.StackLimit &&
		    ctx.Rsp <= (ULONG64)teb->Tib.StackBase)
			__asan_unpoison_memory_region((void *)(rsp - 128), ctx.Rsp - (rsp - 128));
	}
#endif
	TRACE(seh, "fault in a builtin at rip %#llx, address %p: raised in its caller at %#llx\n",
	      (unsigned long long)uc->uc_mcontext.gregs[REG_RIP], si->si_addr, (unsigned long long)ctx.Rip);
	deliver(uc, &ctx, &rec);
	return 1;
}

/* A fault on the stack reserve of this thread, whatever rsp: a frame
 * larger than the reach above stepped into it. */
static int in_stack_reserve(ULONG64 addr)
{
	return reserve_kind != RESERVE_NONE && addr >= reserve_lo && addr < reserve_lo + STACK_RESERVE;
}

/* Below the thread's stack limit, or in its reserve: the stack is gone. */
static int stack_exhausted(ULONG64 addr)
{
	TEB *teb = loader_current_teb();

	if (!teb || addr >= (ULONG64)teb->Tib.StackBase)
		return 0;
	return in_stack_reserve(addr) ||
	       (addr < (ULONG64)teb->Tib.StackLimit && (ULONG64)teb->Tib.StackLimit - addr <= STACK_OVERFLOW_REACH);
}

static void fault_handler(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;
	greg_t *g = uc->uc_mcontext.gregs;
	ULONG64 rsp = g[REG_RSP], addr = (ULONG64)si->si_addr;
	EXCEPTION_RECORD rec;
	CONTEXT ctx;
	int overflow = 0;
	enum virtual_guard guarded = VIRTUAL_GUARD_NONE;

	host_clear_ac();
	seh_builtin_walk_fault();
	if (ending) {
		say("ndrun: a fault while ending the program: ending it now\n");
		startup_record_exit(ending_code);
		_exit((int)(ending_code & 0xff));
	}
	/* A guard page: a stack growing (the access is retried), else a
	 * one-shot STATUS_GUARD_PAGE_VIOLATION, after which the page is
	 * ordinary; for PE code and builtins alike. */
	if (sig == SIGSEGV && g[REG_TRAPNO] == TRAP_PAGE_FAULT && loader_current_teb()) {
		guarded = guard_fault(addr, rsp);
		if (guarded == VIRTUAL_GUARD_STACK_GREW)
			return;
	}
	if (!fault_is_pe(sig, si, uc)) {
		if (sig == SIGSEGV || sig == SIGBUS) {
			if (seh_probe_fixup(uc))
				return;
			seh_probe_recover(sig);
		}
		if (builtin_fault(sig, si, uc, guarded))
			return;
		/* ndrun's code on a PE thread (the dispatcher, say) ran out
		 * of the stack the program had used up: the program's stack
		 * overflow, as when Windows' own DLLs run out. */
		if (sig == SIGSEGV && loader_current_teb() && stack_exhausted(addr))
			stack_overflow(uc, si);
		host_crash(sig, si, uc);
		return;
	}
	if (sig == SIGSEGV && guarded == VIRTUAL_GUARD_NONE &&
	    ((addr < rsp && rsp - addr <= STACK_OVERFLOW_REACH) || in_stack_reserve(addr))) {
		if (!release_stack_reserve(addr))
			stack_overflow(uc, si);
		overflow = 1;
	}

	ucontext_to_context(uc, &ctx);
	fill_record(sig, si, uc, &rec, &ctx);
	/* Windows keeps the access violation's two parameters. */
	if (overflow || guarded == VIRTUAL_GUARD_STACK_END)
		rec.ExceptionCode = EXCEPTION_STACK_OVERFLOW;
	else if (guarded == VIRTUAL_GUARD_PAGE)
		rec.ExceptionCode = STATUS_GUARD_PAGE_VIOLATION;
	deliver(uc, &ctx, &rec);
}

void seh_thread_init(void)
{
	stack_t ss;

	arm_stack_reserve();
	if (altstack)
		return;
	altstack = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (altstack == MAP_FAILED) {
		altstack = NULL;
		ndrun_error("no memory for a signal stack: faults on this thread will not be handled");
		return;
	}
	ss.ss_sp = altstack;
	ss.ss_size = ALTSTACK_SIZE;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) < 0) {
		munmap(altstack, ALTSTACK_SIZE);
		altstack = NULL;
	}
}

void seh_thread_exit(void)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	disarm_stack_reserve();
	if (!altstack)
		return;
	sigaltstack(&ss, NULL);
	munmap(altstack, ALTSTACK_SIZE);
	altstack = NULL;
}

void seh_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		sigaction(fault_signals[i], &sa, &old_actions[fault_signals[i]]);
	seh_thread_init();
}
