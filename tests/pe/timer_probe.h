/* What the timer tests' callbacks share (threadpool_timer.c and
 * timer_queue.c): a run seen from outside, counted as it starts and as it
 * ends, with an event set as it starts and an optional linger between;
 * and polling for such a count. */
#ifndef NDSHIM_PE_TIMER_PROBE_H
#define NDSHIM_PE_TIMER_PROBE_H

#include <windows.h>

/* One callback's run: *count, then started set (if any), sleep_ms (if
 * any), then *finished. */
static void probe_run(volatile LONG *count, volatile LONG *finished, HANDLE started, DWORD sleep_ms)
{
	InterlockedIncrement(count);
	if (started)
		SetEvent(started);
	if (sleep_ms)
		Sleep(sleep_ms);
	InterlockedIncrement(finished);
}

/* Polls until *v reaches want or ms pass (a loaded machine may be slow to
 * run a timer; these checks are about whether it fires, not how soon). */
static LONG wait_count(volatile LONG *v, LONG want, DWORD ms)
{
	DWORD start = GetTickCount();

	while (*v < want && GetTickCount() - start < ms)
		Sleep(5);
	return *v;
}

#endif
