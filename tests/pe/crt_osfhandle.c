/* _get_osfhandle and _open_osfhandle: the handle of a descriptor writes
 * to the same file at the same offset, is the same on every call, and is
 * the standard handle for 0-2; a handle made into a descriptor reads
 * through it and is closed by _close; bad descriptors and handles give
 * -1 and EBADF.  A handle's descriptor is in binary mode unless _O_TEXT
 * is asked for (Microsoft's _open_osfhandle doc lists _O_TEXT among the
 * flags; _fmode plays no part): Ctrl-Z and CR LF read as they are. */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

#ifdef _UCRT
static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned int line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
}
#endif

int main(void)
{
	char buf[32] = "";
	HANDLE h, h2;
	DWORD done;
	int fd, n;

#ifdef _UCRT
	/* the UCRT reports a bad descriptor to the handler too */
	_set_invalid_parameter_handler(on_invalid);
#endif
	ok((HANDLE)_get_osfhandle(1) == GetStdHandle(STD_OUTPUT_HANDLE), "fd 1 is not the standard output\n");
	ok((HANDLE)_get_osfhandle(2) == GetStdHandle(STD_ERROR_HANDLE), "fd 2 is not the standard error\n");

	/* descriptor -> handle */
	fd = _open("crt_osfhandle.tmp", _O_CREAT | _O_TRUNC | _O_RDWR | _O_BINARY, _S_IREAD | _S_IWRITE);
	ok(fd >= 0, "_open: %d errno %d\n", fd, errno);
	ok(_write(fd, "abc", 3) == 3, "_write\n");
	h = (HANDLE)_get_osfhandle(fd);
	ok(h != INVALID_HANDLE_VALUE && h != NULL, "_get_osfhandle: %p errno %d\n", h, errno);
	ok((HANDLE)_get_osfhandle(fd) == h, "a second call gave another handle\n");
	ok(GetFileType(h) == FILE_TYPE_DISK, "file type %lu\n", GetFileType(h));
	/* the same offset: the handle writes after "abc" */
	ok(WriteFile(h, "def", 3, &done, NULL) && done == 3, "WriteFile: %lu\n", GetLastError());
	ok(GetFileSize(h, NULL) == 6, "size %lu\n", GetFileSize(h, NULL));
	ok(_lseek(fd, 0, SEEK_SET) == 0, "_lseek\n");
	n = _read(fd, buf, sizeof(buf) - 1);
	ok(n == 6 && !memcmp(buf, "abcdef", 6), "read back %d \"%.*s\"\n", n, n > 0 ? n : 0, buf);
	ok(_close(fd) == 0, "_close\n");

	/* handle -> descriptor */
	h = CreateFileA("crt_osfhandle.tmp", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFile: %lu\n", GetLastError());
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
	ok(fd >= 0, "_open_osfhandle: %d errno %d\n", fd, errno);
	ok((HANDLE)_get_osfhandle(fd) == h, "the descriptor's handle is not the one given\n");
	memset(buf, 0, sizeof(buf));
	n = _read(fd, buf, 4);
	ok(n == 4 && !memcmp(buf, "abcd", 4), "read %d \"%s\"\n", n, buf);
	/* the handle reads on from where the descriptor stopped */
	ok(ReadFile(h, buf, 2, &done, NULL) && done == 2 && !memcmp(buf, "ef", 2), "ReadFile after _read\n");
	ok(_close(fd) == 0, "_close\n");
	SetLastError(0xdeadbeef);
	ok(!CloseHandle(h) && GetLastError() == ERROR_INVALID_HANDLE, "_close left the handle open: %lu\n",
	   GetLastError());

	/* a stream's descriptor */
	{
		FILE *f = fopen("crt_osfhandle.tmp", "rb");

		ok(f != NULL, "fopen\n");
		h2 = (HANDLE)_get_osfhandle(_fileno(f));
		ok(h2 != INVALID_HANDLE_VALUE && ReadFile(h2, buf, 3, &done, NULL) && done == 3 &&
			   !memcmp(buf, "abc", 3),
		   "a stream's handle did not read its file\n");
		fclose(f);
	}

	/* binary unless _O_TEXT: "a\r\nb\x1a" read whole, or as "a\nb" */
	h = CreateFileA("crt_osfhandle.tmp", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ, NULL, CREATE_ALWAYS, 0,
			NULL);
	ok(h != INVALID_HANDLE_VALUE && WriteFile(h, "a\r\nb\x1a", 5, &done, NULL) && done == 5,
	   "writing the text file: %lu\n", GetLastError());
	SetFilePointer(h, 0, NULL, FILE_BEGIN);
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY);
	memset(buf, 0, sizeof(buf));
	n = fd >= 0 ? _read(fd, buf, sizeof(buf) - 1) : -1;
	ok(n == 5 && !memcmp(buf, "a\r\nb\x1a", 5), "no mode flag: read %d bytes\n", n);
	if (fd >= 0)
		_close(fd);
	h = CreateFileA("crt_osfhandle.tmp", GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_TEXT);
	memset(buf, 0, sizeof(buf));
	n = fd >= 0 ? _read(fd, buf, sizeof(buf) - 1) : -1;
	ok(n == 3 && !memcmp(buf, "a\nb", 3), "_O_TEXT: read %d bytes [%s]\n", n, buf);
	if (fd >= 0)
		_close(fd);

	/* errors */
	errno = 0;
	ok(_get_osfhandle(-1) == (intptr_t)INVALID_HANDLE_VALUE && errno == EBADF, "fd -1: errno %d\n", errno);
	errno = 0;
	ok(_get_osfhandle(1000) == (intptr_t)INVALID_HANDLE_VALUE && errno == EBADF, "fd 1000: errno %d\n", errno);
	DeleteFileA("crt_osfhandle.tmp");
	return test_summary();
}
