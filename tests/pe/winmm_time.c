/* winmm's timers: timeGetTime runs with GetTickCount's clock,
 * timeGetDevCaps reports the period range, timeBeginPeriod and
 * timeEndPeriod accept what is inside it and refuse what is not. */
#include <windows.h>
#include <mmsystem.h>

#include "test.h"

int main(void)
{
	TIMECAPS caps;
	MMTIME mt;
	DWORD a, b, t;

	ok(timeGetDevCaps(&caps, sizeof(caps)) == TIMERR_NOERROR, "timeGetDevCaps\n");
	ok(caps.wPeriodMin >= 1 && caps.wPeriodMin <= 16 && caps.wPeriodMax >= caps.wPeriodMin, "caps %u..%u\n",
	   caps.wPeriodMin, caps.wPeriodMax);
	ok(timeGetDevCaps(&caps, sizeof(caps) - 1) == TIMERR_NOCANDO, "short TIMECAPS\n");
	ok(timeGetDevCaps(NULL, sizeof(caps)) == TIMERR_NOCANDO, "NULL TIMECAPS\n");

	ok(timeBeginPeriod(caps.wPeriodMin) == TIMERR_NOERROR, "timeBeginPeriod(%u)\n", caps.wPeriodMin);
	ok(timeEndPeriod(caps.wPeriodMin) == TIMERR_NOERROR, "timeEndPeriod(%u)\n", caps.wPeriodMin);
	ok(timeBeginPeriod(0) == TIMERR_NOCANDO, "timeBeginPeriod(0)\n");
	ok(timeEndPeriod(0) == TIMERR_NOCANDO, "timeEndPeriod(0)\n");

	/* The same clock as GetTickCount: it lies between two readings of
	 * it (with GetTickCount's granularity of up to 16 ms). */
	a = GetTickCount();
	t = timeGetTime();
	b = GetTickCount();
	ok(t + 16 >= a && t <= b + 16, "timeGetTime %lu outside GetTickCount's %lu..%lu\n", t, a, b);
	/* It moves forward. */
	Sleep(30);
	ok(timeGetTime() - t >= 20, "timeGetTime did not advance\n");

	ok(timeGetSystemTime(&mt, sizeof(mt)) == TIMERR_NOERROR && mt.wType == TIME_MS, "timeGetSystemTime %u\n",
	   mt.wType);
	return test_summary();
}
