/* Catching an access violation from C (mingw has no __try): catch_av(fn,
 * arg) runs fn(arg) and returns 1 when it raised EXCEPTION_ACCESS_VIOLATION
 * (then caught_info holds the record's read/write flag and address), 0
 * when it returned.  A vectored handler puts the thread back where
 * catch_av captured its context. */
#ifndef NDSHIM_PE_CATCH_AV_H
#define NDSHIM_PE_CATCH_AV_H

#include <windows.h>

#include "test.h"

static CONTEXT catch_ctx;
static volatile int catch_armed, caught;
static volatile DWORD caught_code;
static volatile ULONG_PTR caught_info[2];

static LONG CALLBACK catch_av_handler(EXCEPTION_POINTERS *ptrs)
{
	if (!catch_armed || ptrs->ExceptionRecord->ExceptionCode != EXCEPTION_ACCESS_VIOLATION)
		return EXCEPTION_CONTINUE_SEARCH;
	catch_armed = 0;
	caught = 1;
	caught_code = ptrs->ExceptionRecord->ExceptionCode;
	caught_info[0] = ptrs->ExceptionRecord->ExceptionInformation[0];
	caught_info[1] = ptrs->ExceptionRecord->ExceptionInformation[1];
	*ptrs->ContextRecord = catch_ctx;
	return EXCEPTION_CONTINUE_EXECUTION;
}

static int __attribute__((noinline)) catch_av(void (*fn)(void *), void *arg)
{
	void *h = AddVectoredExceptionHandler(1, catch_av_handler);

	caught = 0;
	caught_code = 0;
	caught_info[0] = caught_info[1] = 77;
	catch_armed = 1;
	RtlCaptureContext(&catch_ctx);
	if (!caught)
		fn(arg);
	catch_armed = 0;
	RemoveVectoredExceptionHandler(h);
	return caught;
}

/* expect_av(fn, arg, kind, lo, hi, what): fn(arg) raised an access
 * violation of that kind (EXCEPTION_READ_FAULT, _WRITE_, _EXECUTE_) at an
 * address in [lo, hi). */
static void __attribute__((unused)) expect_av(void (*fn)(void *), void *arg, ULONG_PTR kind, ULONG_PTR lo,
					      ULONG_PTR hi, const char *what)
{
	int got = catch_av(fn, arg);

	ok(got, "%s: no access violation\n", what);
	if (!got)
		return;
	ok(caught_info[0] == kind, "%s: access kind %lu, expected %lu\n", what, (unsigned long)caught_info[0],
	   (unsigned long)kind);
	ok(caught_info[1] >= lo && caught_info[1] < hi, "%s: address %#llx, expected in [%#llx, %#llx)\n", what,
	   (unsigned long long)caught_info[1], (unsigned long long)lo, (unsigned long long)hi);
}

#endif
