/* FILETIME helpers (winbase.h; CompareFileTime is timezoneapi.c's).
 * FileTimeToDosDateTime and DosDateTimeToFileTime: the FAT and zip time stamp, a date word (day 0-4, month 5-8, year since 1980
 * 9-15) and a time word (seconds / 2 0-4, minutes 5-10, hours 11-15),
 * converted to and from a FILETIME as it is (no time zone is applied:
 * callers pass local file times).  Years outside 1980-2107 cannot be
 * written: ERROR_INVALID_PARAMETER.  Through FileTimeToSystemTime and
 * SystemTimeToFileTime, so both agree with them. */
#include "kernel32/kernel32_private.h"

BOOL WINAPI FileTimeToDosDateTime(const FILETIME *ft, LPWORD date, LPWORD time)
{
	SYSTEMTIME st;

	if (!ft || !date || !time || !FileTimeToSystemTime(ft, &st)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (st.wYear < 1980 || st.wYear > 2107) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*date = (WORD)(((st.wYear - 1980) << 9) | (st.wMonth << 5) | st.wDay);
	*time = (WORD)((st.wHour << 11) | (st.wMinute << 5) | (st.wSecond / 2));
	return TRUE;
}

BOOL WINAPI DosDateTimeToFileTime(WORD date, WORD time, LPFILETIME ft)
{
	SYSTEMTIME st = {
		.wYear = (WORD)((date >> 9) + 1980),
		.wMonth = (WORD)((date >> 5) & 0xf),
		.wDay = (WORD)(date & 0x1f),
		.wHour = (WORD)(time >> 11),
		.wMinute = (WORD)((time >> 5) & 0x3f),
		.wSecond = (WORD)((time & 0x1f) * 2),
	};

	if (!ft || !SystemTimeToFileTime(&st, ft)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return TRUE;
}

