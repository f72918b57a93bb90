/* Code page information, locales and case mapping (winnls.h).
 *
 * ndrun has one locale, en-US (LCID 0x0409): every default or neutral
 * LCID, and the invariant locale, answer with en-US data. */
#include <string.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"

#define EN_US 0x0409

UINT WINAPI GetACP(void)
{
	return cp_ansi();
}

UINT WINAPI GetOEMCP(void)
{
	return cp_oem();
}

BOOL WINAPI IsValidCodePage(UINT codepage)
{
	/* The CP_ACP-style aliases are not code pages. */
	if (codepage == CP_ACP || codepage == CP_OEMCP || codepage == CP_MACCP || codepage == CP_THREAD_ACP)
		return FALSE;
	return cp_resolve(codepage) != 0;
}

BOOL WINAPI GetCPInfo(UINT codepage, LPCPINFO info)
{
	UINT cp = cp_resolve(codepage);

	if (!cp || !info) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	memset(info, 0, sizeof(*info));
	info->MaxCharSize = cp_max_char_size(cp);
	info->DefaultChar[0] = '?';
	return TRUE;
}

static const WCHAR *cp_name(UINT cp)
{
	switch (cp) {
	case CP_UTF8:
		return u"65001 (UTF-8)";
	case 1252:
		return u"1252  (ANSI - Latin I)";
	case 437:
		return u"437   (OEM - United States)";
	default:
		return u"28591 (ISO 8859-1 Latin I)";
	}
}

BOOL WINAPI GetCPInfoExW(UINT codepage, DWORD flags, LPCPINFOEXW info)
{
	UINT cp = cp_resolve(codepage);
	const WCHAR *name;

	if (!cp || !info || flags) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	memset(info, 0, sizeof(*info));
	info->MaxCharSize = cp_max_char_size(cp);
	info->DefaultChar[0] = '?';
	info->UnicodeDefaultChar = cp == CP_UTF8 ? 0xfffd : '?';
	info->CodePage = cp;
	name = cp_name(cp);
	memcpy(info->CodePageName, name, (wstr_len(name) + 1) * sizeof(WCHAR));
	return TRUE;
}

BOOL WINAPI GetCPInfoExA(UINT codepage, DWORD flags, LPCPINFOEXA info)
{
	CPINFOEXW w;

	if (!info) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!GetCPInfoExW(codepage, flags, &w))
		return FALSE;
	memset(info, 0, sizeof(*info));
	info->MaxCharSize = w.MaxCharSize;
	memcpy(info->DefaultChar, w.DefaultChar, sizeof(w.DefaultChar));
	info->UnicodeDefaultChar = w.UnicodeDefaultChar;
	info->CodePage = w.CodePage;
	WideCharToMultiByte(CP_ACP, 0, w.CodePageName, -1, info->CodePageName, MAX_PATH, NULL, NULL);
	return TRUE;
}

/* Every supported code page is single-byte or UTF-8: no lead bytes. */
BOOL WINAPI IsDBCSLeadByteEx(UINT codepage, BYTE c)
{
	if (!cp_resolve(codepage)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return FALSE;
}

BOOL WINAPI IsDBCSLeadByte(BYTE c)
{
	return FALSE;
}

/* ---- locales ------------------------------------------------------------ */

static BOOL known_lcid(LCID lcid)
{
	switch (lcid) {
	case EN_US:
	case LOCALE_NEUTRAL:
	case LOCALE_INVARIANT:
	case LOCALE_USER_DEFAULT:
	case LOCALE_SYSTEM_DEFAULT:
	case LOCALE_CUSTOM_DEFAULT:
	case LOCALE_CUSTOM_UNSPECIFIED:
	case LOCALE_CUSTOM_UI_DEFAULT:
		return TRUE;
	}
	return FALSE;
}

LCID WINAPI GetUserDefaultLCID(void)
{
	return EN_US;
}

LCID WINAPI GetSystemDefaultLCID(void)
{
	return EN_US;
}

LANGID WINAPI GetUserDefaultLangID(void)
{
	return EN_US;
}

LANGID WINAPI GetSystemDefaultLangID(void)
{
	return EN_US;
}

LANGID WINAPI GetUserDefaultUILanguage(void)
{
	return EN_US;
}

LANGID WINAPI GetSystemDefaultUILanguage(void)
{
	return EN_US;
}

LCID WINAPI GetThreadLocale(void)
{
	return EN_US;
}

BOOL WINAPI SetThreadLocale(LCID lcid)
{
	if (!known_lcid(lcid)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI IsValidLocale(LCID lcid, DWORD flags)
{
	return known_lcid(lcid);
}

/* One locale is installed and supported: en-US, which has no alternate
 * sorts.  The callback gets its LCID as eight hex digits. */
BOOL WINAPI EnumSystemLocalesW(LOCALE_ENUMPROCW proc, DWORD flags)
{
	static WCHAR en_us[] = { '0', '0', '0', '0', '0', '4', '0', '9', 0 };

	if (!proc) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (flags & ~(LCID_INSTALLED | LCID_SUPPORTED | LCID_ALTERNATE_SORTS)) {
		SetLastError(ERROR_INVALID_FLAGS);
		return FALSE;
	}
	if (flags == LCID_ALTERNATE_SORTS)
		return TRUE;
	PE_CALL1(proc, en_us);
	return TRUE;
}

BOOL WINAPI EnumSystemLocalesA(LOCALE_ENUMPROCA proc, DWORD flags)
{
	static char en_us[] = "00000409";

	if (!proc) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (flags & ~(LCID_INSTALLED | LCID_SUPPORTED | LCID_ALTERNATE_SORTS)) {
		SetLastError(ERROR_INVALID_FLAGS);
		return FALSE;
	}
	if (flags == LCID_ALTERNATE_SORTS)
		return TRUE;
	PE_CALL1(proc, en_us);
	return TRUE;
}

INT WINAPI GetUserDefaultLocaleName(LPWSTR name, INT len)
{
	static const WCHAR en_us[] = u"en-US";

	if (!name || len < (INT)(sizeof(en_us) / sizeof(WCHAR))) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	}
	memcpy(name, en_us, sizeof(en_us));
	return sizeof(en_us) / sizeof(WCHAR);
}

struct locale_value {
	LCTYPE type;
	const WCHAR *str;
};

/* en-US, as Windows 10 reports it. */
static const struct locale_value en_us_values[] = {
	{ LOCALE_ILANGUAGE, u"0409" },
	{ LOCALE_SLANGUAGE, u"English (United States)" },
	{ LOCALE_SENGLANGUAGE, u"English" },
	{ LOCALE_SABBREVLANGNAME, u"ENU" },
	{ LOCALE_SNATIVELANGNAME, u"English" },
	{ LOCALE_ICOUNTRY, u"1" },
	{ LOCALE_SCOUNTRY, u"United States" },
	{ LOCALE_SENGCOUNTRY, u"United States" },
	{ LOCALE_SABBREVCTRYNAME, u"USA" },
	{ LOCALE_SNATIVECTRYNAME, u"United States" },
	{ LOCALE_IDEFAULTLANGUAGE, u"0409" },
	{ LOCALE_IDEFAULTCOUNTRY, u"1" },
	{ LOCALE_IDEFAULTCODEPAGE, u"437" },
	{ LOCALE_IDEFAULTANSICODEPAGE, u"1252" },
	{ LOCALE_IDEFAULTMACCODEPAGE, u"10000" },
	{ LOCALE_SLIST, u"," },
	{ LOCALE_IMEASURE, u"1" },
	{ LOCALE_SDECIMAL, u"." },
	{ LOCALE_STHOUSAND, u"," },
	{ LOCALE_SGROUPING, u"3;0" },
	{ LOCALE_IDIGITS, u"2" },
	{ LOCALE_ILZERO, u"1" },
	{ LOCALE_INEGNUMBER, u"1" },
	{ LOCALE_SNATIVEDIGITS, u"0123456789" },
	{ LOCALE_SCURRENCY, u"$" },
	{ LOCALE_SINTLSYMBOL, u"USD" },
	{ LOCALE_SMONDECIMALSEP, u"." },
	{ LOCALE_SMONTHOUSANDSEP, u"," },
	{ LOCALE_SMONGROUPING, u"3;0" },
	{ LOCALE_ICURRDIGITS, u"2" },
	{ LOCALE_IINTLCURRDIGITS, u"2" },
	{ LOCALE_ICURRENCY, u"0" },
	{ LOCALE_INEGCURR, u"0" },
	{ LOCALE_SDATE, u"/" },
	{ LOCALE_STIME, u":" },
	{ LOCALE_SSHORTDATE, u"M/d/yyyy" },
	{ LOCALE_SLONGDATE, u"dddd, MMMM d, yyyy" },
	{ LOCALE_STIMEFORMAT, u"h:mm:ss tt" },
	{ LOCALE_IDATE, u"0" },
	{ LOCALE_ILDATE, u"0" },
	{ LOCALE_ITIME, u"0" },
	{ LOCALE_ITLZERO, u"0" },
	{ LOCALE_S1159, u"AM" },
	{ LOCALE_S2359, u"PM" },
	{ LOCALE_ICALENDARTYPE, u"1" },
	{ LOCALE_IFIRSTDAYOFWEEK, u"6" },
	{ LOCALE_IFIRSTWEEKOFYEAR, u"0" },
	{ LOCALE_SDAYNAME1, u"Monday" },
	{ LOCALE_SDAYNAME2, u"Tuesday" },
	{ LOCALE_SDAYNAME3, u"Wednesday" },
	{ LOCALE_SDAYNAME4, u"Thursday" },
	{ LOCALE_SDAYNAME5, u"Friday" },
	{ LOCALE_SDAYNAME6, u"Saturday" },
	{ LOCALE_SDAYNAME7, u"Sunday" },
	{ LOCALE_SABBREVDAYNAME1, u"Mon" },
	{ LOCALE_SABBREVDAYNAME2, u"Tue" },
	{ LOCALE_SABBREVDAYNAME3, u"Wed" },
	{ LOCALE_SABBREVDAYNAME4, u"Thu" },
	{ LOCALE_SABBREVDAYNAME5, u"Fri" },
	{ LOCALE_SABBREVDAYNAME6, u"Sat" },
	{ LOCALE_SABBREVDAYNAME7, u"Sun" },
	{ LOCALE_SMONTHNAME1, u"January" },
	{ LOCALE_SMONTHNAME2, u"February" },
	{ LOCALE_SMONTHNAME3, u"March" },
	{ LOCALE_SMONTHNAME4, u"April" },
	{ LOCALE_SMONTHNAME5, u"May" },
	{ LOCALE_SMONTHNAME6, u"June" },
	{ LOCALE_SMONTHNAME7, u"July" },
	{ LOCALE_SMONTHNAME8, u"August" },
	{ LOCALE_SMONTHNAME9, u"September" },
	{ LOCALE_SMONTHNAME10, u"October" },
	{ LOCALE_SMONTHNAME11, u"November" },
	{ LOCALE_SMONTHNAME12, u"December" },
	{ LOCALE_SABBREVMONTHNAME1, u"Jan" },
	{ LOCALE_SABBREVMONTHNAME2, u"Feb" },
	{ LOCALE_SABBREVMONTHNAME3, u"Mar" },
	{ LOCALE_SABBREVMONTHNAME4, u"Apr" },
	{ LOCALE_SABBREVMONTHNAME5, u"May" },
	{ LOCALE_SABBREVMONTHNAME6, u"Jun" },
	{ LOCALE_SABBREVMONTHNAME7, u"Jul" },
	{ LOCALE_SABBREVMONTHNAME8, u"Aug" },
	{ LOCALE_SABBREVMONTHNAME9, u"Sep" },
	{ LOCALE_SABBREVMONTHNAME10, u"Oct" },
	{ LOCALE_SABBREVMONTHNAME11, u"Nov" },
	{ LOCALE_SABBREVMONTHNAME12, u"Dec" },
	{ LOCALE_SPOSITIVESIGN, u"" },
	{ LOCALE_SNEGATIVESIGN, u"-" },
	{ LOCALE_SISO639LANGNAME, u"en" },
	{ LOCALE_SISO3166CTRYNAME, u"US" },
	{ LOCALE_SNAME, u"en-US" },
	{ LOCALE_SENGLISHDISPLAYNAME, u"English (United States)" },
	{ LOCALE_SNATIVEDISPLAYNAME, u"English (United States)" },
	{ LOCALE_SNAN, u"NaN" },
	{ LOCALE_SPOSINFINITY, u"Infinity" },
	{ LOCALE_SNEGINFINITY, u"-Infinity" },
	{ LOCALE_IDIGITSUBSTITUTION, u"1" },
};

static const WCHAR *locale_string(LCTYPE type)
{
	for (size_t i = 0; i < sizeof(en_us_values) / sizeof(en_us_values[0]); i++)
		if (en_us_values[i].type == type)
			return en_us_values[i].str;
	return NULL;
}

static INT locale_info(LCTYPE lctype, LPWSTR buf, INT len)
{
	LCTYPE type = lctype & ~(LOCALE_NOUSEROVERRIDE | LOCALE_USE_CP_ACP | LOCALE_RETURN_NUMBER |
				 LOCALE_RETURN_GENITIVE_NAMES | LOCALE_ALLOW_NEUTRAL_NAMES);
	const WCHAR *str = locale_string(type);
	INT n;

	if (len < 0 || (len && !buf)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!str) {
		TRACE(misc, "LCTYPE %#x not known\n", (unsigned)type);
		SetLastError(ERROR_INVALID_FLAGS);
		return 0;
	}
	if (lctype & LOCALE_RETURN_NUMBER) {
		DWORD v = 0;
		const WCHAR *p = str;

		/* only numeric (I...) values qualify: all digits */
		if (!*p) {
			SetLastError(ERROR_INVALID_FLAGS);
			return 0;
		}
		for (; *p; p++) {
			if (*p < '0' || *p > '9') {
				SetLastError(ERROR_INVALID_FLAGS);
				return 0;
			}
			v = v * 10 + (*p - '0');
		}
		if (type == LOCALE_ILANGUAGE || type == LOCALE_IDEFAULTLANGUAGE)
			v = EN_US; /* these two are hexadecimal */
		n = sizeof(DWORD) / sizeof(WCHAR);
		if (!len)
			return n;
		if (len < n) {
			SetLastError(ERROR_INSUFFICIENT_BUFFER);
			return 0;
		}
		memcpy(buf, &v, sizeof(v));
		return n;
	}
	n = (INT)wstr_len(str) + 1;
	if (!len)
		return n;
	if (len < n) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	}
	memcpy(buf, str, n * sizeof(WCHAR));
	return n;
}

INT WINAPI GetLocaleInfoW(LCID lcid, LCTYPE lctype, LPWSTR buf, INT len)
{
	if (!known_lcid(lcid)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	return locale_info(lctype, buf, len);
}

INT WINAPI GetLocaleInfoA(LCID lcid, LCTYPE lctype, LPSTR buf, INT len)
{
	WCHAR wbuf[128];
	INT n;

	if (len < 0 || (len && !buf)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (lctype & LOCALE_RETURN_NUMBER) {
		n = GetLocaleInfoW(lcid, lctype, (WCHAR *)buf, len / (INT)sizeof(WCHAR));
		return n * (INT)sizeof(WCHAR);
	}
	if (!GetLocaleInfoW(lcid, lctype, wbuf, sizeof(wbuf) / sizeof(WCHAR)))
		return 0;
	n = WideCharToMultiByte(CP_ACP, 0, wbuf, -1, NULL, 0, NULL, NULL);
	if (!len)
		return n;
	if (len < n) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	}
	return WideCharToMultiByte(CP_ACP, 0, wbuf, -1, buf, len, NULL, NULL);
}

static BOOL known_locale_name(LPCWSTR name)
{
	return !name || !*name || !wstr_icmp(name, u"en-US") ||
	       !wstr_cmp(name, LOCALE_NAME_SYSTEM_DEFAULT);
}

INT WINAPI GetLocaleInfoEx(LPCWSTR locale, LCTYPE lctype, LPWSTR buf, INT len)
{
	if (!known_locale_name(locale)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	return locale_info(lctype, buf, len);
}

/* ---- case mapping -------------------------------------------------------- */

INT WINAPI LCMapStringEx(LPCWSTR locale, DWORD flags, LPCWSTR src, INT srclen, LPWSTR dst,
			 INT dstlen, LPNLSVERSIONINFO version, LPVOID reserved, LPARAM param)
{
	DWORD op = flags & ~LCMAP_LINGUISTIC_CASING;

	if (!src || !srclen || dstlen < 0 || (dstlen && !dst)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (op != LCMAP_UPPERCASE && op != LCMAP_LOWERCASE && op != LCMAP_BYTEREV) {
		/* sort keys, kana/width folding, simplified Chinese... */
		TRACE(misc, "flags %#x not supported\n", (unsigned)flags);
		SetLastError(ERROR_INVALID_FLAGS);
		return 0;
	}
	if (srclen < 0)
		srclen = (INT)wstr_len(src) + 1;
	if (!dstlen)
		return srclen;
	if (dstlen < srclen) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	}
	for (INT i = 0; i < srclen; i++) {
		WCHAR c = src[i];

		dst[i] = op == LCMAP_UPPERCASE ? wch_toupper(c)
			 : op == LCMAP_LOWERCASE ? wch_tolower(c)
						 : (WCHAR)((c >> 8) | (c << 8));
	}
	return srclen;
}

INT WINAPI LCMapStringW(LCID lcid, DWORD flags, LPCWSTR src, INT srclen, LPWSTR dst, INT dstlen)
{
	return LCMapStringEx(NULL, flags, src, srclen, dst, dstlen, NULL, NULL, 0);
}
