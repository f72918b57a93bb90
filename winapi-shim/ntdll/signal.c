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
 * Faults in ndrun's own code stay Linux crashes, with a message. */
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, len) ((void)(addr), (void)(len))
#endif

#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh.h"
#include "ntdll/seh_private.h"

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
	const greg_t *g = uc->uc_mcontext.gregs;

	memset(ctx, 0, sizeof(*ctx));
	ctx->ContextFlags = CONTEXT_CONTROL | CONTEXT_INTEGER | CONTEXT_SEGMENTS | CONTEXT_FLOATING_POINT;
	ctx->Rax = g[REG_RAX];
	ctx->Rcx = g[REG_RCX];
	ctx->Rdx = g[REG_RDX];
	ctx->Rbx = g[REG_RBX];
	ctx->Rsp = g[REG_RSP];
	ctx->Rbp = g[REG_RBP];
	ctx->Rsi = g[REG_RSI];
	ctx->Rdi = g[REG_RDI];
	ctx->R8 = g[REG_R8];
	ctx->R9 = g[REG_R9];
	ctx->R10 = g[REG_R10];
	ctx->R11 = g[REG_R11];
	ctx->R12 = g[REG_R12];
	ctx->R13 = g[REG_R13];
	ctx->R14 = g[REG_R14];
	ctx->R15 = g[REG_R15];
	ctx->Rip = g[REG_RIP];
	ctx->EFlags = (DWORD)g[REG_EFL];
	/* The selectors 64-bit Windows code sees. */
	ctx->SegCs = 0x33;
	ctx->SegDs = ctx->SegEs = ctx->SegSs = ctx->SegGs = 0x2b;
	ctx->SegFs = 0x53;
	if (uc->uc_mcontext.fpregs) {
		_Static_assert(sizeof(*uc->uc_mcontext.fpregs) == sizeof(ctx->FltSave), "FXSAVE image");
		memcpy(&ctx->FltSave, uc->uc_mcontext.fpregs, sizeof(ctx->FltSave));
		ctx->MxCsr = uc->uc_mcontext.fpregs->mxcsr;
	}
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
	seh_report(&rec, &ctx);
	seh_terminate(EXCEPTION_STACK_OVERFLOW);
}

static void fault_handler(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;
	greg_t *g = uc->uc_mcontext.gregs;
	ULONG64 rsp = g[REG_RSP], addr = (ULONG64)si->si_addr;
	ULONG64 sp;
	struct fault_frame *f;

	if (!seh_pc_in_pe(g[REG_RIP])) {
		if (sig == SIGSEGV || sig == SIGBUS)
			seh_probe_recover(sig);
		host_crash(sig, si, uc);
		return;
	}
	if (sig == SIGSEGV && addr < rsp && rsp - addr <= STACK_OVERFLOW_REACH)
		stack_overflow(uc, si);

	sp = (rsp - sizeof(*f)) & ~63ull;
	f = (struct fault_frame *)sp;
	/* Memory below the interrupted rsp is, to memcheck, not there; this
	 * frame is the dispatcher's stack from now on. */
	VALGRIND_MAKE_MEM_UNDEFINED((void *)(sp - 0x28), rsp - (sp - 0x28));
	ucontext_to_context(uc, &f->ctx);
	fill_record(sig, si, uc, &f->rec, &f->ctx);

	/* A call frame for fault_entry: home area and a null return address
	 * (it never returns), rsp 8 off 16-byte alignment as after a call. */
	sp -= 0x28;
	*(ULONG64 *)sp = 0;
	g[REG_RSP] = sp;
	g[REG_RIP] = (greg_t)fault_entry;
	g[REG_RCX] = (greg_t)&f->rec;
	g[REG_RDX] = (greg_t)&f->ctx;
	/* The dispatcher runs with the direction and trap flags clear. */
	g[REG_EFL] &= ~(greg_t)0x500;
}

void seh_thread_init(void)
{
	stack_t ss;

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
