/* Console screen buffers (consoleapi2.h), the part redirected programs
 * meet: a handle that is not a console (a pipe, a file) has no screen
 * buffer, and Windows fails with ERROR_INVALID_HANDLE, which programs
 * such as ninja take as "not a terminal".
 *
 * On a real terminal the buffer's cursor position and attributes would
 * have to be tracked (or asked of the terminal); that is not done yet, so
 * the call fails there with ERROR_CALL_NOT_IMPLEMENTED instead of
 * answering with made-up values. */
#include <unistd.h>

#include "core/debug.h"
#include "core/file.h"
#include "kernel32/kernel32_private.h"

BOOL WINAPI GetConsoleScreenBufferInfo(HANDLE h, CONSOLE_SCREEN_BUFFER_INFO *info)
{
	struct file *f = file_get(h);
	bool tty;

	if (!f) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	tty = isatty(f->fd);
	file_release(f);
	if (!tty) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	TRACE(misc, "%p: screen buffers of terminals are not implemented\n", h);
	SetLastError(ERROR_CALL_NOT_IMPLEMENTED);
	return FALSE;
}
