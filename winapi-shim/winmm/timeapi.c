/* Multimedia timers' clock and resolution (timeapi.h).
 *
 * timeGetTime is the milliseconds since boot, GetTickCount's clock, at
 * the 1 ms resolution Linux timers always have; so timeBeginPeriod and
 * timeEndPeriod have nothing to change, but they check their argument
 * against the range timeGetDevCaps reports (1 ms to 1,000,000 ms) and
 * answer TIMERR_NOCANDO outside it, as documented. */
#include "winmm/winmm_private.h"

#define PERIOD_MIN 1
#define PERIOD_MAX 1000000

DWORD WINAPI timeGetTime(void)
{
	return GetTickCount();
}

MMRESULT WINAPI timeGetDevCaps(LPTIMECAPS caps, UINT size)
{
	if (!caps || size < sizeof(*caps))
		return TIMERR_NOCANDO;
	caps->wPeriodMin = PERIOD_MIN;
	caps->wPeriodMax = PERIOD_MAX;
	return TIMERR_NOERROR;
}

MMRESULT WINAPI timeBeginPeriod(UINT period)
{
	return period < PERIOD_MIN || period > PERIOD_MAX ? TIMERR_NOCANDO : TIMERR_NOERROR;
}

MMRESULT WINAPI timeEndPeriod(UINT period)
{
	return period < PERIOD_MIN || period > PERIOD_MAX ? TIMERR_NOCANDO : TIMERR_NOERROR;
}

/* The same clock in an MMTIME, always as milliseconds (TIME_MS). */
MMRESULT WINAPI timeGetSystemTime(LPMMTIME time, UINT size)
{
	if (!time || size < sizeof(*time))
		return TIMERR_NOCANDO;
	time->wType = TIME_MS;
	time->u.ms = timeGetTime();
	return TIMERR_NOERROR;
}
