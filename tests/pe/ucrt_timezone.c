/* ucrtbase's time zone functions (__timezone, __daylight, __dstbias,
 * __tzname behind _timezone & co., _get_timezone, _get_daylight,
 * _get_dstbias, _get_tzname) agree with GetTimeZoneInformation after
 * _tzset, whatever the zone tests.list gives. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>

#include "test.h"

int main(void)
{
	TIME_ZONE_INFORMATION tzi;
	char name[64], want[64];
	long tz = 1, dst = 1;
	int day = -1;
	size_t len = 0;

	/* Wine passes a Linux TZ on into the Windows environment, where it
	 * would be read in the CRT's own syntax */
	if (getenv("TZ"))
		_putenv("TZ=");
	GetTimeZoneInformation(&tzi);
	_tzset();
	ok(_get_timezone(&tz) == 0 && tz == (tzi.Bias + tzi.StandardBias) * 60, "_get_timezone %ld, Bias %ld\n", tz,
	   tzi.Bias);
	ok(_timezone == tz, "_timezone %ld\n", _timezone);
	ok(_get_daylight(&day) == 0 && day == (tzi.DaylightDate.wMonth != 0), "_get_daylight %d\n", day);
	ok(_daylight == day, "_daylight %d\n", _daylight);
	ok(_get_dstbias(&dst) == 0, "_get_dstbias\n");
	if (day)
		ok(dst == (tzi.DaylightBias - tzi.StandardBias) * 60, "_dstbias %ld, DaylightBias %ld\n", dst,
		   tzi.DaylightBias);
	ok(_dstbias == dst, "_dstbias %ld\n", _dstbias);

	WideCharToMultiByte(CP_ACP, 0, tzi.StandardName, -1, want, sizeof(want), NULL, NULL);
	ok(_get_tzname(&len, NULL, 0, 0) == 0 && len == strlen(want) + 1, "_get_tzname size %zu for %s\n", len, want);
	ok(_get_tzname(&len, name, sizeof(name), 0) == 0 && !strcmp(name, want), "_get_tzname(0) %s\n", name);
	ok(!strcmp(_tzname[0], want), "_tzname[0] %s\n", _tzname[0]);
	WideCharToMultiByte(CP_ACP, 0, tzi.DaylightName, -1, want, sizeof(want), NULL, NULL);
	ok(_get_tzname(&len, name, sizeof(name), 1) == 0 && !strcmp(name, want), "_get_tzname(1) %s\n", name);
	ok(_get_tzname(&len, name, 2, 0) == ERANGE, "short buffer\n");
	return test_summary();
}
