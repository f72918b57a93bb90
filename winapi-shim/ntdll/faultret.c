/* Access violations raised on behalf of a builtin, in its PE caller.
 *
 * Windows' own DLLs are PE code: when kernelbase writes through a NULL
 * out-pointer, the fault is an exception the program's handlers see.
 * ndrun's builtins are Linux code, whose faults are ndrun crashes, so a
 * builtin checks such a pointer itself and, instead of touching it,
 * points its own return at seh_av_trampoline (context.S): the builtin's
 * epilogue restores the caller's registers, the trampoline puts the real
 * return address back on the stack and enters seh_raise_av_stub, which
 * captures that state as the faulting CONTEXT.
 *
 * To find out whether a pointer is good, a builtin copies through it with
 * seh_copy_from_user: a fault in that copy is not an ndrun crash but a
 * jump back into it (the fault handler asks seh_probe_recover). */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "core/virtual.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh.h"
#include "ntdll/seh_private.h"

extern char seh_av_trampoline[];
extern char relay_common_ret[];

static __thread struct {
	void *ret;
	DWORD code; /* EXCEPTION_ACCESS_VIOLATION, or seh_raise_on_return's */
	const void *addr;
	int write;
} pending;

static void redirect_return(void **ret_slot, void *ret, const char *what)
{
	/* Under +relay the builtin returns into relay_common, whose rbp
	 * frame (saved by the builtin's prologue, just below its return
	 * address) holds the PE caller's return address: that one is
	 * redirected, and the relay logs the return as usual. */
	if (*ret_slot == ret && ret == relay_common_ret) {
		ret_slot = (void **)ret_slot[-1] + 1;
		ret = *ret_slot;
	}
	/* The frame-pointer layout the macro relies on, and a PE caller,
	 * checked. */
	if (*ret_slot != ret || !seh_pc_in_pe((ULONG64)ret)) {
		ndrun_error("internal error: no return address to redirect for %s", what);
		abort();
	}
	pending.ret = ret;
	*ret_slot = seh_av_trampoline;
}

void seh_fault_on_return(void **ret_slot, void *ret, const void *addr, int write)
{
	pending.code = EXCEPTION_ACCESS_VIOLATION;
	pending.addr = addr;
	pending.write = write;
	redirect_return(ret_slot, ret, "an access violation");
}

void seh_raise_on_return(void **ret_slot, void *ret, unsigned int code)
{
	pending.code = code;
	pending.addr = NULL;
	pending.write = 0;
	redirect_return(ret_slot, ret, "an exception");
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
	rec.ExceptionAddress = (void *)ctx->Rip;
	if (pending.code != EXCEPTION_ACCESS_VIOLATION) {
		/* As RaiseException(code, EXCEPTION_NONCONTINUABLE, 0, NULL)
		 * would in the caller (RpcRaiseException's form). */
		rec.ExceptionCode = pending.code;
		rec.ExceptionFlags = EXCEPTION_NONCONTINUABLE;
		TRACE(seh, "exception %#x for a builtin's caller at %p\n", (unsigned)pending.code,
		      rec.ExceptionAddress);
		seh_dispatch(&rec, ctx);
		return;
	}
	rec.ExceptionCode = EXCEPTION_ACCESS_VIOLATION;
	rec.NumberParameters = 2;
	rec.ExceptionInformation[0] = pending.write ? EXCEPTION_WRITE_FAULT : EXCEPTION_READ_FAULT;
	rec.ExceptionInformation[1] = (ULONG_PTR)pending.addr;
	TRACE(seh, "access violation at %p for a builtin's caller at %p\n", pending.addr, rec.ExceptionAddress);
	seh_dispatch(&rec, ctx);
}

/* volatile: the stores around the copy must stay where they are. */
static __thread sigjmp_buf *volatile probe_env;

/* Byte by byte through volatile pointers: no library routine (nor a
 * sanitizer's interceptor) between the access and the fault. */
static bool probed_copy(volatile unsigned char *to, const volatile unsigned char *from, size_t len,
			uintptr_t user)
{
	sigjmp_buf env;

	if (!len)
		return true;
	/* The first 64 KiB are never mapped, on Windows as here. */
	if (user < VIRTUAL_MIN_ADDRESS || user + len < user)
		return false;
	if (sigsetjmp(env, 0)) {
		probe_env = NULL;
		return false;
	}
	probe_env = &env;
	for (size_t i = 0; i < len; i++)
		to[i] = from[i];
	probe_env = NULL;
	return true;
}

bool seh_copy_from_user(void *dst, const void *src, size_t len)
{
	return probed_copy(dst, src, len, (uintptr_t)src);
}

bool seh_copy_to_user(void *dst, const void *src, size_t len)
{
	return probed_copy(dst, src, len, (uintptr_t)dst);
}

bool seh_run_probed(void (*fn)(void *), void *arg)
{
	sigjmp_buf env;
	sigjmp_buf *volatile outer = probe_env;

	if (sigsetjmp(env, 0)) {
		probe_env = outer;
		return false;
	}
	probe_env = &env;
	fn(arg);
	probe_env = outer;
	return true;
}

void seh_probe_recover(int sig)
{
	sigset_t set;

	if (!probe_env)
		return;
	/* Leaving the handler by a jump: the signal must not stay blocked. */
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	siglongjmp(*probe_env, 1);
}
