/* Access violations raised on behalf of a builtin, in its PE caller.
 *
 * Windows' own DLLs are PE code: when kernelbase writes through a NULL
 * out-pointer, the fault is an exception the program's handlers see.
 * ndrun's builtins are Linux code, whose faults are ndrun crashes, so a
 * builtin checks such a pointer itself and, instead of touching it,
 * points its own return at seh_av_trampoline (context.S): the builtin's
 * epilogue restores the caller's registers, the trampoline puts the real
 * return address back on the stack and enters seh_raise_av_stub, which
 * captures that state as the faulting CONTEXT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh.h"
#include "ntdll/seh_private.h"

extern char seh_av_trampoline[];

static __thread struct {
	void *ret;
	const void *addr;
	int write;
} pending;

void seh_fault_on_return(void **ret_slot, void *ret, const void *addr, int write)
{
	/* The frame-pointer layout the macro relies on, checked. */
	if (*ret_slot != ret) {
		ndrun_error("internal error: no return address to redirect for an access violation at %p", addr);
		abort();
	}
	pending.ret = ret;
	pending.addr = addr;
	pending.write = write;
	*ret_slot = seh_av_trampoline;
}

/* Called by the trampoline: where the builtin should have returned.  An
 * ms_abi function, so it keeps the caller's rsi, rdi and xmm6-15. */
void *__attribute__((ms_abi)) seh_av_pending_return(void);
void *__attribute__((ms_abi)) seh_av_pending_return(void)
{
	return pending.ret;
}

void __attribute__((ms_abi)) seh_raise_av_worker(ULONG_PTR *args, CONTEXT *ctx);
void __attribute__((ms_abi)) seh_raise_av_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	EXCEPTION_RECORD rec;

	(void)args;
	memset(&rec, 0, sizeof(rec));
	rec.ExceptionCode = EXCEPTION_ACCESS_VIOLATION;
	rec.ExceptionAddress = (void *)ctx->Rip;
	rec.NumberParameters = 2;
	rec.ExceptionInformation[0] = pending.write ? EXCEPTION_WRITE_FAULT : EXCEPTION_READ_FAULT;
	rec.ExceptionInformation[1] = (ULONG_PTR)pending.addr;
	TRACE(seh, "access violation at %p for a builtin's caller at %p\n", pending.addr, rec.ExceptionAddress);
	seh_dispatch(&rec, ctx);
}
