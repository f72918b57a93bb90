/* The tz rules in Windows' terms (core/tzinfo.h): each zone's Bias, the
 * daylight rule of a year from the tz database (northern, southern, none,
 * half-hour, a year before the US rules changed), the Windows names from
 * CLDR's mapping, Windows' rule evaluation at the transitions, and the
 * calendar. */
#include <time.h>

#include "k32_test.h"
#include "core/tzinfo.h"

static void use_zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void expect_rule(const SYSTEMTIME *st, int month, int dow, int week, int hour)
{
	if (st->wYear || st->wMonth != month || st->wDayOfWeek != dow || st->wDay != week || st->wHour != hour ||
	    st->wMinute || st->wSecond)
		fail_msg("rule %u/%u/%u/%u %u:%u, want %d/%d/%d %d:00", st->wYear, st->wMonth, st->wDayOfWeek, st->wDay,
			 st->wHour, st->wMinute, month, dow, week, hour);
}

static void test_rules(void **state)
{
	struct tz_rules r;

	use_zone("Europe/Paris");
	tz_rules_for_year(2024, &r);
	assert_int_equal(r.bias, -60);
	assert_true(r.has_dst);
	assert_int_equal(r.daylight_bias, -60);
	expect_rule(&r.daylight_date, 3, 0, 5, 2);
	expect_rule(&r.standard_date, 10, 0, 5, 3);
	/* 2023: the last Sunday of March is the 26th, still week 5 */
	tz_rules_for_year(2023, &r);
	expect_rule(&r.daylight_date, 3, 0, 5, 2);

	use_zone("America/New_York");
	tz_rules_for_year(2024, &r);
	assert_int_equal(r.bias, 300);
	expect_rule(&r.daylight_date, 3, 0, 2, 2);
	expect_rule(&r.standard_date, 11, 0, 1, 2);
	/* before 2007: first Sunday of April to last Sunday of October */
	tz_rules_for_year(2000, &r);
	expect_rule(&r.daylight_date, 4, 0, 1, 2);
	expect_rule(&r.standard_date, 10, 0, 5, 2);

	use_zone("Australia/Sydney");
	tz_rules_for_year(2024, &r);
	assert_int_equal(r.bias, -600);
	expect_rule(&r.daylight_date, 10, 0, 1, 2);
	expect_rule(&r.standard_date, 4, 0, 1, 3);

	use_zone("Asia/Kolkata");
	tz_rules_for_year(2024, &r);
	assert_int_equal(r.bias, -330);
	assert_false(r.has_dst);
	assert_int_equal(r.daylight_bias, 0);
	assert_int_equal(r.daylight_date.wMonth, 0);

	use_zone("UTC");
	tz_rules_for_year(2024, &r);
	assert_int_equal(r.bias, 0);
	assert_false(r.has_dst);
}

static void test_names(void **state)
{
	WCHAR key[128], std[32], dlt[32];
	char *iana;

	assert_string_equal(tz_windows_key("Europe/Paris"), "Romance Standard Time");
	assert_string_equal(tz_windows_key("Asia/Kolkata"), "India Standard Time");
	assert_string_equal(tz_windows_key("Asia/Calcutta"), "India Standard Time");
	assert_string_equal(tz_windows_key("Etc/UTC"), "UTC");
	assert_null(tz_windows_key("No/Such_Zone"));

	use_zone("Australia/Sydney");
	iana = tz_iana_name();
	assert_string_equal(iana, "Australia/Sydney");
	free(iana);
	tz_names(key, std, dlt, 32);
	assert_wstr_equal(key, u"AUS Eastern Standard Time");
	assert_wstr_equal(std, u"AUS Eastern Standard Time");
	assert_wstr_equal(dlt, u"AUS Eastern Daylight Time");
	use_zone(":/usr/share/zoneinfo/Europe/Paris");
	iana = tz_iana_name();
	assert_string_equal(iana, "Europe/Paris");
	free(iana);
	use_zone("UTC");
	tz_names(key, std, dlt, 32);
	assert_wstr_equal(key, u"UTC");
	assert_wstr_equal(std, u"Coordinated Universal Time");
	/* a POSIX rule no mapping knows: its abbreviations */
	use_zone("ABC-3DEF,M3.5.0,M10.5.0");
	tz_names(key, std, dlt, 32);
	assert_wstr_equal(std, u"ABC");
	assert_wstr_equal(dlt, u"DEF");
}

static LONGLONG at(int y, int mo, int d, int h, int mi)
{
	return tz_ticks_from_date(y, mo, d) + (h * 60ll + mi) * 600000000ll;
}

static void test_evaluation(void **state)
{
	TIME_ZONE_INFORMATION paris = { .Bias = -60, .DaylightBias = -60 }, sydney = { .Bias = -600, .DaylightBias = -60 };

	paris.DaylightDate = (SYSTEMTIME){ 0, 3, 0, 5, 2, 0, 0, 0 };
	paris.StandardDate = (SYSTEMTIME){ 0, 10, 0, 5, 3, 0, 0, 0 };
	sydney.DaylightDate = (SYSTEMTIME){ 0, 10, 0, 1, 2, 0, 0, 0 };
	sydney.StandardDate = (SYSTEMTIME){ 0, 4, 0, 1, 3, 0, 0, 0 };
	/* Paris 2024: daylight from 2024-03-31 01:00 UTC to 2024-10-27 01:00 UTC */
	assert_false(tz_is_daylight_utc(&paris, at(2024, 3, 31, 0, 59)));
	assert_true(tz_is_daylight_utc(&paris, at(2024, 3, 31, 1, 0)));
	assert_true(tz_is_daylight_utc(&paris, at(2024, 10, 27, 0, 59)));
	assert_false(tz_is_daylight_utc(&paris, at(2024, 10, 27, 1, 0)));
	/* local: 02:00-03:00 on March 31 does not exist, 02:00-03:00 on
	 * October 27 comes twice (daylight first) */
	assert_false(tz_is_daylight_local(&paris, at(2024, 3, 31, 1, 59)));
	assert_true(tz_is_daylight_local(&paris, at(2024, 3, 31, 3, 0)));
	assert_true(tz_is_daylight_local(&paris, at(2024, 10, 27, 2, 30)));
	assert_false(tz_is_daylight_local(&paris, at(2024, 10, 27, 3, 0)));
	/* Sydney: daylight across the new year */
	assert_true(tz_is_daylight_utc(&sydney, at(2024, 1, 15, 12, 0)));
	assert_false(tz_is_daylight_utc(&sydney, at(2024, 7, 1, 12, 0)));
	assert_true(tz_is_daylight_utc(&sydney, at(2024, 4, 6, 15, 59)));
	assert_false(tz_is_daylight_utc(&sydney, at(2024, 4, 6, 16, 0)));
	assert_false(tz_is_daylight_utc(&sydney, at(2024, 10, 5, 15, 59)));
	assert_true(tz_is_daylight_utc(&sydney, at(2024, 10, 5, 16, 0)));
	assert_true(tz_is_daylight_local(&sydney, at(2024, 12, 25, 12, 0)));
	/* no dates: never daylight */
	paris.DaylightDate.wMonth = 0;
	assert_false(tz_is_daylight_utc(&paris, at(2024, 7, 1, 0, 0)));
}

static void test_calendar(void **state)
{
	SYSTEMTIME st;

	assert_int_equal(tz_ticks_from_date(1601, 1, 1), 0);
	assert_int_equal(tz_ticks_from_date(1970, 1, 1), 116444736000000000ll);
	tz_date_from_ticks(116444736000000000ll + 86399ll * 10000000, &st);
	assert_int_equal(st.wYear, 1970);
	assert_int_equal(st.wMonth, 1);
	assert_int_equal(st.wDay, 1);
	assert_int_equal(st.wDayOfWeek, 4); /* a Thursday */
	assert_int_equal(st.wHour, 23);
	tz_date_from_ticks(tz_ticks_from_date(2024, 2, 29), &st);
	assert_int_equal(st.wMonth, 2);
	assert_int_equal(st.wDay, 29);
	tz_date_from_ticks(tz_ticks_from_date(2100, 3, 1) - 1, &st);
	assert_int_equal(st.wMonth, 2);
	assert_int_equal(st.wDay, 28); /* 2100 is no leap year */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_evaluation),
		cmocka_unit_test(test_calendar),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
