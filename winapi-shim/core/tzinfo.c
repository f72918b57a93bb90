#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/tzinfo.h"

#define TICKS_PER_SEC 10000000ll
#define TICKS_PER_MIN (60 * TICKS_PER_SEC)
#define TICKS_PER_DAY (86400 * TICKS_PER_SEC)

struct tz_map_entry {
	const char *iana;
	unsigned short name;
};
#include "core/tzmap_data.h"

/* ---- calendar ------------------------------------------------------------ */

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100) || y % 400 == 0;
}

static int month_days(int y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return days[m - 1] + (m == 2 && leap(y));
}

/* Days since 1601-01-01 (a Monday).  Years counted from March 1600 put
 * each leap day last, so the days before a month follow one formula:
 * (153 m + 2) / 5 for m months after March; 1600-03-01 is 306 days
 * before 1601-01-01. */
static LONGLONG days_from(int year, int month, int day)
{
	LONGLONG y = year - 1600 - (month < 3);
	int m = month < 3 ? month + 9 : month - 3; /* March = 0 */

	return y * 365 + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + day - 1 - 306;
}

LONGLONG tz_ticks_from_date(int year, int month, int day)
{
	return days_from(year, month, day) * TICKS_PER_DAY;
}

void tz_date_from_ticks(LONGLONG ticks, SYSTEMTIME *st)
{
	LONGLONG days = ticks / TICKS_PER_DAY, rem = ticks % TICKS_PER_DAY;
	int y = 1601 + (int)(days / 366), m = 1;

	while (days_from(y + 1, 1, 1) <= days)
		y++;
	while (m < 12 && days_from(y, m + 1, 1) <= days)
		m++;
	st->wYear = (WORD)y;
	st->wMonth = (WORD)m;
	st->wDay = (WORD)(days - days_from(y, m, 1) + 1);
	st->wDayOfWeek = (WORD)((days + 1) % 7);
	st->wHour = (WORD)(rem / (3600 * TICKS_PER_SEC));
	st->wMinute = (WORD)(rem / TICKS_PER_MIN % 60);
	st->wSecond = (WORD)(rem / TICKS_PER_SEC % 60);
	st->wMilliseconds = (WORD)(rem / 10000 % 1000);
}

/* ---- rules from the tz database ---------------------------------------- */

/* A transition instant (Linux seconds) seen on the local clock with
 * offset off (seconds east), in Windows' rule form. */
static void rule_date(time_t t, long off, SYSTEMTIME *st)
{
	time_t local = t + off;
	struct tm tm;

	gmtime_r(&local, &tm);
	memset(st, 0, sizeof(*st));
	st->wMonth = (WORD)(tm.tm_mon + 1);
	st->wDayOfWeek = (WORD)tm.tm_wday;
	st->wDay = (WORD)(tm.tm_mday + 7 > month_days(tm.tm_year + 1900, tm.tm_mon + 1) ? 5 : (tm.tm_mday - 1) / 7 + 1);
	st->wHour = (WORD)tm.tm_hour;
	st->wMinute = (WORD)tm.tm_min;
	st->wSecond = (WORD)tm.tm_sec;
}

static void probe(time_t t, long *off, int *dst)
{
	struct tm tm;

	if (!localtime_r(&t, &tm)) {
		*off = 0;
		*dst = 0;
		return;
	}
	*off = tm.tm_gmtoff;
	*dst = tm.tm_isdst > 0;
}

void tz_rules_for_year(int year, struct tz_rules *r)
{
	struct tm jan = { .tm_year = year - 1900, .tm_mday = 1 };
	time_t start = timegm(&jan), end, t, into_dst = 0, out_of_dst = 0;
	long off, std_off = LONG_MIN, dst_off = LONG_MIN, o2;
	int dst, d2;

	jan.tm_year++;
	end = timegm(&jan);
	memset(r, 0, sizeof(*r));
	tzset();
	probe(start, &off, &dst);
	/* a day at a time; each change found to the second */
	for (t = start; t < end; t += 86400) {
		time_t lo = t, hi = t + 86400 < end ? t + 86400 : end;

		probe(lo, &off, &dst);
		if (dst)
			dst_off = off;
		else
			std_off = off;
		probe(hi, &o2, &d2);
		if (o2 == off && d2 == dst)
			continue;
		while (hi - lo > 1) {
			time_t mid = lo + (hi - lo) / 2;
			long om;
			int dm;

			probe(mid, &om, &dm);
			if (om == off && dm == dst)
				lo = mid;
			else
				hi = mid;
		}
		if (d2 && !dst)
			into_dst = hi;
		else if (!d2 && dst)
			out_of_dst = hi;
	}
	probe(end - 1, &off, &dst);
	if (std_off == LONG_MIN)
		std_off = off; /* daylight time all year: no rule */
	r->bias = (LONG)(-std_off / 60);
	if (!into_dst || !out_of_dst || dst_off == LONG_MIN)
		return;
	r->has_dst = true;
	r->daylight_bias = (LONG)(-(dst_off - std_off) / 60);
	rule_date(into_dst, std_off, &r->daylight_date);
	rule_date(out_of_dst, dst_off, &r->standard_date);
}

/* ---- names --------------------------------------------------------------- */

/* The part of a zoneinfo path after ".../zoneinfo/", or NULL. */
static const char *after_zoneinfo(const char *path)
{
	const char *z = strstr(path, "zoneinfo/");

	return z ? z + 9 : NULL;
}

char *tz_iana_name(void)
{
	const char *tz = getenv("TZ"), *name;
	char link[PATH_MAX], line[256];
	ssize_t n;
	FILE *f;

	if (tz && *tz) {
		if (*tz == ':')
			tz++;
		if (*tz == '/' && (name = after_zoneinfo(tz)))
			return strdup(name);
		return strdup(*tz ? tz : "UTC");
	}
	if ((n = readlink("/etc/localtime", link, sizeof(link) - 1)) > 0) {
		link[n] = 0;
		if ((name = after_zoneinfo(link)))
			return strdup(name);
	}
	if ((f = fopen("/etc/timezone", "re"))) {
		char *ok = fgets(line, sizeof(line), f);

		fclose(f);
		if (ok) {
			line[strcspn(line, " \t\r\n")] = 0;
			if (*line)
				return strdup(line);
		}
	}
	return strdup("UTC");
}

static int map_cmp(const void *key, const void *entry)
{
	return strcmp(key, ((const struct tz_map_entry *)entry)->iana);
}

const char *tz_windows_key(const char *iana)
{
	const struct tz_map_entry *e =
		bsearch(iana, tz_map, sizeof(tz_map) / sizeof(tz_map[0]), sizeof(tz_map[0]), map_cmp);

	return e ? tz_keys[e->name] : NULL;
}

static void put_name(WCHAR *out, size_t size, const char *s)
{
	size_t i = 0;

	for (; s[i] && i + 1 < size; i++)
		out[i] = (unsigned char)s[i];
	out[i] = 0;
}

void tz_names(WCHAR *key, WCHAR *std_name, WCHAR *dlt_name, size_t size)
{
	char *iana = tz_iana_name(), dlt[64];
	const char *k = iana ? tz_windows_key(iana) : NULL, *std, *p;

	if (!k) {
		/* no Windows zone: the zone's abbreviations */
		tzset();
		put_name(key, size, tzname[0]);
		put_name(std_name, size, tzname[0]);
		put_name(dlt_name, size, tzname[1]);
		free(iana);
		return;
	}
	/* Windows' display names: "UTC" is "Coordinated Universal Time";
	 * daylight names say "Daylight" where the key says "Standard" */
	std = !strcmp(k, "UTC") ? "Coordinated Universal Time" : k;
	snprintf(dlt, sizeof(dlt), "%s", std);
	if ((p = strstr(k, "Standard Time")) && std == k)
		snprintf(dlt, sizeof(dlt), "%.*sDaylight Time%s", (int)(p - k), k, p + 13);
	put_name(key, size, k);
	put_name(std_name, size, std);
	put_name(dlt_name, size, dlt);
	free(iana);
}

/* ---- Windows' evaluation of a rule -------------------------------------- */

/* The local time (ticks) a rule names in year. */
static LONGLONG rule_local(const SYSTEMTIME *r, int year)
{
	int day = r->wDay;

	if (!r->wYear) {
		int first = (int)((days_from(year, r->wMonth, 1) + 1) % 7);

		day = 1 + (r->wDayOfWeek - first + 7) % 7 + (r->wDay - 1) * 7;
		while (day > month_days(year, r->wMonth))
			day -= 7;
	}
	return tz_ticks_from_date(year, r->wMonth, day) +
	       ((r->wHour * 60ll + r->wMinute) * 60 + r->wSecond) * TICKS_PER_SEC + r->wMilliseconds * 10000ll;
}

static bool has_rules(const TIME_ZONE_INFORMATION *tzi)
{
	return tzi->DaylightDate.wMonth && tzi->StandardDate.wMonth;
}

bool tz_is_daylight_utc(const TIME_ZONE_INFORMATION *tzi, LONGLONG utc)
{
	SYSTEMTIME st;
	LONGLONG on, off;

	if (!has_rules(tzi))
		return false;
	tz_date_from_ticks(utc - tzi->Bias * TICKS_PER_MIN, &st);
	on = rule_local(&tzi->DaylightDate, st.wYear) + (tzi->Bias + tzi->StandardBias) * TICKS_PER_MIN;
	off = rule_local(&tzi->StandardDate, st.wYear) + (tzi->Bias + tzi->DaylightBias) * TICKS_PER_MIN;
	return on < off ? utc >= on && utc < off : utc >= on || utc < off;
}

bool tz_is_daylight_local(const TIME_ZONE_INFORMATION *tzi, LONGLONG local)
{
	SYSTEMTIME st;
	LONGLONG on, off;

	if (!has_rules(tzi))
		return false;
	tz_date_from_ticks(local, &st);
	/* as written: the start in standard time, the end in daylight time
	 * (the repeated hour counts as daylight time) */
	on = rule_local(&tzi->DaylightDate, st.wYear);
	off = rule_local(&tzi->StandardDate, st.wYear);
	return on < off ? local >= on && local < off : local >= on || local < off;
}
