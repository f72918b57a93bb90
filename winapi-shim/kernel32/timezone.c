/* The time zone (timezoneapi.h): the system's tz database in Windows'
 * terms (core/tzinfo.h), and Windows' conversions between UTC and a
 * zone's local time by its rules. */
#include <string.h>
#include <time.h>

#include "core/tzinfo.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

#define TICKS_PER_MIN (60 * 10000000ll)

/* The current zone for year, with its names. */
static void fill(int year, DYNAMIC_TIME_ZONE_INFORMATION *d)
{
	struct tz_rules r;

	memset(d, 0, sizeof(*d));
	tz_rules_for_year(year, &r);
	d->Bias = r.bias;
	if (r.has_dst) {
		d->DaylightBias = r.daylight_bias;
		d->StandardDate = r.standard_date;
		d->DaylightDate = r.daylight_date;
	}
	tz_names(d->TimeZoneKeyName, d->StandardName, d->DaylightName, 32);
}

static int this_year(void)
{
	time_t now = time(NULL);
	struct tm tm;

	return localtime_r(&now, &tm) ? tm.tm_year + 1900 : 1970;
}

DWORD WINAPI GetDynamicTimeZoneInformation(PDYNAMIC_TIME_ZONE_INFORMATION d)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!d) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return TIME_ZONE_ID_INVALID;
	}
	fill(this_year(), d);
	if (!d->DaylightDate.wMonth)
		return TIME_ZONE_ID_UNKNOWN; /* no daylight time in this zone */
	return localtime_r(&now, &tm) && tm.tm_isdst > 0 ? TIME_ZONE_ID_DAYLIGHT : TIME_ZONE_ID_STANDARD;
}

DWORD WINAPI GetTimeZoneInformation(LPTIME_ZONE_INFORMATION tzi)
{
	DYNAMIC_TIME_ZONE_INFORMATION d;
	DWORD ret;

	if (!tzi) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return TIME_ZONE_ID_INVALID;
	}
	ret = GetDynamicTimeZoneInformation(&d);
	memcpy(tzi, &d, sizeof(*tzi));
	return ret;
}

/* Whether dtzi names the zone in use (its key). */
static bool is_current(const DYNAMIC_TIME_ZONE_INFORMATION *dtzi)
{
	WCHAR key[128], std[32], dlt[32];

	tz_names(key, std, dlt, 128);
	return !wstr_icmp(dtzi->TimeZoneKeyName, key);
}

/* A named zone other than the current one would come from the Windows
 * registry's time zone database, which ndrun does not have: it is not
 * found. */
BOOL WINAPI GetTimeZoneInformationForYear(USHORT year, PDYNAMIC_TIME_ZONE_INFORMATION dtzi,
					  LPTIME_ZONE_INFORMATION tzi)
{
	DYNAMIC_TIME_ZONE_INFORMATION d;

	if (!tzi || year < 1601 || year > 30827) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (dtzi && !is_current(dtzi)) {
		SetLastError(ERROR_FILE_NOT_FOUND);
		return FALSE;
	}
	fill(year, &d);
	memcpy(tzi, &d, sizeof(*tzi));
	return TRUE;
}

static LONGLONG st_ticks(const SYSTEMTIME *st)
{
	FILETIME ft;

	if (!SystemTimeToFileTime(st, &ft))
		return -1;
	return (LONGLONG)(((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime);
}

static BOOL ticks_st(LONGLONG t, SYSTEMTIME *st)
{
	FILETIME ft = { (DWORD)t, (DWORD)((ULONGLONG)t >> 32) };

	return FileTimeToSystemTime(&ft, st);
}

/* tzi NULL: the current zone's rules for the year of st. */
static const TIME_ZONE_INFORMATION *rules_for(const TIME_ZONE_INFORMATION *tzi, const SYSTEMTIME *st,
					     DYNAMIC_TIME_ZONE_INFORMATION *buf)
{
	if (tzi)
		return tzi;
	fill(st->wYear, buf);
	return (const TIME_ZONE_INFORMATION *)buf;
}

BOOL WINAPI SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *tzi, const SYSTEMTIME *utc,
					    LPSYSTEMTIME local)
{
	DYNAMIC_TIME_ZONE_INFORMATION buf;
	LONGLONG t;
	LONG bias;

	if (!utc || !local || (t = st_ticks(utc)) < 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	tzi = rules_for(tzi, utc, &buf);
	bias = tzi->Bias + (tz_is_daylight_utc(tzi, t) ? tzi->DaylightBias : tzi->StandardBias);
	return ticks_st(t - bias * TICKS_PER_MIN, local);
}

BOOL WINAPI TzSpecificLocalTimeToSystemTime(const TIME_ZONE_INFORMATION *tzi, const SYSTEMTIME *local,
					    LPSYSTEMTIME utc)
{
	DYNAMIC_TIME_ZONE_INFORMATION buf;
	LONGLONG t;
	LONG bias;

	if (!utc || !local || (t = st_ticks(local)) < 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	tzi = rules_for(tzi, local, &buf);
	bias = tzi->Bias + (tz_is_daylight_local(tzi, t) ? tzi->DaylightBias : tzi->StandardBias);
	return ticks_st(t + bias * TICKS_PER_MIN, utc);
}

/* The Ex forms: a dynamic zone is the current one's rules for the
 * year when it names the current zone, else its fixed rules. */
BOOL WINAPI SystemTimeToTzSpecificLocalTimeEx(const DYNAMIC_TIME_ZONE_INFORMATION *dtzi, const SYSTEMTIME *utc,
					      LPSYSTEMTIME local)
{
	return SystemTimeToTzSpecificLocalTime(dtzi && !is_current(dtzi) ? (const TIME_ZONE_INFORMATION *)dtzi : NULL,
					       utc, local);
}

BOOL WINAPI TzSpecificLocalTimeToSystemTimeEx(const DYNAMIC_TIME_ZONE_INFORMATION *dtzi, const SYSTEMTIME *local,
					      LPSYSTEMTIME utc)
{
	return TzSpecificLocalTimeToSystemTime(dtzi && !is_current(dtzi) ? (const TIME_ZONE_INFORMATION *)dtzi : NULL,
					       local, utc);
}
