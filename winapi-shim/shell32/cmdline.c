/* CommandLineToArgvW: Windows' own splitting of a command line.
 *
 * The program name (the first word) ends at the next quote if it starts
 * with one, else at the first space or tab, and its backslashes and
 * quotes are taken as they are.  In the words after it:
 *   - spaces and tabs outside quotes end a word;
 *   - 2n backslashes and a quote are n backslashes, and the quote opens
 *     or closes a quoted part; 2n+1 backslashes and a quote are n
 *     backslashes and a literal quote; other backslashes are literal;
 *   - in a run of quotes, every third one counting from the quote that
 *     opened the quoted part is a literal quote that also ends it: `""`
 *     inside quotes ends them, `"""` inside quotes is a literal quote.
 * An empty command line gives one word, the program's path.  The result
 * is one LocalAlloc block (the pointers, then the words) that the caller
 * releases with LocalFree. */
#include "core/wstr.h"
#include "shell32/shell32_private.h"

static BOOL is_blank(WCHAR c)
{
	return c == ' ' || c == '\t';
}

/* Splits cmd; with out NULL only counts the words and the characters they
 * need (NULs included).  Returns the word count. */
static int split(const WCHAR *cmd, WCHAR **argv, WCHAR *out, size_t *chars)
{
	const WCHAR *s = cmd;
	size_t n = 0;
	int argc = 0;
	unsigned int quotes = 0; /* odd: inside quotes */

#define PUT(c) do { if (out) out[n] = (c); n++; } while (0)
	/* The program name. */
	if (argv)
		argv[argc] = out + n;
	argc++;
	if (*s == '"') {
		for (s++; *s && *s != '"'; s++)
			PUT(*s);
		if (*s)
			s++;
	} else {
		for (; *s && !is_blank(*s); s++)
			PUT(*s);
	}
	PUT(0);
	while (is_blank(*s))
		s++;
	/* The arguments. */
	while (*s) {
		if (argv)
			argv[argc] = out + n;
		argc++;
		quotes = 0;
		while (*s && (quotes % 2 || !is_blank(*s))) {
			if (*s == '\\') {
				size_t b = 0;
				while (s[b] == '\\')
					b++;
				if (s[b] == '"') {
					for (size_t i = 0; i < b / 2; i++)
						PUT('\\');
					s += b;
					if (b % 2) {
						PUT('"');
						s++;
						continue;
					}
					/* an even run: the quote below is a delimiter */
				} else {
					for (size_t i = 0; i < b; i++)
						PUT('\\');
					s += b;
					continue;
				}
			}
			if (*s == '"') {
				while (*s == '"') {
					if (++quotes == 3) {
						PUT('"');
						quotes = 0;
					}
					s++;
				}
				if (quotes == 2)
					quotes = 0;
				continue;
			}
			PUT(*s);
			s++;
		}
		PUT(0);
		while (is_blank(*s))
			s++;
	}
#undef PUT
	*chars = n;
	return argc;
}

LPWSTR *WINAPI CommandLineToArgvW(LPCWSTR cmd, int *count)
{
	WCHAR self[MAX_PATH + 1];
	size_t chars;
	WCHAR **argv;
	int argc;

	if (!count) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!cmd) {
		/* Documented as invalid; Windows answers the program's own
		 * path as for an empty string. */
		cmd = u"";
	}
	if (!*cmd) {
		DWORD len = GetModuleFileNameW(NULL, self, MAX_PATH);
		argv = LocalAlloc(LMEM_FIXED, 2 * sizeof(WCHAR *) + (len + 1) * sizeof(WCHAR));
		if (!argv)
			return NULL;
		argv[0] = (WCHAR *)(argv + 2);
		argv[1] = NULL;
		memcpy(argv[0], self, (len + 1) * sizeof(WCHAR));
		*count = 1;
		return argv;
	}
	argc = split(cmd, NULL, NULL, &chars);
	argv = LocalAlloc(LMEM_FIXED, (argc + 1) * sizeof(WCHAR *) + chars * sizeof(WCHAR));
	if (!argv)
		return NULL;
	split(cmd, argv, (WCHAR *)(argv + argc + 1), &chars);
	argv[argc] = NULL;
	*count = argc;
	return argv;
}
