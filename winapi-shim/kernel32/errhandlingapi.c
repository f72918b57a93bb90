/* The kernel32 side of exception handling (errhandlingapi.h): the
 * top-level filter, and the fail-fast exit.  RaiseException and the vectored-handler functions
 * are ntdll's (see kernel32.spec). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/debug.h"
#include "kernel32/kernel32_private.h"
#include "ntdll/seh_private.h"
#include "core/pecall.h"

static _Atomic(LPTOP_LEVEL_EXCEPTION_FILTER) top_filter;

LPTOP_LEVEL_EXCEPTION_FILTER WINAPI SetUnhandledExceptionFilter(LPTOP_LEVEL_EXCEPTION_FILTER filter)
{
	TRACE(seh, "%p\n", filter);
	return atomic_exchange(&top_filter, filter);
}

/* The filter Windows runs around every thread's start routine: the
 * program's own top-level filter first; if that one does not decide, the
 * report, and EXCEPTION_EXECUTE_HANDLER (the caller ends the process). */
LONG WINAPI UnhandledExceptionFilter(EXCEPTION_POINTERS *ptrs)
{
	LPTOP_LEVEL_EXCEPTION_FILTER filter = atomic_load(&top_filter);

	if (filter) {
		LONG ret = (LONG)PE_CALL1(filter, ptrs);
		TRACE(seh, "top-level filter %p returned %d\n", filter, (int)ret);
		if (ret != EXCEPTION_CONTINUE_SEARCH)
			return ret;
	}
	seh_report(ptrs->ExceptionRecord, ptrs->ContextRecord);
	return EXCEPTION_EXECUTE_HANDLER;
}

/* Ends the process at once: no vectored handler, frame handler or
 * unhandled-exception filter runs (that is the point of it), and the
 * exit status is the record's code, or STATUS_FAIL_FAST_EXCEPTION. */
void WINAPI RaiseFailFastException(PEXCEPTION_RECORD rec, PCONTEXT ctx, DWORD flags)
{
	EXCEPTION_RECORD fallback;
	CONTEXT here;

	TRACE(seh, "%p %p %#x\n", rec, ctx, (unsigned)flags);
	if (!rec) {
		memset(&fallback, 0, sizeof(fallback));
		fallback.ExceptionCode = 0xC0000602; /* STATUS_FAIL_FAST_EXCEPTION */
		fallback.ExceptionFlags = EXCEPTION_NONCONTINUABLE;
		fallback.ExceptionAddress = __builtin_return_address(0);
		rec = &fallback;
	}
	if (!ctx) {
		RtlCaptureContext(&here);
		here.Rip = (ULONG64)__builtin_return_address(0);
		ctx = &here;
	}
	fprintf(stderr, "ndrun: fail-fast exception: ending the program at once\n");
	seh_report(rec, ctx);
	seh_terminate(rec->ExceptionCode);
}
