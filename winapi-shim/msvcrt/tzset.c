/* The C runtime's time zone: _tzset and _timezone, _daylight, _dstbias,
 * _tzname (data in msvcrt, functions in the UCRT), as Windows' CRT sets
 * them: from TZ in the Windows environment when it is set (its own
 * syntax, "PST8PDT": three letters, hours west [:mm[:ss]], three letters
 * when daylight time is used), else from GetTimeZoneInformation (the
 * system's zone, core/tzinfo.h).  ndrun's Windows environment has no TZ
 * that names a Linux zone file ("Europe/Paris"): winenv.c keeps that as
 * NDSHIM_UNIX_TZ.  localtime and mktime follow the system's zone
 * (glibc, time.c), or, after a _tzset that read TZ, these variables
 * (time.c's env_local). */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "msvcrt/msvcrt_private.h"

int crt__daylight, crt__timezone, crt__dstbias = -3600;
static char std_name[64] = "", dst_name[64] = "";
char *crt__tzname[2] = { std_name, dst_name };
static pthread_once_t tz_once = PTHREAD_ONCE_INIT;
static volatile bool tz_env; /* the variables come from TZ */

/* TZ's syntax; false when it does not parse. */
static bool from_tz(const char *tz)
{
	const char *p = tz;
	int sign = 1, h = 0, m = 0, s = 0;

	if (strlen(tz) < 3)
		return false;
	memcpy(std_name, tz, 3);
	std_name[3] = 0;
	p += 3;
	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)*p))
		return false;
	h = (int)strtol(p, (char **)&p, 10);
	if (*p == ':') {
		m = (int)strtol(p + 1, (char **)&p, 10);
		if (*p == ':')
			s = (int)strtol(p + 1, (char **)&p, 10);
	}
	crt__timezone = sign * ((h * 60 + m) * 60 + s);
	crt__daylight = isalpha((unsigned char)*p) != 0;
	snprintf(dst_name, sizeof(dst_name), "%.3s", crt__daylight ? p : "");
	crt__dstbias = -3600;
	return true;
}

/* A zone name in the ANSI code page, as the CRT's narrow strings are. */
static void name_from(char out[64], const WCHAR *name)
{
	size_t n = 0;
	ssize_t r;

	while (n < 32 && name[n])
		n++;
	r = utf16_to_cp(cp_ansi(), 0, name, n, out, 63, '?', NULL);
	out[r > 0 ? r : 0] = 0;
}

static void from_system(void)
{
	TIME_ZONE_INFORMATION tzi;

	if (GetTimeZoneInformation(&tzi) == TIME_ZONE_ID_INVALID)
		return;
	crt__timezone = (tzi.Bias + tzi.StandardBias) * 60;
	crt__daylight = tzi.DaylightDate.wMonth != 0;
	crt__dstbias = crt__daylight ? (tzi.DaylightBias - tzi.StandardBias) * 60 : -3600;
	name_from(std_name, tzi.StandardName);
	name_from(dst_name, tzi.DaylightName);
}

static void tzset_once(void)
{
	const char *tz = crt_getenv("TZ");

	tz_env = tz && *tz && from_tz(tz);
	if (!tz_env)
		from_system();
}

bool crt_tz_from_env(void)
{
	pthread_once(&tz_once, tzset_once);
	return tz_env;
}

void __cdecl crt__tzset(void)
{
	/* the first call's work, again: TZ may have changed */
	pthread_once(&tz_once, tzset_once);
	tzset_once();
}

/* The variables are valid before any _tzset, as after the CRT's own
 * first use of local time. */
static void ready(void)
{
	pthread_once(&tz_once, tzset_once);
}

int *__cdecl crt___daylight(void)
{
	ready();
	return &crt__daylight;
}

int *__cdecl crt___timezone(void)
{
	ready();
	return &crt__timezone;
}

int *__cdecl crt___dstbias(void)
{
	ready();
	return &crt__dstbias;
}

char **__cdecl crt___tzname(void)
{
	ready();
	return crt__tzname;
}

static int get_int(int *out, const int *value)
{
	if (!out) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	ready();
	*out = *value;
	return 0;
}

int __cdecl crt__get_timezone(int *seconds)
{
	return get_int(seconds, &crt__timezone);
}

int __cdecl crt__get_daylight(int *hours)
{
	return get_int(hours, &crt__daylight);
}

int __cdecl crt__get_dstbias(int *seconds)
{
	return get_int(seconds, &crt__dstbias);
}

/* _get_tzname: *len = the name's size with its NUL; the name copied
 * when buf is given (ERANGE when it does not fit). */
int __cdecl crt__get_tzname(size_t *len, char *buf, size_t size, int index)
{
	const char *name;

	if (!len || (index != 0 && index != 1) || (buf && !size) || (!buf && size)) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	ready();
	name = crt__tzname[index];
	*len = strlen(name) + 1;
	if (!buf)
		return 0;
	if (size < *len) {
		buf[0] = 0;
		return ERANGE;
	}
	memcpy(buf, name, *len);
	return 0;
}
