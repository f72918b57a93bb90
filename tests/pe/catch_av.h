/* Catching an access violation from C (mingw has no __try): catch_av(fn,
 * arg) runs fn(arg) and returns 1 when it raised EXCEPTION_ACCESS_VIOLATION
 * (then caught_info holds the record's read/write flag and address), 0
 * when it returned.  A vectored handler puts the thread back where
 * catch_av captured its context. */
#ifndef NDSHIM_PE_CATCH_AV_H
#define NDSHIM_PE_CATCH_AV_H

#include <windows.h>

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

#endif
