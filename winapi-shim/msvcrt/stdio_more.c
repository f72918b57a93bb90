/* stdio.h's remaining stream calls, made of stdio.c's: _fsopen (sharing
 * is not enforced between processes here), freopen_s, _wfdopen,
 * _flushall (the count of streams), clearerr_s, fread_s (a buffer size),
 * gets_s/_getws_s, _wperror and _get/_setmaxstdio (no limit of ours
 * below the descriptors': 512 to 2048 accepted, as msvcrt does). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

struct crt_file *__cdecl crt__fsopen(const char *path, const char *mode, int share)
{
	(void)share;
	return crt_fopen(path, mode);
}

struct crt_file *__cdecl crt__wfsopen(const WCHAR *path, const WCHAR *mode, int share)
{
	(void)share;
	return crt__wfopen(path, mode);
}

int __cdecl crt_freopen_s(struct crt_file **out, const char *path, const char *mode, struct crt_file *f)
{
	if (!out || !mode || !f)
		return fail(EINVAL);
	*out = crt_freopen(path, mode, f);
	return *out ? 0 : *crt__errno();
}

int __cdecl crt__wfreopen_s(struct crt_file **out, const WCHAR *path, const WCHAR *mode, struct crt_file *f)
{
	if (!out || !mode || !f)
		return fail(EINVAL);
	*out = crt__wfreopen(path, mode, f);
	return *out ? 0 : *crt__errno();
}

struct crt_file *__cdecl crt__wfdopen(int fd, const WCHAR *mode)
{
	char *m = mode ? crt_wide_to_utf8_alloc(mode) : NULL;
	struct crt_file *f;

	if (!m) {
		crt_set_errno(mode ? ENOMEM : EINVAL);
		return NULL;
	}
	f = crt__fdopen(fd, m);
	free(m);
	return f;
}

/* Every stream written out; how many are open (the standard ones too). */
int __cdecl crt__flushall(void)
{
	int n = 0;

	crt_flush_all_streams();
	for (int i = 0; i < CRT_IOB_ENTRIES; i++)
		if (crt___iob_func()[i]._flag & (CRT_IOREAD | CRT_IOWRT | CRT_IORW))
			n++;
	return n;
}

int __cdecl crt_clearerr_s(struct crt_file *f)
{
	if (!f)
		return fail(EINVAL);
	crt_clearerr(f);
	return 0;
}

/* At most size bytes into buf; count elements asked for. */
size_t __cdecl crt_fread_s(void *buf, size_t bufsize, size_t elsize, size_t count, struct crt_file *f)
{
	if (!elsize || !count)
		return 0;
	if (!buf || !f) {
		if (buf && bufsize)
			memset(buf, 0, bufsize);
		fail(EINVAL);
		return 0;
	}
	if (count > bufsize / elsize) {
		memset(buf, 0, bufsize);
		fail(ERANGE);
		return 0;
	}
	return crt_fread(buf, elsize, count, f);
}

/* A line of stdin into buf[size]: a line longer than that is an error
 * (ERANGE, the buffer emptied, the rest of the line read). */
char *__cdecl crt_gets_s(char *buf, size_t size)
{
	struct crt_file *in = &crt___iob_func()[0];
	size_t n = 0;
	int c = 0, too_long = 0;

	if (!buf || !size) {
		fail(EINVAL);
		return NULL;
	}
	crt__lock_file(in);
	while ((c = crt_fgetc(in)) != -1 && c != '\n') {
		if (n + 1 < size)
			buf[n++] = (char)c;
		else
			too_long = 1;
	}
	crt__unlock_file(in);
	if (c == -1 && !n && !too_long) {
		buf[0] = 0;
		return NULL;
	}
	buf[too_long ? 0 : n] = 0;
	if (too_long) {
		fail(ERANGE);
		return NULL;
	}
	return buf;
}

WCHAR *__cdecl crt__getws_s(WCHAR *buf, size_t size)
{
	struct crt_file *in = &crt___iob_func()[0];
	size_t n = 0;
	WCHAR c = 0;
	int too_long = 0;

	if (!buf || !size) {
		fail(EINVAL);
		return NULL;
	}
	crt__lock_file(in);
	while ((c = crt_fgetwc(in)) != 0xffff && c != '\n') {
		if (n + 1 < size)
			buf[n++] = c;
		else
			too_long = 1;
	}
	crt__unlock_file(in);
	if (c == 0xffff && !n && !too_long) {
		buf[0] = 0;
		return NULL;
	}
	buf[too_long ? 0 : n] = 0;
	if (too_long) {
		fail(ERANGE);
		return NULL;
	}
	return buf;
}

void __cdecl crt__wperror(const WCHAR *s)
{
	char *u = s ? crt_wide_to_utf8_alloc(s) : NULL;

	crt_perror(u);
	free(u);
}

static int max_stdio = 512;

int __cdecl crt__getmaxstdio(void)
{
	return max_stdio;
}

int __cdecl crt__setmaxstdio(int n)
{
	if (n < 20 || n > 2048) {
		crt_set_errno(EINVAL);
		return -1;
	}
	max_stdio = n;
	return n;
}
