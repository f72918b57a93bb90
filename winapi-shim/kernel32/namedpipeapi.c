/* namedpipeapi: named pipes (core/pipe.c does the work). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/file.h"
#include "core/pipe.h"
#include "kernel32/kernel32_private.h"

HANDLE WINAPI CreateNamedPipeW(LPCWSTR name, DWORD open_mode, DWORD pipe_mode, DWORD instances,
			       DWORD out_size, DWORD in_size, DWORD timeout, LPSECURITY_ATTRIBUTES sa)
{
	TRACE(file, "%s, open %#x, pipe %#x, %u instances\n", debugstr_w(name), open_mode, pipe_mode,
	      instances);
	return pipe_create_server(name, open_mode, pipe_mode, instances, out_size, in_size);
}

HANDLE WINAPI CreateNamedPipeA(LPCSTR name, DWORD open_mode, DWORD pipe_mode, DWORD instances,
			       DWORD out_size, DWORD in_size, DWORD timeout, LPSECURITY_ATTRIBUTES sa)
{
	WCHAR *w;
	HANDLE h;

	if (!name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (!(w = cp_to_utf16_dup(CP_ACP, name))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	h = CreateNamedPipeW(w, open_mode, pipe_mode, instances, out_size, in_size, timeout, sa);
	free(w);
	return h;
}

/* The pipe end behind h, or NULL with the last error set. */
static struct file *pipe_get(HANDLE h)
{
	struct file *f = file_get(h);

	if (f && !f->pipe) {
		file_release(f);
		SetLastError(ERROR_INVALID_FUNCTION);
		return NULL;
	}
	return f;
}

BOOL WINAPI ConnectNamedPipe(HANDLE h, LPOVERLAPPED ov)
{
	struct file *f = pipe_get(h);
	BOOL ok;

	if (!f)
		return FALSE;
	ok = pipe_connect(f, ov);
	file_release(f);
	return ok;
}

BOOL WINAPI DisconnectNamedPipe(HANDLE h)
{
	struct file *f = pipe_get(h);
	BOOL ok;

	if (!f)
		return FALSE;
	ok = pipe_disconnect(f);
	file_release(f);
	return ok;
}

BOOL WINAPI PeekNamedPipe(HANDLE h, LPVOID buf, DWORD size, LPDWORD read, LPDWORD avail,
			  LPDWORD left)
{
	struct file *f = pipe_get(h);
	BOOL ok;

	if (!f)
		return FALSE;
	ok = pipe_peek(f, buf, size, read, avail, left);
	file_release(f);
	return ok;
}

BOOL WINAPI SetNamedPipeHandleState(HANDLE h, LPDWORD mode, LPDWORD max_count, LPDWORD timeout)
{
	struct file *f = pipe_get(h);
	BOOL ok;

	if (!f)
		return FALSE;
	/* Collection (max_count, timeout) only matters across machines. */
	ok = pipe_set_state(f, mode);
	file_release(f);
	return ok;
}

/* Anonymous pipes are Linux pipes, so that a child process can inherit
 * either end.  A read at EOF (every write end closed) is
 * ERROR_BROKEN_PIPE, as on Windows. */
BOOL WINAPI CreatePipe(PHANDLE rd, PHANDLE wr, LPSECURITY_ATTRIBUTES sa, DWORD size)
{
	DWORD flags = sa && sa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0;
	struct file *r = NULL, *w = NULL;
	HANDLE hr = NULL, hw = NULL;
	int fds[2];

	if (!rd || !wr) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		set_last_error_from_errno(errno);
		return FALSE;
	}
	/* The size is advisory on Windows; Linux's default (64 KiB) is at
	 * least as large as what programs ask for. */
	if (size > 65536)
		fcntl(fds[1], F_SETPIPE_SZ, (int)size);
	r = file_create(fds[0], GENERIC_READ | FILE_WRITE_ATTRIBUTES, 0, true);
	w = file_create(fds[1], GENERIC_WRITE | FILE_READ_ATTRIBUTES, 0, true);
	if (!r || !w) {
		if (!r)
			close(fds[0]);
		if (!w)
			close(fds[1]);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		goto out;
	}
	r->anon_pipe = w->anon_pipe = true;
	hr = handle_create(&r->obj, r->access, flags);
	hw = hr ? handle_create(&w->obj, w->access, flags) : NULL;
	if (!hw) {
		if (hr)
			CloseHandle(hr);
		goto out;
	}
	*rd = hr;
	*wr = hw;
	TRACE(file, "%p (fd %d), %p (fd %d)\n", hr, fds[0], hw, fds[1]);
out:
	if (r)
		object_unref(&r->obj);
	if (w)
		object_unref(&w->obj);
	return hw != NULL;
}
