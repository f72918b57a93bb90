/* A fault inside a builtin, caused by what its PE caller passed.
 *
 * On Windows, strlen(NULL) faults inside msvcrt.dll, which is PE code: the
 * program's __try blocks, vectored handlers and unhandled-exception filter
 * see an access violation.  ndrun's builtins are Linux code (and call
 * glibc), so the same fault lands in ndrun.  Rather than checking every
 * pointer on every call (a cost on the fast paths), the fault handler
 * finds out afterwards whom the fault belongs to: it unwinds the host
 * frames from the fault, with the DWARF call-frame information every
 * host object carries (libgcc's unwinder, which also crosses the signal
 * frame), up to the first return address in PE code.  That frame is the
 * PE caller of the builtin, and its registers as the unwinder restores
 * them (rbx, rbp, rsi, rdi, r12-r15, rsp after the return) are the state
 * the caller would have had had the builtin returned.  The exception is
 * raised there: the builtin frames are abandoned, as Windows abandons
 * msvcrt's frames when a handler unwinds past them.
 *
 * xmm6-xmm15 are not tracked by libgcc's unwinder (it follows the 17
 * general registers only): the context carries their values at the
 * fault, which are the caller's unless a host frame in between had
 * changed them.
 *
 * The handler runs on the signal stack; _Unwind_Backtrace takes no lock
 * with glibc 2.35 and later (_dl_find_object) and allocates nothing. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unwind.h>

#include "builtin.h"
#include "loader.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

/* DWARF register numbers (x86-64 psABI). */
enum { DW_RBX = 3, DW_RSI = 4, DW_RDI = 5, DW_RBP = 6, DW_R12 = 12, DW_R13, DW_R14, DW_R15 };

/* Host frames between the fault and the PE caller, at most: a builtin's
 * own calls rarely go ten deep; past this, the walk is lost. */
#define MAX_HOST_FRAMES 64

struct walk {
	CONTEXT *ctx;
	int frames;
	int found;
	ULONG64 host_pc; /* the outermost host frame: the builtin itself */
};

/* Where the last builtin fault of this thread happened, for the report. */
static __thread ULONG64 last_builtin_pc, last_caller_pc;

static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *uctx, void *arg)
{
	struct walk *w = arg;
	ULONG64 pc = _Unwind_GetIP(uctx);

	if (++w->frames > MAX_HOST_FRAMES)
		return _URC_END_OF_STACK;
	if (!pc)
		return _URC_END_OF_STACK;
	/* A builtin the loader's call of an entry point, TLS callback or
	 * DllMain reached directly (a damaged image's entry jumping through
	 * an import thunk): no PE frame called it.  On Windows the fault is
	 * in that DLL's code with no handler frame of the program's above
	 * it; here it is raised at the loader's return point, whose frame
	 * ends the handler walk, so vectored handlers and the
	 * unhandled-exception filter see it. */
	if (!seh_pc_in_pe(pc) && pc != (ULONG64)loader_call_pe_ret) {
		w->host_pc = pc;
		return _URC_NO_REASON;
	}
	/* The first frame in PE code (or the loader's call): the unwinder
	 * has restored the callee-saved registers as the builtin would have
	 * on return; the CFA of the frame below (the builtin's) is the
	 * caller's rsp then. */
	w->ctx->Rip = pc;
	w->ctx->Rsp = _Unwind_GetCFA(uctx);
	w->ctx->Rbx = _Unwind_GetGR(uctx, DW_RBX);
	w->ctx->Rbp = _Unwind_GetGR(uctx, DW_RBP);
	w->ctx->Rsi = _Unwind_GetGR(uctx, DW_RSI);
	w->ctx->Rdi = _Unwind_GetGR(uctx, DW_RDI);
	w->ctx->R12 = _Unwind_GetGR(uctx, DW_R12);
	w->ctx->R13 = _Unwind_GetGR(uctx, DW_R13);
	w->ctx->R14 = _Unwind_GetGR(uctx, DW_R14);
	w->ctx->R15 = _Unwind_GetGR(uctx, DW_R15);
	w->found = 1;
	return _URC_END_OF_STACK;
}

/* Set while this thread's walk runs: a fault inside the unwinder comes
 * back here (seh_builtin_walk_fault). */
static __thread sigjmp_buf *walk_escape;

void seh_builtin_walk_fault(void)
{
	if (walk_escape)
		siglongjmp(*walk_escape, 1);
}

int seh_builtin_fault_caller(CONTEXT *ctx)
{
	struct walk w = { .ctx = ctx };
	volatile ULONG64 fault_pc = ctx->Rip;
	sigjmp_buf escape;
	sigset_t faults;

	/* libgcc's unwinder reads the code at each return address it meets
	 * (its fallback for code without unwind data looks for a signal
	 * trampoline there): a builtin a damaged program jumped to with
	 * garbage for a return address makes it fault.  The walk then runs
	 * with faults unblocked and such a fault ends it here: the stack
	 * that led to the builtin is the program's, and so is the fault,
	 * raised where it happened (ctx as it stands: the walk changes it
	 * only on finding the caller, and then ends).  That frame ends the
	 * handler walk, so vectored handlers and the unhandled-exception
	 * filter see it, as on Windows, with no frame of the program's
	 * above it either. */
	if (sigsetjmp(escape, 1)) {
		walk_escape = NULL;
		last_builtin_pc = fault_pc;
		last_caller_pc = ctx->Rip;
		return 1;
	}
	sigemptyset(&faults);
	sigaddset(&faults, SIGSEGV);
	sigaddset(&faults, SIGBUS);
	walk_escape = &escape;
	pthread_sigmask(SIG_UNBLOCK, &faults, NULL);
	_Unwind_Backtrace(walk_frame, &w);
	pthread_sigmask(SIG_BLOCK, &faults, NULL);
	walk_escape = NULL;
	if (!w.found)
		return 0;
	last_builtin_pc = w.host_pc ? w.host_pc : fault_pc;
	last_caller_pc = ctx->Rip;
	return 1;
}

void seh_builtin_fault_note(ULONG64 pc)
{
	Dl_info info, self;
	char name[160];
	ULONG64 host = last_builtin_pc;

	if (!host || pc != last_caller_pc)
		return;
	/* host is a return address (or the fault's pc): look just before
	 * it.  In ndrun itself, the nearest builtin export names it; in a
	 * library (glibc's string functions, which a builtin may jump to),
	 * that library's nearest symbol. */
	if (!dladdr((void *)(host - 1), &info))
		return;
	if (dladdr((void *)seh_builtin_fault_note, &self) && info.dli_fbase == self.dli_fbase &&
	    builtin_describe_pc((void *)(host - 1), name, sizeof(name)))
		fprintf(stderr, "ndrun: note: the fault happened inside the builtin %s, on memory the program passed\n",
			name);
	else
		fprintf(stderr, "ndrun: note: the fault happened inside %s (%s), called by the program with memory it passed\n",
			info.dli_sname ? info.dli_sname : "?", info.dli_fname);
}
