/* DebugBreak raises EXCEPTION_BREAKPOINT in the caller: a vectored
 * handler sees it, and the program goes on when the handler continues
 * past it (on x64 the context's Rip is already past the int 3). */
#include <windows.h>

#include "test.h"

static int seen;
static DWORD code;

static LONG CALLBACK handler(EXCEPTION_POINTERS *p)
{
	if (p->ExceptionRecord->ExceptionCode != EXCEPTION_BREAKPOINT)
		return EXCEPTION_CONTINUE_SEARCH;
	seen++;
	code = p->ExceptionRecord->ExceptionCode;
	/* An int 3 on x64 reports the address of the instruction; Windows
	 * has already moved Rip past it by the time handlers run?  Not
	 * assumed: DebugBreak returns wherever the context says, so step
	 * only when Rip still points at an int 3. */
	if (*(unsigned char *)p->ContextRecord->Rip == 0xcc)
		p->ContextRecord->Rip++;
	return EXCEPTION_CONTINUE_EXECUTION;
}

int main(void)
{
	void *h = AddVectoredExceptionHandler(1, handler);

	DebugBreak();
	ok(seen == 1, "the handler saw %d breakpoints\n", seen);
	ok(code == EXCEPTION_BREAKPOINT, "code %#lx\n", code);
	DebugBreak();
	ok(seen == 2, "the handler saw %d breakpoints\n", seen);
	RemoveVectoredExceptionHandler(h);
	return test_summary();
}
