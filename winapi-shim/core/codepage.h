/* Code pages: UTF-8/UTF-16 and the single-byte Windows code pages, for
 * every part of ndrun (MultiByteToWideChar, file names, the command line,
 * console output, msvcrt).  Plain sysv C; nothing here touches the last
 * error, so callers decide what a failure means.
 *
 * Policy (docs/codepage.md): a UTF-8 Linux locale (the first set of
 * LC_ALL, LC_CTYPE, LANG names a ".UTF-8" or ".utf8" character set), and
 * the C and POSIX locales (or none), make the ANSI (CP_ACP) and OEM
 * (CP_OEMCP) code pages 65001, as Windows' "Use Unicode UTF-8 for
 * worldwide language support" does: the narrow command line,
 * environment, file names, every A function and the C runtime (whose
 * narrow strings are UTF-8) then carry the same bytes Linux does.  A
 * locale with another character set ("en_US", "de_DE.ISO-8859-1") gives
 * 1252 and 437, an en-US Windows.
 * NDSHIM_ACP and NDSHIM_OEMCP override either with any supported page.  Supported: 65001 (UTF-8), 1252,
 * 437, 28591 (ISO 8859-1).  Single-byte conversions to a code page use
 * the default character for what the page cannot hold; Windows' "best
 * fit" substitutions (U+0100 -> 'A') are not done. */
#ifndef NDSHIM_CODEPAGE_H
#define NDSHIM_CODEPAGE_H

#include <stdbool.h>
#include <sys/types.h>

#include <windef.h>
#include <winbase.h>
#include <winnls.h>

#define CONV_INVALID  (-1) /* strict mode and the input is not valid */
#define CONV_OVERFLOW (-2) /* the output does not fit in dst_len units */

UINT cp_ansi(void);
UINT cp_oem(void);

/* The code page of kernel32's A functions that take or return a file
 * name: the ANSI one, or the OEM one once the process called
 * SetFileApisToOEM (per process, until SetFileApisToANSI). */
UINT cp_file(void);
bool cp_file_is_oem(void);
void cp_set_file_oem(bool oem);

/* The policy's test: whether the locale these variables give (the first
 * one set and not empty wins) makes the code pages 65001. */
bool cp_locale_is_utf8(const char *lc_all, const char *lc_ctype, const char *lang);

/* CP_ACP, CP_OEMCP, CP_THREAD_ACP, CP_MACCP resolved to a real code page;
 * 0 when cp (after resolution) is not supported. */
UINT cp_resolve(UINT cp);

/* Bytes per character at most (1 or 4); 0 for an unsupported page. */
unsigned int cp_max_char_size(UINT cp);

/* The conversions take a length (no terminator handling: include the
 * terminator in src_len to convert it) and write at most dst_len units;
 * dst may be NULL when dst_len is 0 to count.  They return the number of
 * units produced (or needed), or CONV_INVALID / CONV_OVERFLOW.
 *
 * UTF-8 decoding replaces each maximal invalid subpart (Unicode 6.0
 * "best practice") with U+FFFD; overlong forms, surrogates and values
 * above U+10FFFF are invalid.  UTF-16 encoding replaces unpaired
 * surrogates with U+FFFD.  strict: fail with CONV_INVALID instead. */
ssize_t utf8_to_utf16(const char *src, size_t src_len, WCHAR *dst, size_t dst_len, bool strict);
ssize_t utf16_to_utf8(const WCHAR *src, size_t src_len, char *dst, size_t dst_len, bool strict);

/* cp: a resolved code page (cp_resolve).  mb_flags: MB_ERR_INVALID_CHARS,
 * MB_USEGLYPHCHARS (437: the glyphs for control characters). */
ssize_t cp_to_utf16(UINT cp, DWORD mb_flags, const char *src, size_t src_len, WCHAR *dst,
		    size_t dst_len);
/* wc_flags: WC_ERR_INVALID_CHARS (UTF-8 only).  For single-byte pages,
 * unmappable characters become default_char and set *used_default
 * (used_default may be NULL). */
ssize_t utf16_to_cp(UINT cp, DWORD wc_flags, const WCHAR *src, size_t src_len, char *dst,
		    size_t dst_len, char default_char, BOOL *used_default);

/* NUL-terminated conversions into malloc'd strings (free with free()),
 * lossy (replacement/default characters), NULL only when out of memory
 * or s is NULL. */
WCHAR *utf8_to_utf16_dup(const char *s);
char *utf16_to_utf8_dup(const WCHAR *s);
WCHAR *cp_to_utf16_dup(UINT cp, const char *s);
char *utf16_to_cp_dup(UINT cp, const WCHAR *s);

#endif
