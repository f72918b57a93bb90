/* The console's title and window (wincon.h).  The title starts as the
 * program's path, as a console Windows makes for a program shows it;
 * SetConsoleTitle keeps the new one and, when the standard output or
 * error is a terminal, sets the terminal's title to it (the xterm OSC 0
 * sequence).  Without a terminal there is no console, and the title
 * calls fail (ERROR_INVALID_HANDLE).  A console under ndrun is the
 * terminal, which is no window
 * of this process: GetConsoleWindow is NULL, as for a console without a
 * window.  The A forms use the console's output code page. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

#pragma weak loader_peb

static WCHAR *title;
static pthread_mutex_t title_lock = PTHREAD_MUTEX_INITIALIZER;

/* title_lock held: the title, made from the program's path first. */
static const WCHAR *current(void)
{
	if (!title && loader_peb && loader_peb()->ProcessParameters) {
		const UNICODE_STRING *img = &loader_peb()->ProcessParameters->ImagePathName;
		size_t n = img->Length / sizeof(WCHAR);

		if ((title = malloc((n + 1) * sizeof(WCHAR)))) {
			memcpy(title, img->Buffer, n * sizeof(WCHAR));
			title[n] = 0;
		}
	}
	return title ? title : u"";
}

/* A process has a console when one of its standard streams is a
 * terminal; without one the title calls fail as Windows' do. */
static bool has_console(void)
{
	if (isatty(0) || isatty(1) || isatty(2))
		return true;
	SetLastError(ERROR_INVALID_HANDLE);
	return false;
}

/* The terminal's title, when there is a terminal. */
static void show(const WCHAR *t)
{
	int fd = isatty(1) ? 1 : isatty(2) ? 2 : -1;
	char *u;

	if (fd < 0 || !(u = utf16_to_utf8_dup(t)))
		return;
	for (char *c = u; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = ' '; /* nothing that would end the sequence early */
	if (write(fd, "\033]0;", 4) == 4 && write(fd, u, strlen(u)) >= 0)
		(void)!write(fd, "\007", 1);
	free(u);
}

BOOL WINAPI SetConsoleTitleW(LPCWSTR t)
{
	WCHAR *copy;

	if (!t) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!has_console())
		return FALSE;
	if (!(copy = wstr_dup(t))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	pthread_mutex_lock(&title_lock);
	free(title);
	title = copy;
	pthread_mutex_unlock(&title_lock);
	show(copy);
	return TRUE;
}

BOOL WINAPI SetConsoleTitleA(LPCSTR t)
{
	WCHAR *w = t ? cp_to_utf16_dup(GetConsoleOutputCP(), t) : NULL;
	BOOL ret;

	if (!t) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = SetConsoleTitleW(w);
	free(w);
	return ret;
}

/* The length of the title in characters; a buffer too small gets as
 * much as fits, terminated. */
DWORD WINAPI GetConsoleTitleW(LPWSTR buf, DWORD size)
{
	size_t n;

	if (!buf || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!has_console())
		return 0;
	pthread_mutex_lock(&title_lock);
	const WCHAR *t = current();

	n = wstr_len(t);
	memcpy(buf, t, (n < size ? n : size - 1) * sizeof(WCHAR));
	buf[n < size ? n : size - 1] = 0;
	pthread_mutex_unlock(&title_lock);
	return (DWORD)n;
}

DWORD WINAPI GetConsoleTitleA(LPSTR buf, DWORD size)
{
	WCHAR *w;
	char *a;
	DWORD n;

	if (!buf || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!has_console())
		return 0;
	pthread_mutex_lock(&title_lock);
	w = wstr_dup(current());
	pthread_mutex_unlock(&title_lock);
	a = w ? utf16_to_cp_dup(GetConsoleOutputCP(), w) : NULL;
	free(w);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	n = (DWORD)strlen(a);
	memcpy(buf, a, n < size ? n : size - 1);
	buf[n < size ? n : size - 1] = 0;
	free(a);
	return n;
}

HWND WINAPI GetConsoleWindow(void)
{
	return NULL;
}
