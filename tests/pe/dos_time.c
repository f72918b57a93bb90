/* FileTimeToDosDateTime and DosDateTimeToFileTime, the zip/FAT time
 * stamp: 2024-02-29 13:45:58 is date (44 << 9 | 2 << 5 | 29) and time
 * (13 << 11 | 45 << 5 | 29); odd seconds round down to even ones; the
 * round trip gives the time back; 1979 and 2108 cannot be written.
 * CompareFileTime orders FILETIMEs. */
#include "test.h"

static FILETIME at(WORD y, WORD mo, WORD d, WORD h, WORD mi, WORD s)
{
	SYSTEMTIME st = { .wYear = y, .wMonth = mo, .wDay = d, .wHour = h, .wMinute = mi, .wSecond = s };
	FILETIME ft = { 0, 0 };

	SystemTimeToFileTime(&st, &ft);
	return ft;
}

int main(void)
{
	FILETIME ft = at(2024, 2, 29, 13, 45, 59), back, want = at(2024, 2, 29, 13, 45, 58);
	WORD date = 0, time = 0;

	ok(FileTimeToDosDateTime(&ft, &date, &time), "FileTimeToDosDateTime: %lu\n", GetLastError());
	ok(date == (44 << 9 | 2 << 5 | 29), "date %#x\n", date);
	ok(time == (13 << 11 | 45 << 5 | 29), "time %#x\n", time);
	ok(DosDateTimeToFileTime(date, time, &back), "DosDateTimeToFileTime: %lu\n", GetLastError());
	ok(!CompareFileTime(&back, &want), "back %lu:%lu, want %lu:%lu\n", back.dwHighDateTime, back.dwLowDateTime,
	   want.dwHighDateTime, want.dwLowDateTime);
	ft = at(1980, 1, 1, 0, 0, 0);
	ok(FileTimeToDosDateTime(&ft, &date, &time) && date == (1 << 5 | 1) && time == 0, "1980: %#x %#x\n", date, time);
	ft = at(1979, 12, 31, 23, 59, 59);
	SetLastError(0xdeadbeef);
	ok(!FileTimeToDosDateTime(&ft, &date, &time) && GetLastError() == ERROR_INVALID_PARAMETER, "1979: %lu\n",
	   GetLastError());
	ft = at(2108, 1, 1, 0, 0, 0);
	/* Documented: 1980 to 2107 only; Wine 8 writes 2108 (its year wraps). */
	ok_todo_wine(!FileTimeToDosDateTime(&ft, &date, &time), "2108 was written\n");
	ok(CompareFileTime(&back, &want) == 0 && CompareFileTime(&ft, &want) == 1 && CompareFileTime(&want, &ft) == -1,
	   "CompareFileTime\n");
	return test_summary();
}
