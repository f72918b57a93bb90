/* MessageBox with no window system: the caption and text go to stderr
 * (one line each, "ndrun: MessageBox: <caption>" then the text), and the
 * answer is the box's default button, as if the user pressed Enter:
 * IDOK for MB_OK and MB_OKCANCEL, IDYES for MB_YESNO(CANCEL), IDABORT for
 * MB_ABORTRETRYIGNORE, IDRETRY for MB_RETRYCANCEL, IDCANCEL for
 * MB_CANCELTRYCONTINUE, each moved by MB_DEFBUTTON2..4.  Nothing waits
 * for a person. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "user32/user32_private.h"

static int default_button(UINT type)
{
	static const int buttons[][4] = {
		[MB_OK] = { IDOK },
		[MB_OKCANCEL] = { IDOK, IDCANCEL },
		[MB_ABORTRETRYIGNORE] = { IDABORT, IDRETRY, IDIGNORE },
		[MB_YESNOCANCEL] = { IDYES, IDNO, IDCANCEL },
		[MB_YESNO] = { IDYES, IDNO },
		[MB_RETRYCANCEL] = { IDRETRY, IDCANCEL },
		[MB_CANCELTRYCONTINUE] = { IDCANCEL, IDTRYAGAIN, IDCONTINUE },
	};
	UINT set = type & MB_TYPEMASK, def = (type & MB_DEFMASK) >> 8;

	if (set >= sizeof(buttons) / sizeof(buttons[0]))
		return 0;
	/* MB_HELP adds a Help button last; a default past the last button
	 * falls back to the first, as Windows does. */
	if (def > 3 || !buttons[set][def])
		def = 0;
	return buttons[set][def];
}

static void write_line(const char *prefix, const char *s)
{
	size_t n = strlen(prefix) + strlen(s) + 2;
	char *line = malloc(n);

	if (!line)
		return;
	snprintf(line, n, "%s%s\n", prefix, s);
	/* One write per line: stays whole among other threads' output. */
	if (write(2, line, strlen(line)) < 0)
		TRACE(misc, "stderr not writable\n");
	free(line);
}

int WINAPI MessageBoxW(HWND owner, LPCWSTR text, LPCWSTR caption, UINT type)
{
	char *t = text ? utf16_to_utf8_dup(text) : NULL, *c = caption ? utf16_to_utf8_dup(caption) : NULL;
	int answer = default_button(type);

	TRACE(misc, "%s: %s, type %#x -> %d\n", debugstr_w(caption), debugstr_w(text), type, answer);
	if (!answer) {
		free(t);
		free(c);
		SetLastError(ERROR_INVALID_MSGBOX_STYLE);
		return 0;
	}
	/* No caption: Windows titles the box "Error". */
	write_line("ndrun: MessageBox: ", c ? c : "Error");
	write_line("", t ? t : "");
	free(t);
	free(c);
	return answer;
}

int WINAPI MessageBoxA(HWND owner, LPCSTR text, LPCSTR caption, UINT type)
{
	UINT cp = cp_resolve(CP_ACP);
	WCHAR *t = text ? cp_to_utf16_dup(cp, text) : NULL;
	WCHAR *c = caption ? cp_to_utf16_dup(cp, caption) : NULL;
	int r = MessageBoxW(owner, t, c, type);

	free(t);
	free(c);
	return r;
}

int WINAPI MessageBoxExW(HWND owner, LPCWSTR text, LPCWSTR caption, UINT type, WORD lang)
{
	return MessageBoxW(owner, text, caption, type);
}

int WINAPI MessageBoxExA(HWND owner, LPCSTR text, LPCSTR caption, UINT type, WORD lang)
{
	return MessageBoxA(owner, text, caption, type);
}
