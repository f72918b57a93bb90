/* The time zone from the system's tz database: tests.list runs this with
 * TZ set to a zone and PE_TZ naming which, and the program checks what
 * Windows reports for that zone (facts of the zone, as Windows' time zone
 * database has them): Bias, the daylight rule of 2024, the names, the
 * TIME_ZONE_ID for now, GetTimeZoneInformationForYear, conversions both
 * ways around the 2024 transitions, FileTimeToLocalFileTime, and
 * msvcrt's _tzset variables, localtime and mktime. */
#define __USE_MINGW_ANSI_STDIO 0

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>

#include "test.h"

struct rule {
	WORD month, dow, week, hour;
};

static const struct zone {
	const char *id;
	LONG bias, dst_bias;
	const WCHAR *key, *std_name, *dlt_name;
	struct rule dst_on, dst_off; /* 2024; month 0: no daylight time */
	/* 2024 transitions in UTC: the first second of daylight / standard time */
	SYSTEMTIME on_utc, off_utc;
} zones[] = {
	{ "paris", -60, -60, L"Romance Standard Time", L"Romance Standard Time", L"Romance Daylight Time",
	  { 3, 0, 5, 2 }, { 10, 0, 5, 3 }, { 2024, 3, 0, 31, 1, 0, 0, 0 }, { 2024, 10, 0, 27, 1, 0, 0, 0 } },
	{ "new_york", 300, -60, L"Eastern Standard Time", L"Eastern Standard Time", L"Eastern Daylight Time",
	  { 3, 0, 2, 2 }, { 11, 0, 1, 2 }, { 2024, 3, 0, 10, 7, 0, 0, 0 }, { 2024, 11, 0, 3, 6, 0, 0, 0 } },
	/* southern: daylight time from October to April */
	{ "sydney", -600, -60, L"AUS Eastern Standard Time", L"AUS Eastern Standard Time",
	  L"AUS Eastern Daylight Time", { 10, 0, 1, 2 }, { 4, 0, 1, 3 }, { 2024, 10, 0, 5, 16, 0, 0, 0 },
	  { 2024, 4, 0, 6, 16, 0, 0, 0 } },
	/* no daylight time, half an hour */
	{ "kolkata", -330, 0, L"India Standard Time", L"India Standard Time", L"India Daylight Time", { 0 }, { 0 }, { 0 }, { 0 } },
	{ "utc", 0, 0, L"UTC", L"Coordinated Universal Time", L"Coordinated Universal Time", { 0 }, { 0 }, { 0 }, { 0 } },
};

static const struct zone *z;

static ULONGLONG ticks(const SYSTEMTIME *st)
{
	FILETIME ft;

	SystemTimeToFileTime(st, &ft);
	return ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

static SYSTEMTIME from_ticks(ULONGLONG t)
{
	FILETIME ft = { (DWORD)t, (DWORD)(t >> 32) };
	SYSTEMTIME st;

	FileTimeToSystemTime(&ft, &st);
	return st;
}

static void check_rule(const char *what, const SYSTEMTIME *got, const struct rule *want)
{
	ok(got->wYear == 0 && got->wMonth == want->month && got->wDayOfWeek == want->dow && got->wDay == want->week &&
		   got->wHour == want->hour && !got->wMinute && !got->wSecond,
	   "%s: %u/%u/%u/%u %u:%02u:%02u, want month %u dow %u week %u %u:00\n", what, got->wYear, got->wMonth,
	   got->wDayOfWeek, got->wDay, got->wHour, got->wMinute, got->wSecond, want->month, want->dow, want->week,
	   want->hour);
}

static void check_tzi(const char *what, const TIME_ZONE_INFORMATION *tzi)
{
	ok(tzi->Bias == z->bias, "%s: Bias %ld\n", what, tzi->Bias);
	ok(tzi->StandardBias == 0, "%s: StandardBias %ld\n", what, tzi->StandardBias);
	if (z->dst_on.month) {
		ok(tzi->DaylightBias == z->dst_bias, "%s: DaylightBias %ld\n", what, tzi->DaylightBias);
		check_rule(what, &tzi->DaylightDate, &z->dst_on);
		check_rule(what, &tzi->StandardDate, &z->dst_off);
	} else {
		ok(!tzi->DaylightDate.wMonth && !tzi->StandardDate.wMonth, "%s: dates %u %u\n", what,
		   tzi->DaylightDate.wMonth, tzi->StandardDate.wMonth);
	}
}

static void test_information(void)
{
	TIME_ZONE_INFORMATION tzi;
	DYNAMIC_TIME_ZONE_INFORMATION d, other;
	SYSTEMTIME utc, local;
	ULONGLONG u, l;
	LONG offset;
	DWORD id;

	/* the rules of the current year: those of 2024 for these zones */
	id = GetTimeZoneInformation(&tzi);
	check_tzi("GetTimeZoneInformation", &tzi);
	/* Wine names the first zone of its list with the same rules
	 * ("Central Europe" for Paris, "Greenwich" for UTC), not the one
	 * Windows' own mapping (CLDR's windowsZones) gives the IANA zone */
	ok_todo_wine(!wcscmp(tzi.StandardName, z->std_name), "StandardName %ls\n", tzi.StandardName);
	ok_todo_wine(!wcscmp(tzi.DaylightName, z->dlt_name), "DaylightName %ls\n", tzi.DaylightName);
	/* the id says whether daylight time is in force now */
	GetSystemTime(&utc);
	GetLocalTime(&local);
	u = ticks(&utc) / 600000000;
	l = ticks(&local) / 600000000;
	offset = (LONG)(u - l); /* minutes, as a bias */
	if (!z->dst_on.month)
		ok(id == TIME_ZONE_ID_UNKNOWN, "id %lu without daylight time\n", id);
	else
		ok(id == (offset == z->bias + z->dst_bias ? TIME_ZONE_ID_DAYLIGHT : TIME_ZONE_ID_STANDARD),
		   "id %lu, offset %ld\n", id, offset);
	ok(offset == z->bias || offset == z->bias + z->dst_bias, "local - UTC: %ld minutes\n", -offset);

	id = GetDynamicTimeZoneInformation(&d);
	check_tzi("GetDynamicTimeZoneInformation", (TIME_ZONE_INFORMATION *)&d);
	ok_todo_wine(!wcscmp(d.TimeZoneKeyName, z->key), "TimeZoneKeyName %ls\n", d.TimeZoneKeyName);
	ok(!d.DynamicDaylightTimeDisabled, "dynamic daylight time disabled\n");

	memset(&tzi, 0xcc, sizeof(tzi));
	ok(GetTimeZoneInformationForYear(2024, NULL, &tzi), "ForYear: %lu\n", GetLastError());
	check_tzi("ForYear(2024)", &tzi);
	memset(&tzi, 0xcc, sizeof(tzi));
	ok(GetTimeZoneInformationForYear(2024, &d, &tzi), "ForYear(key): %lu\n", GetLastError());
	check_tzi("ForYear(2024, key)", &tzi);
	other = d;
	wcscpy(other.TimeZoneKeyName, L"No Such Standard Time");
	SetLastError(0xdeadbeef);
	ok(!GetTimeZoneInformationForYear(2024, &other, &tzi), "an unknown zone's rules\n");
}

/* UTC -> local -> UTC around each 2024 transition, with the current zone
 * (NULL) and with its TIME_ZONE_INFORMATION. */
static void check_convert(const TIME_ZONE_INFORMATION *tzi, const SYSTEMTIME *utc, LONG bias)
{
	SYSTEMTIME local, back, want = from_ticks(ticks(utc) - (LONGLONG)bias * 600000000);

	ok(SystemTimeToTzSpecificLocalTime(tzi, utc, &local), "to local: %lu\n", GetLastError());
	ok(ticks(&local) == ticks(&want), "%s%u-%02u-%02u %02u:%02u:%02u UTC: local %02u:%02u:%02u, want %02u:%02u\n",
	   tzi ? "(tzi) " : "", utc->wYear, utc->wMonth, utc->wDay, utc->wHour, utc->wMinute, utc->wSecond,
	   local.wHour, local.wMinute, local.wSecond, want.wHour, want.wMinute);
	ok(TzSpecificLocalTimeToSystemTime(tzi, &local, &back), "to UTC: %lu\n", GetLastError());
	/* the repeated hour maps back to its daylight instance */
	if (bias == z->bias && ticks(utc) - ticks(&z->off_utc) < 36000000000ull && z->dst_on.month)
		return;
	ok(ticks(&back) == ticks(utc), "%s%02u:%02u local back to %02u:%02u UTC, want %02u:%02u\n", tzi ? "(tzi) " : "",
	   local.wHour, local.wMinute, back.wHour, back.wMinute, utc->wHour, utc->wMinute);
}

static void test_conversions(void)
{
	static const SYSTEMTIME jan = { 2024, 1, 1, 15, 12, 0, 0, 0 }, jul = { 2024, 7, 1, 1, 12, 0, 0, 0 };
	TIME_ZONE_INFORMATION tzi;
	FILETIME ft = { 0x12345678, 0x01d00000 }, lft;
	LONG bias_now;

	GetTimeZoneInformationForYear(2024, NULL, &tzi);
	for (int pass = 0; pass < 2; pass++) {
		const TIME_ZONE_INFORMATION *t = pass ? &tzi : NULL;
		int south = z->dst_on.month > z->dst_off.month;
		LONG winter = z->dst_on.month && south ? z->bias + z->dst_bias : z->bias;
		LONG summer = z->dst_on.month && !south ? z->bias + z->dst_bias : z->bias;

		check_convert(t, &jan, winter);
		check_convert(t, &jul, summer);
		if (z->dst_on.month) {
			SYSTEMTIME before_on = from_ticks(ticks(&z->on_utc) - 10000000);
			SYSTEMTIME before_off = from_ticks(ticks(&z->off_utc) - 10000000);

			check_convert(t, &before_on, z->bias);
			check_convert(t, &z->on_utc, z->bias + z->dst_bias);
			check_convert(t, &before_off, z->bias + z->dst_bias);
			check_convert(t, &z->off_utc, z->bias);
		}
	}

	/* FileTimeToLocalFileTime: the bias in force now, whatever the file's time */
	bias_now = GetTimeZoneInformation(&tzi) == TIME_ZONE_ID_DAYLIGHT ? tzi.Bias + tzi.DaylightBias : tzi.Bias;
	ok(FileTimeToLocalFileTime(&ft, &lft), "FileTimeToLocalFileTime\n");
	ok((LONGLONG)(((ULONGLONG)lft.dwHighDateTime << 32 | lft.dwLowDateTime) -
		      ((ULONGLONG)ft.dwHighDateTime << 32 | ft.dwLowDateTime)) == -(LONGLONG)bias_now * 600000000,
	   "FileTimeToLocalFileTime: not the current bias %ld\n", bias_now);
}

/* msvcrt: _tzset from the Windows zone, localtime/mktime with daylight
 * time; then TZ in the CRT's own syntax. */
static void test_crt(void)
{
	char std[64];
	struct tm *tm;
	time_t jul = 1719835200; /* 2024-07-01 12:00 UTC */
	time_t jan = 1705320000; /* 2024-01-15 12:00 UTC */
	int south = z->dst_on.month > z->dst_off.month, jul_dst = z->dst_on.month && !south;
	LONG jul_bias = jul_dst ? z->bias + z->dst_bias : z->bias;
	LONG jan_bias = z->dst_on.month && south ? z->bias + z->dst_bias : z->bias;
	struct tm copy;

	/* TZ in the Windows environment is the CRT's own syntax: Wine passes
	 * the Linux TZ ("Europe/Paris") on, which would mean nothing here
	 * (ndrun keeps such a TZ out of the Windows environment) */
	if (getenv("TZ"))
		_putenv("TZ=");
	ok(!getenv("TZ"), "TZ still set\n");
	_tzset();
	WideCharToMultiByte(CP_ACP, 0, z->std_name, -1, std, sizeof(std), NULL, NULL);
	ok(_timezone == z->bias * 60, "_timezone %ld\n", _timezone);
	ok(_daylight == (z->dst_on.month != 0), "_daylight %d\n", _daylight);
	if (z->dst_on.month)
		ok(_dstbias == z->dst_bias * 60, "_dstbias %ld\n", _dstbias);
	ok_todo_wine(!strcmp(_tzname[0], std), "_tzname[0] %s\n", _tzname[0]); /* Wine's names, above */

	tm = localtime(&jul);
	ok(tm && tm->tm_hour == (int)(12 - jul_bias / 60) % 24 && tm->tm_min == (int)((-jul_bias) % 60 + 60) % 60 &&
		   tm->tm_isdst == jul_dst,
	   "July: %d:%02d isdst %d\n", tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
	copy = *tm;
	copy.tm_isdst = -1;
	ok(mktime(&copy) == jul, "mktime(July) %lld\n", (long long)mktime(&copy));
	tm = localtime(&jan);
	ok(tm && tm->tm_hour == (int)(12 - jan_bias / 60) % 24 && tm->tm_isdst == (jan_bias != z->bias),
	   "January: %d:%02d isdst %d\n", tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
	copy = *tm;
	copy.tm_isdst = -1;
	ok(mktime(&copy) == jan, "mktime(January) %lld\n", (long long)mktime(&copy));

	/* TZ's syntax: name, hours west, daylight name */
	_putenv("TZ=PST8PDT");
	_tzset();
	ok(_timezone == 8 * 3600 && _daylight, "PST8PDT: %ld %d\n", _timezone, _daylight);
	/* Wine keeps the system zone's _dstbias and cuts the names to two
	 * letters; the documentation says -3600 and the three letters */
	ok_todo_wine(_dstbias == -3600, "PST8PDT: _dstbias %ld\n", _dstbias);
	ok_todo_wine(!strcmp(_tzname[0], "PST") && !strcmp(_tzname[1], "PDT"), "PST8PDT: %s %s\n", _tzname[0],
		     _tzname[1]);
	/* localtime and mktime follow TZ after _tzset, with the United
	 * States' daylight rules (localtime's documentation): 2024's ran
	 * from March 10 to November 3.  (Wine adds the system zone's
	 * daylight bias, as for _dstbias above: none in a zone without
	 * daylight time: todo_wine.) */
	tm = localtime(&jul);
	ok_todo_wine(tm && tm->tm_hour == 5 && tm->tm_min == 0 && tm->tm_isdst == 1, "PST8PDT July: %d:%02d isdst %d\n",
	   tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
	copy = *tm;
	copy.tm_isdst = -1;
	ok(mktime(&copy) == jul, "PST8PDT mktime(July) %lld\n", (long long)mktime(&copy));
	tm = localtime(&jan);
	ok(tm && tm->tm_hour == 4 && tm->tm_isdst == 0, "PST8PDT January: %d:%02d isdst %d\n", tm ? tm->tm_hour : -1,
	   tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
	copy = *tm;
	copy.tm_isdst = -1;
	ok(mktime(&copy) == jan, "PST8PDT mktime(January) %lld\n", (long long)mktime(&copy));
	{
		time_t before = 1710064800 - 1, after = 1710064800; /* 2024-03-10 10:00 UTC: 2:00 PST */

		tm = localtime(&before);
		ok(tm && tm->tm_hour == 1 && tm->tm_min == 59 && !tm->tm_isdst, "before the switch: %d:%02d %d\n",
		   tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
		tm = localtime(&after);
		ok_todo_wine(tm && tm->tm_hour == 3 && tm->tm_min == 0 && tm->tm_isdst, "after the switch: %d:%02d %d\n",
		   tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
	}
	_putenv("TZ=IST-5:30");
	_tzset();
	ok(_timezone == -(5 * 3600 + 1800) && _daylight == 0, "IST-5:30: %ld %d\n", _timezone, _daylight);
	tm = localtime(&jul);
	ok(tm && tm->tm_hour == 17 && tm->tm_min == 30 && tm->tm_isdst == 0, "IST-5:30 July: %d:%02d isdst %d\n",
	   tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1, tm ? tm->tm_isdst : -1);
	_putenv("TZ=");
	_tzset();
	ok(_timezone == z->bias * 60, "TZ removed: _timezone %ld\n", _timezone);
	tm = localtime(&jul);
	ok(tm && tm->tm_hour == (int)(12 - jul_bias / 60) % 24 && tm->tm_isdst == jul_dst, "TZ removed: July %d:%02d\n",
	   tm ? tm->tm_hour : -1, tm ? tm->tm_min : -1);
}

int main(void)
{
	const char *id = getenv("PE_TZ");

	for (size_t i = 0; id && i < sizeof(zones) / sizeof(zones[0]); i++)
		if (!strcmp(zones[i].id, id))
			z = &zones[i];
	if (!ok(z != NULL, "PE_TZ=%s names no zone this test knows\n", id ? id : "(not set)"))
		return test_summary();
	test_information();
	test_conversions();
	test_crt();
	return test_summary();
}
