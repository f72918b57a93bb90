/* The path rules kernel32 and the C runtime share: drives (C: the system
 * drive, Z: the Linux root under ndrun and Wine, a missing letter),
 * drive-relative names and the "=X:" variables, DOS device names in any
 * folder and with any extension, UNC names, "\\?\" names, and the
 * case-insensitive lookup (open, create in an existing folder,
 * FindFirstFile, rename, delete), each through CreateFile and through
 * msvcrt's fopen/_open/remove. */
#define __USE_MINGW_ANSI_STDIO 0

#include <ctype.h>
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static char work[MAX_PATH]; /* the test's own folder, a full path */

static char *at(const char *name)
{
	static char buf[4][MAX_PATH];
	static int i;
	char *b = buf[i++ & 3];

	snprintf(b, MAX_PATH, "%s\\%s", work, name);
	return b;
}

static BOOL exists(const char *name)
{
	return GetFileAttributesA(name) != INVALID_FILE_ATTRIBUTES;
}

static void put(const char *name, const char *text)
{
	HANDLE h = CreateFileA(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	DWORD n;

	ok(h != INVALID_HANDLE_VALUE, "create %s: error %lu\n", name, GetLastError());
	WriteFile(h, text, (DWORD)strlen(text), &n, NULL);
	CloseHandle(h);
}

/* The missing drive letter nearest the end of the alphabet below Z:. */
static char missing_drive(void)
{
	DWORD mask = GetLogicalDrives();

	for (char d = 'Y'; d > 'C'; d--)
		if (!(mask & (1u << (d - 'A'))))
			return d;
	return 0;
}

static void test_drives(void)
{
	DWORD mask = GetLogicalDrives();
	char strings[256], name[MAX_PATH], full[MAX_PATH], d = missing_drive();
	DWORD n;
	HANDLE h;
	FILE *f;

	ok(mask & (1u << ('C' - 'A')), "no C: in %#lx\n", mask);
	ok(mask & (1u << ('Z' - 'A')), "no Z: in %#lx\n", mask);
	n = GetLogicalDriveStringsA(sizeof(strings), strings);
	ok(n > 0 && n < sizeof(strings), "GetLogicalDriveStrings: %lu\n", n);
	{
		int c = 0, z = 0, count = 0;

		for (char *p = strings; p < strings + n && *p; p += strlen(p) + 1, count++) {
			c |= !strcmp(p, "C:\\");
			z |= !strcmp(p, "Z:\\");
			ok(strlen(p) == 3 && (mask & (1u << (p[0] - 'A'))), "drive string %s\n", p);
		}
		ok(c && z && n == (DWORD)count * 4, "strings: C: %d Z: %d, %d of them in %lu\n", c, z, count, n);
	}
	ok(GetLogicalDriveStringsA(2, strings) > 2, "short buffer: %lu\n", GetLogicalDriveStringsA(2, strings));
	ok(GetDriveTypeA("C:\\") == DRIVE_FIXED, "C: type %u\n", GetDriveTypeA("C:\\"));
	ok(GetDriveTypeA("Z:\\") == DRIVE_FIXED, "Z: type %u\n", GetDriveTypeA("Z:\\"));

	/* Z: is the Linux root: /proc is there under ndrun and Wine */
	ok(GetFileAttributesA("Z:\\proc\\self") != INVALID_FILE_ATTRIBUTES, "Z:\\proc\\self: %lu\n", GetLastError());

	if (!d) {
		ok(0, "every drive letter exists\n");
		return;
	}
	snprintf(name, sizeof(name), "%c:\\ndshim-no-drive.txt", d);
	SetLastError(0xdeadbeef);
	h = CreateFileA(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h == INVALID_HANDLE_VALUE, "%s created\n", name);
	/* Windows: the path (its drive) is not found; Wine says the file */
	ok_todo_wine(GetLastError() == ERROR_PATH_NOT_FOUND, "%s: error %lu\n", name, GetLastError());
	snprintf(name, sizeof(name), "%c:\\", d);
	ok(GetDriveTypeA(name) == DRIVE_NO_ROOT_DIR, "%s type %u\n", name, GetDriveTypeA(name));
	/* the C runtime follows the same map: no file appears anywhere */
	snprintf(name, sizeof(name), "%c:\\ndshim-no-drive.txt", d);
	errno = 0;
	f = fopen(name, "w");
	ok(!f && errno == ENOENT, "fopen(%s): %p errno %d\n", name, (void *)f, errno);
	if (f)
		fclose(f);
	ok(!exists("Z:\\ndshim-no-drive.txt"), "fopen wrote to the Linux root\n");
	ok(_open(name, _O_WRONLY | _O_CREAT, 0666) == -1 && errno == ENOENT, "_open(%s) errno %d\n", name, errno);

	/* a full path with its drive: fopen and CreateFile meet */
	GetFullPathNameA("drive.txt", sizeof(full), full, NULL);
	ok(full[1] == ':' && full[2] == '\\', "full path %s\n", full);
	f = fopen(at("drive.txt"), "w");
	ok(f != NULL, "fopen(%s) errno %d\n", at("drive.txt"), errno);
	if (f) {
		fputs("by fopen", f);
		fclose(f);
	}
	h = CreateFileA(at("drive.txt"), GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFile(%s): %lu\n", at("drive.txt"), GetLastError());
	memset(strings, 0, sizeof(strings));
	ReadFile(h, strings, sizeof(strings) - 1, &n, NULL);
	CloseHandle(h);
	ok(!strcmp(strings, "by fopen"), "read [%s]\n", strings);
	ok(remove(at("drive.txt")) == 0, "remove errno %d\n", errno);
}

static void test_drive_relative(void)
{
	char cwd[MAX_PATH], full[MAX_PATH], want[MAX_PATH], name[8];

	GetCurrentDirectoryA(sizeof(cwd), cwd);
	snprintf(name, sizeof(name), "%c:x.txt", cwd[0]);
	GetFullPathNameA(name, sizeof(full), full, NULL);
	snprintf(want, sizeof(want), "%s\\x.txt", cwd);
	ok(!_stricmp(full, want), "%s: %s, want %s\n", name, full, want);

	/* another drive: its "=X:" variable, else its root */
	SetEnvironmentVariableA("=C:", NULL);
	if (cwd[0] != 'C') {
		GetFullPathNameA("C:x.txt", sizeof(full), full, NULL);
		ok(!strcmp(full, "C:\\x.txt"), "C:x.txt: %s\n", full);
		SetEnvironmentVariableA("=C:", "C:\\windows");
		GetFullPathNameA("C:x.txt", sizeof(full), full, NULL);
		ok(!_stricmp(full, "C:\\windows\\x.txt"), "C:x.txt with =C: %s\n", full);
		SetEnvironmentVariableA("=C:", NULL);
	}
	/* root-relative: the current drive's root */
	GetFullPathNameA("\\a\\..\\b", sizeof(full), full, NULL);
	snprintf(want, sizeof(want), "%c:\\b", cwd[0]);
	ok(!strcmp(full, want), "\\a\\..\\b: %s\n", full);
	GetFullPathNameA("C:\\a\\..\\..\\b", sizeof(full), full, NULL);
	ok(!strcmp(full, "C:\\b"), "above the root: %s\n", full);
}

static void test_devices(void)
{
	static const struct {
		const char *name, *full;
	} devs[] = {
		{ "nul", "\\\\.\\nul" },
		{ "NUL.txt", "\\\\.\\NUL" },
		{ "C:\\no\\such\\dir\\nul.tar.gz", "\\\\.\\nul" },
		{ "con", "\\\\.\\con" },
		{ "aux.c", "\\\\.\\aux" },
		{ "Prn", "\\\\.\\Prn" },
		{ "COM1.log", "\\\\.\\COM1" },
		{ "lpt9", "\\\\.\\lpt9" },
		{ "nul  .x", "\\\\.\\nul" },
		{ "C:\\dir\\CONOUT$.txt", "\\\\.\\CONOUT$" },
	};
	static const char *const not_devs[] = { "nula", "com0", "lpt10", "xnul.txt", "conout" };
	char full[MAX_PATH], *part = (char *)1;
	HANDLE h;
	DWORD n;
	FILE *f;
	int fd;

	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		DWORD r = GetFullPathNameA(devs[i].name, sizeof(full), full, &part);

		ok(r == strlen(devs[i].full) && !strcmp(full, devs[i].full), "%s: %lu %s\n", devs[i].name, r, full);
	}
	for (size_t i = 0; i < sizeof(not_devs) / sizeof(not_devs[0]); i++) {
		GetFullPathNameA(not_devs[i], sizeof(full), full, NULL);
		ok(full[1] == ':', "%s: %s\n", not_devs[i], full);
	}

	/* NUL swallows writes wherever it is named, and is never a file */
	h = CreateFileA(at("nul.txt"), GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFile(dir\\nul.txt): %lu\n", GetLastError());
	ok(WriteFile(h, "x", 1, &n, NULL) && n == 1, "write to NUL\n");
	CloseHandle(h);
	f = fopen("NUL", "w");
	ok(f != NULL, "fopen(NUL) errno %d\n", errno);
	if (f) {
		ok(fputs("gone", f) >= 0, "fputs\n");
		fclose(f);
	}
	f = fopen(at("nul"), "r");
	ok(f != NULL && fgetc(f) == EOF, "reading NUL\n");
	if (f)
		fclose(f);
	fd = _open("nul", _O_WRONLY | _O_CREAT | _O_TRUNC, 0666);
	ok(fd >= 0, "_open(nul) errno %d\n", errno);
	if (fd >= 0) {
		ok(_write(fd, "abc", 3) == 3, "_write to nul\n");
		_close(fd);
	}
	{
		WIN32_FIND_DATAA fd_data;
		HANDLE fh = FindFirstFileA(at("nul*"), &fd_data);

		ok(fh == INVALID_HANDLE_VALUE, "a file %s exists\n", fd_data.cFileName);
		if (fh != INVALID_HANDLE_VALUE)
			FindClose(fh);
	}
}

static void test_unc_and_verbatim(void)
{
	char name[MAX_PATH + 8];
	HANDLE h;

	SetLastError(0xdeadbeef);
	h = CreateFileA("\\\\ndshim-no-such-server\\share\\x.txt", GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h == INVALID_HANDLE_VALUE, "UNC name opened\n");
	/* Windows: the network name is not found; Wine reports the path */
	ok_todo_wine(GetLastError() == ERROR_BAD_NETPATH, "UNC error %lu\n", GetLastError());

	put(at("verbatim.txt"), "v");
	snprintf(name, sizeof(name), "\\\\?\\%s", at("verbatim.txt"));
	h = CreateFileA(name, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "%s: %lu\n", name, GetLastError());
	CloseHandle(h);
	/* "\\?\" keeps a trailing dot: that is another name */
	snprintf(name, sizeof(name), "\\\\?\\%s.", at("verbatim.txt"));
	h = CreateFileA(name, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h == INVALID_HANDLE_VALUE, "%s opened\n", name);
	/* without it the dot goes */
	h = CreateFileA(at("verbatim.txt."), GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "trailing dot: %lu\n", GetLastError());
	CloseHandle(h);
	DeleteFileA(at("verbatim.txt"));
}

static void test_case(void)
{
	WIN32_FIND_DATAA fd;
	char buf[16] = { 0 };
	HANDLE h;
	FILE *f;
	DWORD n;

	put(at("CaseTest.TXT"), "mixed");
	/* open whatever the case */
	h = CreateFileA(at("casetest.txt"), GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "open in lower case: %lu\n", GetLastError());
	ReadFile(h, buf, sizeof(buf) - 1, &n, NULL);
	CloseHandle(h);
	ok(!strcmp(buf, "mixed"), "read [%s]\n", buf);
	f = fopen(at("CASETEST.txt"), "r");
	ok(f != NULL, "fopen in upper case: errno %d\n", errno);
	if (f)
		fclose(f);
	/* the same file, not a second one */
	SetLastError(0xdeadbeef);
	h = CreateFileA(at("CASETEST.TXT"), GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	ok(h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_FILE_EXISTS, "CREATE_NEW: error %lu\n",
	   GetLastError());
	h = FindFirstFileA(at("CASETEST.*"), &fd);
	ok(h != INVALID_HANDLE_VALUE && !strcmp(fd.cFileName, "CaseTest.TXT"), "found %s\n",
	   h != INVALID_HANDLE_VALUE ? fd.cFileName : "nothing");
	ok(!FindNextFileA(h, &fd), "a second match %s\n", fd.cFileName);
	FindClose(h);

	/* a folder in another case: create in it, list it, rename, delete */
	ok(CreateDirectoryA(at("SubDir"), NULL), "CreateDirectory: %lu\n", GetLastError());
	put(at("SUBDIR\\Inner.txt"), "in");
	h = FindFirstFileA(at("subdir\\*.TXT"), &fd);
	ok(h != INVALID_HANDLE_VALUE && !strcmp(fd.cFileName, "Inner.txt"), "found %s\n",
	   h != INVALID_HANDLE_VALUE ? fd.cFileName : "nothing");
	FindClose(h);
	ok(MoveFileA(at("subdir\\INNER.TXT"), at("SUBDIR\\moved.txt")), "MoveFile: %lu\n", GetLastError());
	ok(exists(at("SubDir\\moved.txt")), "moved file missing\n");
	f = fopen(at("SUBDIR\\made.txt"), "w");
	ok(f != NULL, "fopen in the folder: errno %d\n", errno);
	if (f)
		fclose(f);
	ok(remove(at("subdir\\MADE.TXT")) == 0, "remove: errno %d\n", errno);
	ok(DeleteFileA(at("SUBDIR\\MOVED.TXT")), "DeleteFile: %lu\n", GetLastError());
	ok(RemoveDirectoryA(at("SUBDIR")), "RemoveDirectory: %lu\n", GetLastError());
	ok(!exists(at("SubDir")), "folder still there\n");
	ok(DeleteFileA(at("casetest.TXT")), "DeleteFile: %lu\n", GetLastError());
	ok(!exists(at("CaseTest.TXT")), "file still there\n");
}

/* The name's own case found by FindFirstFile (the name as stored). */
static void stored_name(const char *pattern, char *out, size_t size)
{
	WIN32_FIND_DATAA fd;
	HANDLE h = FindFirstFileA(at(pattern), &fd);

	snprintf(out, size, "%s", h != INVALID_HANDLE_VALUE ? fd.cFileName : "(nothing)");
	if (h != INVALID_HANDLE_VALUE)
		FindClose(h);
}

/* A rename that changes only the case: the same file, its new name as
 * written (Windows file systems keep the case they are given); and one
 * onto a different file that exists but for case still fails.  (Wine
 * finds the target as the source itself and reports success, the name
 * unchanged: todo_wine.) */
static void test_case_rename(const char *cwd)
{
	char name[MAX_PATH], drive[8], value[MAX_PATH];

	put(at("lower.txt"), "x");
	ok(MoveFileA(at("lower.txt"), at("LOWER.txt")), "MoveFile to another case: %lu\n", GetLastError());
	stored_name("lower.*", name, sizeof(name));
	ok_todo_wine(!strcmp(name, "LOWER.txt"), "after MoveFile: %s\n", name);
	ok(MoveFileExA(at("LOWER.txt"), at("Lower.txt"), MOVEFILE_REPLACE_EXISTING), "MoveFileEx: %lu\n",
	   GetLastError());
	stored_name("lower.*", name, sizeof(name));
	ok_todo_wine(!strcmp(name, "Lower.txt"), "after MoveFileEx: %s\n", name);
	ok(rename(at("Lower.txt"), at("lOWER.TXT")) == 0, "rename to another case: errno %d\n", errno);
	stored_name("lower.*", name, sizeof(name));
	ok_todo_wine(!strcmp(name, "lOWER.TXT"), "after rename: %s\n", name);
	/* relative names, the C runtime's _chdir first: it records the
	 * directory in its drive's "=X:" variable (SetCurrentDirectory does
	 * not: the CRT's _chdir does it itself in the source Microsoft ships) */
	ok(_chdir(work) == 0, "_chdir: errno %d\n", errno);
	snprintf(drive, sizeof(drive), "=%c:", toupper((unsigned char)work[0]));
	value[0] = 0;
	GetEnvironmentVariableA(drive, value, sizeof(value));
	ok_todo_wine(!strcmp(value, work), "%s is [%s], want [%s]\n", drive, value, work); /* Wine's _chdir sets none */
	ok(_wrename(L"lOWER.TXT", L"Lower.Txt") == 0, "_wrename (relative): errno %d\n", errno);
	stored_name("lower.*", name, sizeof(name));
	ok_todo_wine(!strcmp(name, "Lower.Txt"), "after _wrename: %s\n", name);
	ok(_chdir(cwd) == 0, "_chdir back: errno %d\n", errno);

	put(at("other.txt"), "y");
	SetLastError(0xdeadbeef);
	ok(!MoveFileA(at("Lower.Txt"), at("OTHER.TXT")) && GetLastError() == ERROR_ALREADY_EXISTS,
	   "MoveFile onto another file: error %lu\n", GetLastError());
	errno = 0;
	ok(rename(at("Lower.Txt"), at("Other.txt")) == -1 && errno == EEXIST, "rename onto another file: errno %d\n",
	   errno);
	ok(DeleteFileA(at("lower.txt")) && DeleteFileA(at("other.txt")), "DeleteFile: %lu\n", GetLastError());
}

int main(void)
{
	char cwd[MAX_PATH];

	GetCurrentDirectoryA(sizeof(cwd), cwd);
	snprintf(work, sizeof(work), "%s\\path_policy.%lu", cwd, GetCurrentProcessId());
	ok(CreateDirectoryA(work, NULL), "CreateDirectory(%s): %lu\n", work, GetLastError());
	test_drives();
	test_drive_relative();
	test_devices();
	test_unc_and_verbatim();
	test_case();
	test_case_rename(cwd);
	ok(RemoveDirectoryA(work), "RemoveDirectory(%s): %lu\n", work, GetLastError());
	return test_summary();
}
