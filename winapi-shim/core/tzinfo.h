/* Time zones from the system's tz database (TZ, /etc/localtime,
 * /usr/share/zoneinfo through glibc), in Windows' terms, for kernel32's
 * timezoneapi and the C runtime's _tzset.  docs/timezones.md describes
 * it for users.
 *
 *   Rules: a year's rules are found by asking glibc for the UTC offset
 *   across the year: the offset outside daylight time gives Bias, the
 *   two changes the transition dates, written as Windows writes them
 *   (wYear 0, wMonth, wDayOfWeek, wDay = the week of the month with 5 for
 *   the last, the local time of day: DaylightDate in standard time,
 *   StandardDate in daylight time).  A year with no daylight time (or
 *   only one change) has no dates and DaylightBias 0.
 *   Names: the zone's IANA name (TZ, else /etc/localtime's link, else
 *   /etc/timezone, else UTC) gives the Windows key by CLDR's windowsZones
 *   mapping (core/tzmap_data.h); a zone it lacks is named by its
 *   abbreviation (glibc's tzname). */
#ifndef NDSHIM_TZINFO_H
#define NDSHIM_TZINFO_H

#include <stdbool.h>
#include <stddef.h>

#include <windef.h>
#include <winbase.h>

struct tz_rules {
	LONG bias;          /* minutes: UTC = standard local time + bias */
	LONG daylight_bias; /* minutes added in daylight time (-60); 0 without */
	bool has_dst;
	SYSTEMTIME standard_date, daylight_date; /* zero without daylight time */
};

/* The current zone's rules for year (1601-30827). */
void tz_rules_for_year(int year, struct tz_rules *r);

/* The IANA name of the zone in use (malloc'd; "UTC" when unknown). */
char *tz_iana_name(void);

/* The Windows key name ("W. Europe Standard Time") for an IANA name,
 * NULL when CLDR maps it to none. */
const char *tz_windows_key(const char *iana);

/* The current zone's Windows names: the key (TimeZoneKeyName) and the
 * standard and daylight names, into buffers of size units each
 * (truncated). */
void tz_names(WCHAR *key, WCHAR *std_name, WCHAR *dlt_name, size_t size);

/* Windows' rule evaluation, for any TIME_ZONE_INFORMATION: whether the
 * UTC time (FILETIME ticks) / the local time is daylight time. */
bool tz_is_daylight_utc(const TIME_ZONE_INFORMATION *tzi, LONGLONG utc);
bool tz_is_daylight_local(const TIME_ZONE_INFORMATION *tzi, LONGLONG local);

/* FILETIME ticks <-> SYSTEMTIME (proleptic Gregorian, from 1601). */
LONGLONG tz_ticks_from_date(int year, int month, int day);
void tz_date_from_ticks(LONGLONG ticks, SYSTEMTIME *st);

#endif
