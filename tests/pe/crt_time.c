/* time.h: gmtime/_gmtime32 and _mkgmtime (UTC both ways, normalizing the
 * tm), asctime and ctime's 26-character form, strftime, difftime, mktime
 * of localtime's result, the wide forms, _strdate/_strtime, _ftime, and
 * the _s forms' buffer checks.  Local time is checked only against
 * itself (the zone is the machine's). */
#define MINGW_HAS_SECURE_API 1
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/timeb.h>
#include <time.h>
#include <wchar.h>

#include "test.h"

#define T 1234567890 /* Fri Feb 13 23:31:30 2009 UTC */

static int invalid_calls;

static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned int line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
	invalid_calls++;
}

static void utc(void)
{
	time_t t = T;
	__time32_t t32 = T;
	struct tm *tm, copy;
	char buf[64];

	tm = gmtime(&t);
	ok(tm && tm->tm_year == 109 && tm->tm_mon == 1 && tm->tm_mday == 13 && tm->tm_hour == 23 && tm->tm_min == 31 &&
	   tm->tm_sec == 30 && tm->tm_wday == 5 && tm->tm_yday == 43 && tm->tm_isdst == 0, "gmtime\n");
	ok(tm && !strcmp(asctime(tm), "Fri Feb 13 23:31:30 2009\n"), "asctime: %s", tm ? asctime(tm) : "(null)\n");
	ok(tm && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %a %b %j %%", tm) == 33 &&
	   !strcmp(buf, "2009-02-13 23:31:30 Fri Feb 044 %"), "strftime: %s\n", buf);
	ok(tm && strftime(buf, 5, "%Y-%m", tm) == 0, "strftime into too small a buffer\n");
	copy = *tm;
	ok(_mkgmtime(&copy) == T, "_mkgmtime\n");
	tm = _gmtime32(&t32);
	ok(tm && tm->tm_mday == 13 && tm->tm_hour == 23, "_gmtime32\n");
	/* _mkgmtime normalizes: January 32nd is February 1st */
	memset(&copy, 0, sizeof(copy));
	copy.tm_year = 100;
	copy.tm_mday = 32;
	ok(_mkgmtime(&copy) == 949363200 && copy.tm_mon == 1 && copy.tm_mday == 1 && copy.tm_wday == 2 &&
	   copy.tm_yday == 31, "_mkgmtime of Jan 32nd: mon %d mday %d\n", copy.tm_mon, copy.tm_mday);
	ok(_mkgmtime32(&copy) == 949363200, "_mkgmtime32\n");
	errno = 0;
	t = -1;
	ok(gmtime(&t) == NULL && errno == EINVAL, "gmtime(-1): errno %d\n", errno);
	ok(difftime(10, 3) == 7.0 && _difftime32(3, 10) == -7.0, "difftime\n");
}

static void local(void)
{
	time_t t = T, back;
	struct tm *tm = localtime(&t), copy;
	char *c, a[32];
	wchar_t *w;

	ok(tm != NULL, "localtime\n");
	if (!tm)
		return;
	copy = *tm;
	strcpy(a, asctime(&copy));
	c = ctime(&t);
	ok(c && !strcmp(c, a), "ctime \"%s\" is not asctime(localtime) \"%s\"\n", c, a);
	ok(strlen(a) == 25 && a[24] == '\n', "asctime's length\n");
	w = _wctime(&t);
	ok(w && wcslen(w) == 25 && w[0] == (unsigned char)a[0] && w[24] == '\n', "_wctime\n");
	w = _wasctime(&copy);
	ok(w && w[4] == (unsigned char)a[4], "_wasctime\n");
	back = mktime(&copy);
	ok(back == T, "mktime(localtime(t)) is %lld\n", (long long)back);
}

static void now(void)
{
	char d[16], t[16];
	struct __timeb64 tb;
	time_t before, after;

	ok(_strdate(d) == d && strlen(d) == 8 && d[2] == '/' && d[5] == '/', "_strdate: %s\n", d);
	ok(_strtime(t) == t && strlen(t) == 8 && t[2] == ':' && t[5] == ':', "_strtime: %s\n", t);
	before = time(NULL);
	_ftime64(&tb);
	after = time(NULL);
	ok(tb.time >= before && tb.time <= after && tb.millitm < 1000, "_ftime64: %lld\n", (long long)tb.time);
	ok(clock() >= 0, "clock\n");
}

#ifdef _UCRT
static void secure(void)
{
	char small[10], big[32];
	time_t t = T;
	struct tm tm;

	invalid_calls = 0;
	ok(gmtime_s(&tm, &t) == 0 && tm.tm_hour == 23, "gmtime_s\n");
	ok(asctime_s(big, sizeof(big), &tm) == 0 && !strcmp(big, "Fri Feb 13 23:31:30 2009\n"), "asctime_s\n");
	small[0] = 'x';
	ok(asctime_s(small, sizeof(small), &tm) == EINVAL && !small[0], "asctime_s into 10 bytes\n");
	/* the UCRT validates the size with the handler (Wine's only returns) */
	ok_todo_wine(invalid_calls == 1, "asctime_s into 10 bytes: the handler was called %d times\n", invalid_calls);
	ok(ctime_s(big, sizeof(big), &t) == 0 && strlen(big) == 25, "ctime_s\n");
	ok(_strdate_s(big, sizeof(big)) == 0 && strlen(big) == 8, "_strdate_s\n");
	ok(_strtime_s(small, 5) == ERANGE, "_strtime_s into 5\n");
}
#endif

int main(void)
{
	_set_invalid_parameter_handler(on_invalid);
	utc();
	local();
	now();
#ifdef _UCRT
	secure();
#endif
	return test_summary();
}
