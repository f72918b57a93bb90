/* time functions: time_t is 64-bit in msvcrt's x64 "time" and in the
 * *64 names; struct tm is the same nine ints as C's. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msvcrt/msvcrt_private.h"

crt_time64 __cdecl crt__time64(crt_time64 *t)
{
	crt_time64 now = time(NULL);
	if (t)
		*t = now;
	return now;
}

int __cdecl crt__time32(int *t)
{
	int now = (int)time(NULL);
	if (t)
		*t = now;
	return now;
}

/* Milliseconds (CLOCKS_PER_SEC is 1000) since the process started:
 * wall time, as msvcrt's clock() is, not CPU time. */
static struct timespec start_time;

__attribute__((constructor)) static void init_clock(void)
{
	clock_gettime(CLOCK_MONOTONIC, &start_time);
}

int __cdecl crt_clock(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start_time.tv_sec) * 1000 + (now.tv_nsec - start_time.tv_nsec) / 1000000;
}

static void to_crt_tm(const struct tm *in, struct crt_tm *out)
{
	out->tm_sec = in->tm_sec;
	out->tm_min = in->tm_min;
	out->tm_hour = in->tm_hour;
	out->tm_mday = in->tm_mday;
	out->tm_mon = in->tm_mon;
	out->tm_year = in->tm_year;
	out->tm_wday = in->tm_wday;
	out->tm_yday = in->tm_yday;
	out->tm_isdst = in->tm_isdst;
}

static void from_crt_tm(const struct crt_tm *in, struct tm *out)
{
	memset(out, 0, sizeof(*out));
	out->tm_sec = in->tm_sec;
	out->tm_min = in->tm_min;
	out->tm_hour = in->tm_hour;
	out->tm_mday = in->tm_mday;
	out->tm_mon = in->tm_mon;
	out->tm_year = in->tm_year;
	out->tm_wday = in->tm_wday;
	out->tm_yday = in->tm_yday;
	out->tm_isdst = in->tm_isdst;
}

/* One buffer per thread, as msvcrt keeps it in its per-thread data. */
static __thread struct crt_tm tm_buf;

/* ---- local time under a TZ the program set ---------------------------------- */

/* The day of the month of month mon's n-th Sunday (n = 5: the last). */
static int sunday(int year, int mon, int n)
{
	struct tm first = { .tm_year = year, .tm_mon = mon, .tm_mday = 1 };
	time_t t = timegm(&first);
	int days, d;

	gmtime_r(&t, &first);
	d = 1 + (7 - first.tm_wday) % 7 + 7 * (n - 1);
	year += 1900;
	days = mon == 1 ? 28 + (year % 4 == 0 && (year % 100 || year % 400 == 0)) :
			  30 + ((mon + (mon > 6)) % 2 == 0);
	while (d > days)
		d -= 7;
	return d;
}

/* Whether std, a local standard time (seconds, as if UTC), is in daylight
 * time by the United States' rules, which the CRT documents that it
 * assumes when TZ is set: from 2:00 standard time on the second Sunday of
 * March to 2:00 daylight time on the first Sunday of November since 2007,
 * the first Sunday of April to the last Sunday of October before. */
static bool us_daylight(time_t std)
{
	struct tm tm, on = { 0 }, off = { 0 };

	gmtime_r(&std, &tm);
	on.tm_year = off.tm_year = tm.tm_year;
	on.tm_hour = off.tm_hour = 2;
	on.tm_mon = tm.tm_year >= 107 ? 2 : 3;
	off.tm_mon = tm.tm_year >= 107 ? 10 : 9;
	on.tm_mday = sunday(tm.tm_year, on.tm_mon, tm.tm_year >= 107 ? 2 : 1);
	off.tm_mday = sunday(tm.tm_year, off.tm_mon, tm.tm_year >= 107 ? 1 : 5);
	return std >= timegm(&on) && std < timegm(&off) + crt__dstbias;
}

/* UTC t as local time by _timezone, _daylight and _dstbias. */
static void env_local(time_t t, struct tm *tm)
{
	time_t std = t - crt__timezone;
	bool dst = crt__daylight && us_daylight(std);

	if (dst)
		std -= crt__dstbias;
	gmtime_r(&std, tm);
	tm->tm_isdst = dst;
}

/* mktime's inverse of env_local: tm_isdst > 0 says daylight time, 0
 * standard time, < 0 asks the rules. */
static time_t env_mktime(struct tm *tm)
{
	struct tm copy = *tm;
	time_t local = timegm(&copy), utc = local + crt__timezone;

	if (tm->tm_isdst > 0 || (tm->tm_isdst < 0 && crt__daylight && us_daylight(local)))
		utc += crt__dstbias;
	env_local(utc, tm);
	return utc;
}

static struct crt_tm *convert(const crt_time64 *t, int local)
{
	struct tm tm;
	/* msvcrt refuses negative times and years after 3000 */
	if (!t || *t < 0 || *t > 32535215999LL) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	time_t tt = *t;
	if (local && crt_tz_from_env())
		env_local(tt, &tm);
	else if (!(local ? localtime_r(&tt, &tm) : gmtime_r(&tt, &tm)))
		return NULL;
	to_crt_tm(&tm, &tm_buf);
	return &tm_buf;
}

struct crt_tm *__cdecl crt__localtime64(const crt_time64 *t)
{
	return convert(t, 1);
}

struct crt_tm *__cdecl crt__gmtime64(const crt_time64 *t)
{
	return convert(t, 0);
}

crt_time64 __cdecl crt__mktime64(struct crt_tm *ctm)
{
	struct tm tm;
	from_crt_tm(ctm, &tm);
	time_t r = crt_tz_from_env() ? env_mktime(&tm) : mktime(&tm);
	if (r == (time_t)-1 || r < 0)
		return -1;
	to_crt_tm(&tm, ctm);
	return r;
}

double __cdecl crt__difftime64(crt_time64 a, crt_time64 b)
{
	return (double)(a - b);
}

/* msvcrt's "C" locale spells %c %x %X numerically and knows the '#'
 * flag (alternate form, dropped here); the rest is glibc's C locale. */
size_t __cdecl crt_strftime(char *buf, size_t max, const char *fmt, const struct crt_tm *ctm)
{
	size_t len = strlen(fmt);
	char *f = malloc(len * 8 + 1);
	if (!f)
		return 0;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (fmt[i] != '%' || i + 1 >= len) {
			f[o++] = fmt[i];
			continue;
		}
		i++;
		if (fmt[i] == '#' && i + 1 < len)
			i++;
		const char *rep = NULL;
		switch (fmt[i]) {
		case 'c': rep = "%m/%d/%y %H:%M:%S"; break;
		case 'x': rep = "%m/%d/%y"; break;
		case 'X': rep = "%H:%M:%S"; break;
		}
		if (rep) {
			strcpy(f + o, rep);
			o += strlen(rep);
		} else {
			f[o++] = '%';
			f[o++] = fmt[i];
		}
	}
	f[o] = 0;
	struct tm tm;
	from_crt_tm(ctm, &tm);
	size_t r = max ? strftime(buf, max, f, &tm) : 0;
	free(f);
	if (!r && max)
		buf[0] = 0;
	return r;
}

size_t __cdecl crt_wcsftime(WCHAR *buf, size_t max, const WCHAR *fmt, const struct crt_tm *tm)
{
	char *f = crt_wide_to_utf8_alloc(fmt);
	size_t cap = max * 4 + 1;
	char *out = malloc(cap);
	size_t r = 0;
	if (f && out && crt_strftime(out, cap, f, tm)) {
		size_t len = strlen(out);
		size_t need = crt_utf8_to_wide(out, len, NULL, 0);
		if (need < max) {
			crt_utf8_to_wide(out, len, buf, need);
			buf[need] = 0;
			r = need;
		}
	}
	if (!r && max)
		buf[0] = 0;
	free(f);
	free(out);
	return r;
}

/* The time-zone globals: seconds west of UTC, whether the zone has a
 * daylight-saving rule, and the two zone names, from the Linux zone
 * (TZ or /etc/localtime) that localtime also uses. */
/* The _s forms: 0 or an errno value, the result in the caller's tm
 * (all 0xff bytes when there is none). */
static int tm_s(struct crt_tm *out, const crt_time64 *t, struct crt_tm *(__cdecl *to_tm)(const crt_time64 *))
{
	struct crt_tm *r;

	if (!out || !t) {
		if (out)
			memset(out, 0xff, sizeof(*out));
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	r = to_tm(t);
	if (!r) {
		memset(out, 0xff, sizeof(*out));
		return EINVAL;
	}
	*out = *r;
	return 0;
}

int __cdecl crt__localtime64_s(struct crt_tm *out, const crt_time64 *t)
{
	return tm_s(out, t, crt__localtime64);
}

int __cdecl crt__gmtime64_s(struct crt_tm *out, const crt_time64 *t)
{
	return tm_s(out, t, crt__gmtime64);
}

/* C11 timespec_get with TIME_UTC (1): the one base the CRT knows. */
int __cdecl crt__timespec64_get(struct crt_timespec64 *ts, int base)
{
	struct timespec now;

	if (!ts || base != 1) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	ts->tv_sec = now.tv_sec;
	ts->tv_nsec = (int)now.tv_nsec;
	return base;
}

/* asctime's fixed form, "Wed Jan 02 02:03:55 1980\n", into a per-thread
 * buffer as the CRT keeps one per thread; NULL with EINVAL for a tm out
 * of range. */
static __thread char asc_buf[26];

char *__cdecl crt_asctime(const struct crt_tm *tm)
{
	static const char days[] = "SunMonTueWedThuFriSat", months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

	if (!tm || tm->tm_wday < 0 || tm->tm_wday > 6 || tm->tm_mon < 0 || tm->tm_mon > 11 || tm->tm_year < 0 ||
	    tm->tm_year > 8099) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	snprintf(asc_buf, sizeof(asc_buf), "%.3s %.3s %02u %02u:%02u:%02u %04u\n", days + 3 * tm->tm_wday,
		 months + 3 * tm->tm_mon, (unsigned int)tm->tm_mday % 100, (unsigned int)tm->tm_hour % 100,
		 (unsigned int)tm->tm_min % 100, (unsigned int)tm->tm_sec % 100, (unsigned int)tm->tm_year + 1900);
	return asc_buf;
}

char *__cdecl crt__ctime64(const crt_time64 *t)
{
	struct crt_tm *tm = t ? crt__localtime64(t) : NULL;

	if (!tm) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	return crt_asctime(tm);
}
