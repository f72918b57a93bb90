/* io.h, direct.h and sys/stat.h: _stat in its layouts (a file, a folder,
 * a program, a name with a trailing slash, nothing), _fstat, _findfirst/
 * _findnext/_findclose over a folder (wildcards, attributes, sizes, the
 * end: ENOENT), and the old POSIX names msvcrt.dll exports beside the
 * underscored ones (open read write lseek close access mkdir rmdir
 * unlink getcwd chdir), and the rest of io.h's descriptor calls: _sopen_s,
 * _dup/_dup2 (the copy shares the file position), _eof, _tell, _chsize,
 * _commit, _umask (a new file comes out read-only), _pipe, _chmod and
 * _mktemp. */
#define _CRT_INTERNAL_NONSTDC_NAMES 1
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <share.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>

#include "test.h"

#define DIR_ "crt_files_dir"

static void make_file(const char *name, const char *text)
{
	FILE *f = fopen(name, "wb");

	fputs(text, f);
	fclose(f);
}

static void stats(void)
{
	struct _stat64 s64 = { 0 };
	struct _stat st = { 0 };
	struct _stat32 s32 = { 0 };
	int fd;

	make_file(DIR_ "\\a.txt", "12345");
	make_file(DIR_ "\\prog.exe", "MZ");
	ok(_stat64(DIR_ "\\a.txt", &s64) == 0, "_stat64: errno %d\n", errno);
	ok(s64.st_size == 5 && (s64.st_mode & _S_IFREG) && (s64.st_mode & _S_IREAD) && (s64.st_mode & _S_IWRITE) &&
	   !(s64.st_mode & _S_IEXEC), "a file: size %lld mode %#x\n", (long long)s64.st_size, s64.st_mode);
	ok(s64.st_mtime > 0 && s64.st_nlink == 1, "a file's time and links\n");
	ok(_stat(DIR_ "\\prog.exe", &st) == 0 && (st.st_mode & _S_IEXEC), "a program: mode %#x\n", st.st_mode);
	ok(_stat(DIR_, &st) == 0 && (st.st_mode & _S_IFDIR) && (st.st_mode & _S_IEXEC), "a folder: mode %#x\n",
	   st.st_mode);
#ifdef _UCRT
	ok(_stat32(DIR_ "\\a.txt", &s32) == 0 && s32.st_size == 5, "_stat32\n");
#else
	(void)s32;
#endif
	errno = 0;
	ok(_stat(DIR_ "\\none.txt", &st) == -1 && errno == ENOENT, "nothing: errno %d\n", errno);
	errno = 0;
	ok(_stat(DIR_ "\\a.txt\\", &st) == -1 && errno == ENOENT, "a file with a trailing slash: errno %d\n", errno);
	struct _stat64 w = { 0 };
	ok(_wstat64(L"" DIR_ L"\\a.txt", &w) == 0 && w.st_size == 5, "_wstat64\n");

	fd = _open(DIR_ "\\a.txt", _O_RDONLY);
	ok(_fstat(fd, &st) == 0 && st.st_size == 5 && (st.st_mode & _S_IFREG), "_fstat\n");
	ok(_fstat64(fd, &s64) == 0 && s64.st_size == 5, "_fstat64\n");
	_close(fd);
}

static void finding(void)
{
	struct _finddata_t fd;
	struct __finddata64_t fd64;
	struct _wfinddata64_t wfd;
	intptr_t h;
	int files = 0, dirs = 0, r;

	_mkdir(DIR_ "\\sub");
	h = _findfirst(DIR_ "\\*", &fd);
	ok(h != -1, "_findfirst: errno %d\n", errno);
	if (h != -1) {
		do {
			if (fd.attrib & _A_SUBDIR)
				dirs++;
			else
				files++;
			if (!strcmp(fd.name, "a.txt"))
				ok(fd.size == 5 && fd.time_write > 0 && !(fd.attrib & _A_RDONLY), "a.txt: size %lu\n",
				   (unsigned long)fd.size);
		} while (_findnext(h, &fd) == 0);
		ok(errno == ENOENT, "after the last one: errno %d\n", errno);
		ok(_findclose(h) == 0, "_findclose\n");
	}
	/* ".", "..", sub; a.txt, prog.exe */
	ok(dirs == 3 && files == 2, "%d folders, %d files\n", dirs, files);
	h = _findfirst64(DIR_ "\\*.exe", &fd64);
	ok(h != -1 && !strcmp(fd64.name, "prog.exe") && fd64.size == 2, "_findfirst64 *.exe\n");
	if (h != -1) {
		ok(_findnext64(h, &fd64) == -1, "a second .exe\n");
		_findclose(h);
	}
	h = _wfindfirst64(L"" DIR_ L"\\a.*", &wfd);
	ok(h != -1 && !wcscmp(wfd.name, L"a.txt"), "_wfindfirst64\n");
	if (h != -1)
		_findclose(h);
	errno = 0;
	h = _findfirst(DIR_ "\\*.none", &fd);
	ok(h == -1 && errno == ENOENT, "no match: errno %d\n", errno);
	r = _rmdir(DIR_ "\\sub");
	ok(r == 0, "_rmdir\n");
}

static void posix_names(void)
{
	char buf[MAX_PATH], cwd[MAX_PATH];
	int fd, n;

	fd = open(DIR_ "\\p.txt", O_CREAT | O_WRONLY | O_TRUNC | O_BINARY, S_IREAD | S_IWRITE);
	ok(fd >= 0, "open\n");
	ok(write(fd, "abcdef", 6) == 6, "write\n");
	ok(close(fd) == 0, "close\n");
	fd = open(DIR_ "\\p.txt", O_RDONLY | O_BINARY);
	ok(lseek(fd, 2, SEEK_SET) == 2, "lseek\n");
	n = read(fd, buf, sizeof(buf));
	ok(n == 4 && !memcmp(buf, "cdef", 4), "read: %d\n", n);
	ok(!isatty(fd) && filelength(fd) == 6, "isatty, filelength\n");
	close(fd);
	ok(access(DIR_ "\\p.txt", 0) == 0 && access(DIR_ "\\none", 0) == -1, "access\n");
	ok(unlink(DIR_ "\\p.txt") == 0, "unlink\n");
	ok(mkdir(DIR_ "\\m") == 0 && rmdir(DIR_ "\\m") == 0, "mkdir, rmdir\n");
	ok(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd\n");
	ok(chdir(DIR_) == 0 && getcwd(buf, sizeof(buf)) && strstr(buf, DIR_), "chdir: %s\n", buf);
	ok(chdir(cwd) == 0, "chdir back\n");
	char *d = strdup("Mixed");
	ok(d && !stricmp(d, "MIXED") && !strnicmp(d, "mix", 3), "strdup, stricmp\n");
	free(d);
}

static void descriptors(void)
{
	char buf[32], name[32];
	int fd = -1, d, p[2], n;

	ok(_sopen_s(&fd, DIR_ "\\d.txt", _O_CREAT | _O_RDWR | _O_BINARY, _SH_DENYNO, _S_IREAD | _S_IWRITE) == 0 &&
	   fd >= 0, "_sopen_s\n");
	ok(_write(fd, "0123456789", 10) == 10, "_write\n");
	ok(_tell(fd) == 10 && _eof(fd) == 1, "_tell, _eof at the end\n");
	d = _dup(fd);
	ok(d >= 0 && d != fd, "_dup\n");
	ok(_lseek(d, 2, SEEK_SET) == 2 && _tell(fd) == 2, "the copy shares the position\n");
	ok(_eof(fd) == 0, "_eof before the end\n");
	ok(_chsize(fd, 4) == 0 && _filelength(fd) == 4, "_chsize\n");
	ok(_commit(fd) == 0, "_commit\n");
	ok(_dup2(fd, d) == 0, "_dup2\n");
	_close(d);
	_close(fd);
	errno = 0;
	ok(_dup(-1) == -1 && errno == EBADF, "_dup(-1): errno %d\n", errno);

	/* _umask: the write permission taken away from new files */
	ok(_umask(_S_IWRITE) == 0, "_umask\n");
	fd = _creat(DIR_ "\\ro.txt", _S_IREAD | _S_IWRITE);
	ok(fd >= 0, "_creat\n");
	_close(fd);
	_umask(0);
	ok(_access(DIR_ "\\ro.txt", 2) == -1 && errno == EACCES, "a file made under _umask(_S_IWRITE) is writable\n");
	ok(_chmod(DIR_ "\\ro.txt", _S_IREAD | _S_IWRITE) == 0 && _access(DIR_ "\\ro.txt", 2) == 0, "_chmod\n");
	ok(_chmod(DIR_ "\\ro.txt", _S_IREAD) == 0 && _access(DIR_ "\\ro.txt", 2) == -1, "_chmod read-only\n");
	_chmod(DIR_ "\\ro.txt", _S_IREAD | _S_IWRITE);
	remove(DIR_ "\\ro.txt");
	remove(DIR_ "\\d.txt");

	/* a text-mode pipe: "\n" goes in as "\r\n" and comes out as "\n" */
	ok(_pipe(p, 256, _O_TEXT) == 0, "_pipe\n");
	ok(_write(p[1], "a\nb", 3) == 3, "_write to the pipe\n");
	_close(p[1]);
	n = _read(p[0], buf, sizeof(buf));
	ok(n == 3 && !memcmp(buf, "a\nb", 3), "_read from the pipe: %d\n", n);
	_close(p[0]);

	strcpy(name, DIR_ "\\tXXXXXX");
	ok(_mktemp(name) == name && !strstr(name, "XXXXXX") && strlen(name) == strlen(DIR_) + 8, "_mktemp: %s\n", name);
	strcpy(name, DIR_ "\\tXX");
	ok(_mktemp(name) == NULL, "_mktemp without six X\n");
}

int main(void)
{
	_mkdir(DIR_);
	stats();
	finding();
	posix_names();
	descriptors();
	remove(DIR_ "\\a.txt");
	remove(DIR_ "\\prog.exe");
	_rmdir(DIR_);
	return test_summary();
}
