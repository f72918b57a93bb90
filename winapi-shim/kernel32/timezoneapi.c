/* FILETIME/SYSTEMTIME conversions (timezoneapi.h).
 *
 * Local time is the Linux local time (TZ, /etc/localtime).  As the
 * documentation says, FileTimeToLocalFileTime applies the offset in
 * force now (the zone's current bias and daylight state, those
 * GetTimeZoneInformation reports), not the one at the file's time; the
 * zone's rules are timezone.c's. */
#include <string.h>
#include <time.h>

#include "core/codepage.h"
#include "kernel32/kernel32_private.h"

#define TICKS_PER_SEC 10000000ll
#define TICKS_PER_DAY (86400ll * TICKS_PER_SEC)
/* 1601-01-01 is day 0; Windows accepts FILETIMEs below 2^63. */
#define MAX_FILETIME 0x7fffffffffffffffll

static LONGLONG ft_to_ll(const FILETIME *ft)
{
	return (LONGLONG)(((ULONGLONG)ft->dwHighDateTime << 32) | ft->dwLowDateTime);
}

static void ll_to_ft(LONGLONG t, FILETIME *ft)
{
	ft->dwLowDateTime = (DWORD)t;
	ft->dwHighDateTime = (DWORD)((ULONGLONG)t >> 32);
}

/* Days since 1601-01-01 <-> proleptic Gregorian dates (a 400-year cycle
 * starts on 1601-01-01, a Monday). */
static void civil_from_days(LONGLONG days, int *year, int *month, int *day)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	LONGLONG cycles = days / 146097, rem = days % 146097;
	int c = (int)(rem / 36524), y4, y;

	if (c == 4)
		c = 3; /* the last day of a 400-year cycle */
	rem -= c * 36524ll;
	y4 = (int)(rem / 1461);
	rem -= y4 * 1461ll;
	y = (int)(rem / 365);
	if (y == 4)
		y = 3;
	rem -= y * 365ll;
	*year = 1601 + (int)cycles * 400 + c * 100 + y4 * 4 + y;
	for (int m = 0; m < 12; m++) {
		int leap = m == 1 && ((*year % 4 == 0 && *year % 100) || *year % 400 == 0);
		int len = mdays[m] + leap;

		if (rem < len) {
			*month = m + 1;
			*day = (int)rem + 1;
			return;
		}
		rem -= len;
	}
}

static int is_leap(int y)
{
	return (y % 4 == 0 && y % 100) || y % 400 == 0;
}

static LONGLONG days_from_civil(int year, int month, int day)
{
	static const int before[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	int y = year - 1601;
	LONGLONG days = y * 365ll + y / 4 - y / 100 + y / 400;

	return days + before[month - 1] + (month > 2 && is_leap(year)) + day - 1;
}

BOOL WINAPI FileTimeToSystemTime(const FILETIME *ft, LPSYSTEMTIME st)
{
	LONGLONG t = ft_to_ll(ft), days, rem;
	int y, m = 1, d = 1;

	if (t < 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	days = t / TICKS_PER_DAY;
	rem = t % TICKS_PER_DAY;
	civil_from_days(days, &y, &m, &d);
	st->wYear = (WORD)y;
	st->wMonth = (WORD)m;
	st->wDay = (WORD)d;
	st->wDayOfWeek = (WORD)((days + 1) % 7); /* 1601-01-01 was a Monday */
	st->wHour = (WORD)(rem / (3600 * TICKS_PER_SEC));
	st->wMinute = (WORD)(rem / (60 * TICKS_PER_SEC) % 60);
	st->wSecond = (WORD)(rem / TICKS_PER_SEC % 60);
	st->wMilliseconds = (WORD)(rem / 10000 % 1000);
	return TRUE;
}

BOOL WINAPI SystemTimeToFileTime(const SYSTEMTIME *st, LPFILETIME ft)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	LONGLONG t;

	if (st->wYear < 1601 || st->wYear > 30827 || st->wMonth < 1 || st->wMonth > 12 || st->wDay < 1 ||
	    st->wDay > mdays[st->wMonth - 1] + (st->wMonth == 2 && is_leap(st->wYear)) ||
	    st->wHour > 23 || st->wMinute > 59 || st->wSecond > 59 || st->wMilliseconds > 999) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	t = days_from_civil(st->wYear, st->wMonth, st->wDay) * TICKS_PER_DAY +
	    ((st->wHour * 60ll + st->wMinute) * 60 + st->wSecond) * TICKS_PER_SEC +
	    st->wMilliseconds * 10000ll;
	ll_to_ft(t, ft);
	return TRUE;
}

/* The UTC offset (seconds east) in force now. */
static long current_offset(void)
{
	time_t now = time(NULL);
	struct tm tm;

	return localtime_r(&now, &tm) ? tm.tm_gmtoff : 0;
}

BOOL WINAPI FileTimeToLocalFileTime(const FILETIME *utc, LPFILETIME local)
{
	ll_to_ft(ft_to_ll(utc) + current_offset() * TICKS_PER_SEC, local);
	return TRUE;
}

BOOL WINAPI LocalFileTimeToFileTime(const FILETIME *local, LPFILETIME utc)
{
	ll_to_ft(ft_to_ll(local) - current_offset() * TICKS_PER_SEC, utc);
	return TRUE;
}

LONG WINAPI CompareFileTime(const FILETIME *a, const FILETIME *b)
{
	ULONGLONG x, y;

	if (!a || !b)
		return !a ? (!b ? 0 : -1) : 1;
	x = ((ULONGLONG)a->dwHighDateTime << 32) | a->dwLowDateTime;
	y = ((ULONGLONG)b->dwHighDateTime << 32) | b->dwLowDateTime;
	return x < y ? -1 : x > y;
}
