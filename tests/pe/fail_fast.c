/* RaiseFailFastException ends the process at once (Microsoft's docs:
 * "exception handlers are not invoked"): neither the vectored handler
 * nor the unhandled-exception filter runs, and the exit status is the
 * record's code (0xE0000047: the shell sees 0x47, 71).  Standard output
 * shows that only "before" was printed (fail_fast.expected).  ndrun
 * only: Wine 8's RaiseFailFastException returns to its caller. */
#include <stdio.h>
#include <windows.h>

typedef void(WINAPI *failfast_fn)(PEXCEPTION_RECORD, PCONTEXT, DWORD);

static LONG CALLBACK vectored(EXCEPTION_POINTERS *ptrs)
{
	(void)ptrs;
	printf("vectored handler ran\n");
	fflush(stdout);
	return EXCEPTION_CONTINUE_SEARCH;
}

static LONG WINAPI filter(EXCEPTION_POINTERS *ptrs)
{
	(void)ptrs;
	printf("unhandled-exception filter ran\n");
	fflush(stdout);
	return EXCEPTION_EXECUTE_HANDLER;
}

int main(void)
{
	failfast_fn failfast =
		(failfast_fn)(void *)GetProcAddress(GetModuleHandleA("kernel32.dll"), "RaiseFailFastException");
	EXCEPTION_RECORD rec;

	AddVectoredExceptionHandler(1, vectored);
	SetUnhandledExceptionFilter(filter);
	memset(&rec, 0, sizeof(rec));
	rec.ExceptionCode = 0xE0000047;
	printf("before\n");
	fflush(stdout);
	if (!failfast) {
		printf("RaiseFailFastException missing\n");
		return 1;
	}
	failfast(&rec, NULL, 0);
	printf("RaiseFailFastException returned\n");
	return 2;
}
