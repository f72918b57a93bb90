/* Performance counter and tick counts (profileapi.h, sysinfoapi.h).
 * The counter is CLOCK_MONOTONIC in 100 ns units: 10 MHz, the frequency
 * current Windows reports. */
#include <time.h>

#include "kernel32/kernel32_private.h"

#define QPC_FREQUENCY 10000000ll

static ULONGLONG monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ULONGLONG)ts.tv_sec * 1000000000ull + (ULONGLONG)ts.tv_nsec;
}

BOOL WINAPI QueryPerformanceCounter(LARGE_INTEGER *counter)
{
	counter->QuadPart = (LONGLONG)(monotonic_ns() / 100);
	return TRUE;
}

BOOL WINAPI QueryPerformanceFrequency(LARGE_INTEGER *freq)
{
	freq->QuadPart = QPC_FREQUENCY;
	return TRUE;
}

ULONGLONG WINAPI GetTickCount64(void)
{
	return monotonic_ns() / 1000000;
}

DWORD WINAPI GetTickCount(void)
{
	return (DWORD)GetTickCount64();
}
