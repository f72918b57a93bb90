/* io.h, direct.h and sys/stat.h: _stat in its layouts (a file, a folder,
 * a program, a name with a trailing slash, nothing), _fstat, _findfirst/
 * _findnext/_findclose over a folder (wildcards, attributes, sizes, the
 * end: ENOENT), and the old POSIX names msvcrt.dll exports beside the
 * underscored ones (open read write lseek close access mkdir rmdir
 * unlink getcwd chdir). */
#define _CRT_INTERNAL_NONSTDC_NAMES 1
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
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

int main(void)
{
	_mkdir(DIR_);
	stats();
	finding();
	posix_names();
	remove(DIR_ "\\a.txt");
	remove(DIR_ "\\prog.exe");
	_rmdir(DIR_);
	return test_summary();
}
