/* GenerateConsoleCtrlEvent to the calling process's own group: the
 * handlers of SetConsoleCtrlHandler run on a thread of their own, newest
 * first, with the event's type; SetConsoleCtrlHandler(NULL, TRUE) ignores
 * Ctrl+C but not Ctrl+Break. */
#include <windows.h>

#include "test.h"

static HANDLE called;
static volatile LONG last_type = -1, calls, older_calls;

static BOOL WINAPI handler(DWORD type)
{
	last_type = (LONG)type;
	InterlockedIncrement(&calls);
	SetEvent(called);
	return TRUE;
}

static BOOL WINAPI older(DWORD type)
{
	(void)type;
	InterlockedIncrement(&older_calls);
	return TRUE;
}

/* wine64 run with pipes for its standard handles has no console, and
 * GenerateConsoleCtrlEvent then fails (ERROR_INVALID_ACCESS); a Windows
 * console program always has one.  So every check is todo_wine. */
#undef ok
#define ok ok_todo_wine

int main(void)
{
	DWORD err;
	BOOL r;

	called = CreateEventA(NULL, FALSE, FALSE, NULL);
	ok(SetConsoleCtrlHandler(older, TRUE) && SetConsoleCtrlHandler(handler, TRUE), "SetConsoleCtrlHandler: %lu\n",
	   GetLastError());

	ok(GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, 0), "Ctrl+Break: %lu\n", GetLastError());
	ok(WaitForSingleObject(called, 5000) == WAIT_OBJECT_0, "handler not called for Ctrl+Break\n");
	ok(last_type == CTRL_BREAK_EVENT, "type %ld\n", last_type);

	ok(GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0), "Ctrl+C: %lu\n", GetLastError());
	ok(WaitForSingleObject(called, 5000) == WAIT_OBJECT_0, "handler not called for Ctrl+C\n");
	ok(last_type == CTRL_C_EVENT, "type %ld\n", last_type);
	ok(older_calls == 0, "the older handler ran though the newer one handled the event\n");

	ok(SetConsoleCtrlHandler(NULL, TRUE), "ignore Ctrl+C\n");
	ok(GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, 0), "Ctrl+Break: %lu\n", GetLastError());
	ok(WaitForSingleObject(called, 5000) == WAIT_OBJECT_0, "Ctrl+Break ignored with Ctrl+C\n");
	ok(calls == 3, "calls %ld\n", calls);

	SetLastError(0xdeadbeef);
	r = GenerateConsoleCtrlEvent(7, 0);
	err = GetLastError(); /* before ok(): its Wine probe sets the last error */
	ok(!r, "event 7 accepted\n");
	ok(err == ERROR_INVALID_PARAMETER, "error %lu\n", err);
	return test_summary();
}
