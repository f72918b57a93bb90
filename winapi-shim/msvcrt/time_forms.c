/* time.h's other forms, made of time.c's functions: the 32-bit time_t
 * ones (_gmtime32 ... _difftime32), the wide ones (_wctime, _wasctime),
 * the _s ones (a caller's buffer, errno values returned), _mkgmtime
 * (a UTC tm to a time), _ftime (seconds and milliseconds, with the time
 * zone time.c reports) and _strdate/_strtime ("MM/DD/YY", "HH:MM:SS"). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "msvcrt/msvcrt_private.h"

/* ---- 32-bit times ------------------------------------------------------------ */

static int widen(const int *t, crt_time64 *out)
{
	if (!t) {
		crt_set_errno(EINVAL);
		return 0;
	}
	*out = *t;
	return 1;
}

struct crt_tm *__cdecl crt__gmtime32(const int *t)
{
	crt_time64 w;

	return widen(t, &w) ? crt__gmtime64(&w) : NULL;
}

struct crt_tm *__cdecl crt__localtime32(const int *t)
{
	crt_time64 w;

	return widen(t, &w) ? crt__localtime64(&w) : NULL;
}

char *__cdecl crt__ctime32(const int *t)
{
	crt_time64 w;

	return widen(t, &w) ? crt__ctime64(&w) : NULL;
}

/* -1 (errno EINVAL? no: msvcrt leaves it) past 2038 */
int __cdecl crt__mktime32(struct crt_tm *tm)
{
	crt_time64 r = crt__mktime64(tm);

	return r > 0x7fffffff ? -1 : (int)r;
}

double __cdecl crt__difftime32(int a, int b)
{
	return crt__difftime64(a, b);
}

int __cdecl crt__gmtime32_s(struct crt_tm *out, const int *t)
{
	crt_time64 w;

	if (!t) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	w = *t;
	return crt__gmtime64_s(out, &w);
}

int __cdecl crt__localtime32_s(struct crt_tm *out, const int *t)
{
	crt_time64 w;

	if (!t) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	w = *t;
	return crt__localtime64_s(out, &w);
}

/* ---- _mkgmtime: the tm is UTC ------------------------------------------------------ */

crt_time64 __cdecl crt__mkgmtime64(struct crt_tm *ctm)
{
	struct tm tm;
	time_t r;

	if (!ctm) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_sec = ctm->tm_sec;
	tm.tm_min = ctm->tm_min;
	tm.tm_hour = ctm->tm_hour;
	tm.tm_mday = ctm->tm_mday;
	tm.tm_mon = ctm->tm_mon;
	tm.tm_year = ctm->tm_year;
	r = timegm(&tm);
	/* the CRT's range: 1970 to 3000 */
	if (r == (time_t)-1 || r < 0 || r > 32535215999LL)
		return -1;
	ctm->tm_sec = tm.tm_sec;
	ctm->tm_min = tm.tm_min;
	ctm->tm_hour = tm.tm_hour;
	ctm->tm_mday = tm.tm_mday;
	ctm->tm_mon = tm.tm_mon;
	ctm->tm_year = tm.tm_year;
	ctm->tm_wday = tm.tm_wday;
	ctm->tm_yday = tm.tm_yday;
	ctm->tm_isdst = 0;
	return r;
}

int __cdecl crt__mkgmtime32(struct crt_tm *tm)
{
	crt_time64 r = crt__mkgmtime64(tm);

	return r > 0x7fffffff ? -1 : (int)r;
}

/* ---- text ------------------------------------------------------------------------ */

static WCHAR *widen_text(const char *s)
{
	static __thread WCHAR buf[32];
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; s[i] && i < 31; i++)
		buf[i] = (unsigned char)s[i];
	buf[i] = 0;
	return buf;
}

WCHAR *__cdecl crt__wasctime(const struct crt_tm *tm)
{
	return widen_text(crt_asctime(tm));
}

WCHAR *__cdecl crt__wctime64(const crt_time64 *t)
{
	return widen_text(crt__ctime64(t));
}

WCHAR *__cdecl crt__wctime32(const int *t)
{
	return widen_text(crt__ctime32(t));
}

/* The _s forms: 26 characters at least, else EINVAL returned (and the
 * handler called) with the buffer emptied, as documented. */
static int text_s(void *buf, size_t size, int wide, const char *text)
{
	if (!buf || !size) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	if (wide)
		((WCHAR *)buf)[0] = 0;
	else
		((char *)buf)[0] = 0;
	if (size < 26) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	if (!text) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	for (size_t i = 0; i < 26; i++) {
		if (wide)
			((WCHAR *)buf)[i] = (unsigned char)text[i];
		else
			((char *)buf)[i] = text[i];
	}
	return 0;
}

int __cdecl crt_asctime_s(char *buf, size_t size, const struct crt_tm *tm)
{
	return text_s(buf, size, 0, tm ? crt_asctime(tm) : NULL);
}

int __cdecl crt__wasctime_s(WCHAR *buf, size_t size, const struct crt_tm *tm)
{
	return text_s(buf, size, 1, tm ? crt_asctime(tm) : NULL);
}

int __cdecl crt__ctime64_s(char *buf, size_t size, const crt_time64 *t)
{
	return text_s(buf, size, 0, t ? crt__ctime64(t) : NULL);
}

int __cdecl crt__ctime32_s(char *buf, size_t size, const int *t)
{
	return text_s(buf, size, 0, t ? crt__ctime32(t) : NULL);
}

int __cdecl crt__wctime64_s(WCHAR *buf, size_t size, const crt_time64 *t)
{
	return text_s(buf, size, 1, t ? crt__ctime64(t) : NULL);
}

int __cdecl crt__wctime32_s(WCHAR *buf, size_t size, const int *t)
{
	return text_s(buf, size, 1, t ? crt__ctime32(t) : NULL);
}

/* ---- _strdate, _strtime ---------------------------------------------------------- */

static void now_tm(struct tm *tm)
{
	time_t t = time(NULL);

	localtime_r(&t, tm);
}

char *__cdecl crt__strdate(char *buf)
{
	struct tm tm;

	now_tm(&tm);
	snprintf(buf, 9, "%02u/%02u/%02u", (unsigned)(tm.tm_mon + 1) % 100, (unsigned)tm.tm_mday % 100,
		 (unsigned)tm.tm_year % 100);
	return buf;
}

char *__cdecl crt__strtime(char *buf)
{
	struct tm tm;

	now_tm(&tm);
	snprintf(buf, 9, "%02u:%02u:%02u", (unsigned)tm.tm_hour % 100, (unsigned)tm.tm_min % 100,
		 (unsigned)tm.tm_sec % 100);
	return buf;
}

WCHAR *__cdecl crt__wstrdate(WCHAR *buf)
{
	char a[9];

	crt__strdate(a);
	for (int i = 0; i < 9; i++)
		buf[i] = (unsigned char)a[i];
	return buf;
}

WCHAR *__cdecl crt__wstrtime(WCHAR *buf)
{
	char a[9];

	crt__strtime(a);
	for (int i = 0; i < 9; i++)
		buf[i] = (unsigned char)a[i];
	return buf;
}

static int date_s(void *buf, size_t size, int wide, int date)
{
	if (!buf || !size) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	if (size < 9) {
		if (wide)
			((WCHAR *)buf)[0] = 0;
		else
			((char *)buf)[0] = 0;
		crt_set_errno(ERANGE);
		crt_invalid_parameter_noinfo();
		return ERANGE;
	}
	if (wide)
		date ? crt__wstrdate(buf) : crt__wstrtime(buf);
	else
		date ? crt__strdate(buf) : crt__strtime(buf);
	return 0;
}

int __cdecl crt__strdate_s(char *buf, size_t size)
{
	return date_s(buf, size, 0, 1);
}

int __cdecl crt__strtime_s(char *buf, size_t size)
{
	return date_s(buf, size, 0, 0);
}

int __cdecl crt__wstrdate_s(WCHAR *buf, size_t size)
{
	return date_s(buf, size, 1, 1);
}

int __cdecl crt__wstrtime_s(WCHAR *buf, size_t size)
{
	return date_s(buf, size, 1, 0);
}

/* ---- _ftime ---------------------------------------------------------------------- */

struct crt_timeb64 {
	int64_t time;
	unsigned short millitm;
	short timezone;
	short dstflag;
};
_Static_assert(sizeof(struct crt_timeb64) == 16, "struct __timeb64");

struct crt_timeb32 {
	int time;
	unsigned short millitm;
	short timezone;
	short dstflag;
};
_Static_assert(sizeof(struct crt_timeb32) == 12, "struct __timeb32");

/* timezone: minutes west of UTC, and dstflag, as time.c has them */
static void ftime_now(int64_t *sec, unsigned short *ms, short *tz, short *dst)
{
	struct timespec ts;
	int bias = 0, daylight = 0;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	crt__tzset();
	crt__get_timezone(&bias);
	crt__get_daylight(&daylight);
	*sec = ts.tv_sec;
	*ms = (unsigned short)(ts.tv_nsec / 1000000);
	*tz = (short)(bias / 60);
	localtime_r(&ts.tv_sec, &tm);
	*dst = daylight && tm.tm_isdst > 0;
}

void __cdecl crt__ftime64(struct crt_timeb64 *tb)
{
	ftime_now(&tb->time, &tb->millitm, &tb->timezone, &tb->dstflag);
}

void __cdecl crt__ftime32(struct crt_timeb32 *tb)
{
	int64_t s;

	ftime_now(&s, &tb->millitm, &tb->timezone, &tb->dstflag);
	tb->time = (int)s;
}

int __cdecl crt__ftime64_s(struct crt_timeb64 *tb)
{
	if (!tb) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	crt__ftime64(tb);
	return 0;
}

int __cdecl crt__ftime32_s(struct crt_timeb32 *tb)
{
	if (!tb) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	crt__ftime32(tb);
	return 0;
}
