/* GetTempFileNameA/W: the "<dir>\<pre><hex>.tmp" name, the number
 * returned, which calls create the file (uUnique == 0 only) and the
 * errors for bad folders and over-long names.  Everything happens in a
 * private folder under GetTempPath, removed at the end. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static char base[MAX_PATH];

static int exists(const char *name)
{
	return GetFileAttributesA(name) != INVALID_FILE_ATTRIBUTES;
}

static LONGLONG file_size(const char *name)
{
	WIN32_FILE_ATTRIBUTE_DATA d;

	if (!GetFileAttributesExA(name, GetFileExInfoStandard, &d))
		return -1;
	return ((LONGLONG)d.nFileSizeHigh << 32) | d.nFileSizeLow;
}

/* uUnique != 0 only formats: the number comes back (its low 16 bits),
 * nothing is created, and the prefix is cut to three characters. */
static void test_format_only(void)
{
	char out[MAX_PATH], want[MAX_PATH], slash[MAX_PATH];
	UINT r;

	SetLastError(0xdeadbeef);
	r = GetTempFileNameA(base, "abcdef", 0x1a2b, out);
	snprintf(want, sizeof(want), "%s\\abc1A2B.tmp", base);
	ok(r == 0x1a2b, "got %#x\n", r);
	ok(!lstrcmpiA(out, want), "got %s, want %s\n", out, want);
	/* Windows writes the digits in upper case; Wine in lower case. */
	ok_todo_wine(!strcmp(out, want), "got %s, want %s exactly\n", out, want);
	ok(!exists(out), "%s was created\n", out);

	/* A folder that ends in a separator gets no second one. */
	snprintf(slash, sizeof(slash), "%s\\", base);
	r = GetTempFileNameA(slash, "ab", 0x12345, out);
	snprintf(want, sizeof(want), "%s\\ab2345.tmp", base);
	ok(r == 0x2345, "only the low 16 bits count: got %#x\n", r);
	ok(!lstrcmpiA(out, want), "got %s, want %s\n", out, want);

	r = GetTempFileNameA(base, "", 0xf, out);
	snprintf(want, sizeof(want), "%s\\F.tmp", base);
	ok(r == 0xf && !lstrcmpiA(out, want), "empty prefix: got %#x %s\n", r, out);
	r = GetTempFileNameA(base, NULL, 0x7, out);
	snprintf(want, sizeof(want), "%s\\7.tmp", base);
	ok(r == 0x7 && !lstrcmpiA(out, want), "no prefix: got %#x %s\n", r, out);
	r = GetTempFileNameA(base, "xy", 0xffff, out);
	snprintf(want, sizeof(want), "%s\\xyFFFF.tmp", base);
	ok(r == 0xffff && !lstrcmpiA(out, want), "got %#x %s\n", r, out);

	/* The folder is used as written, relative or not. */
	SetCurrentDirectoryA(base);
	r = GetTempFileNameA(".", "q", 0xff, out);
	ok(r == 0xff && !lstrcmpiA(out, ".\\qFF.tmp"), "got %#x %s\n", r, out);
	ok(!exists(out), "%s was created\n", out);
}

/* uUnique == 0 creates an empty file under a name nobody has, and
 * returns the number in that name; one after another they differ. */
static void test_create(void)
{
	char names[24][MAX_PATH], digits[16];
	UINT nums[24], r;
	int i, j;

	for (i = 0; i < 24; i++) {
		SetLastError(0xdeadbeef);
		nums[i] = GetTempFileNameA(base, "new", 0, names[i]);
		ok(nums[i] && nums[i] <= 0xffff, "call %d: got %#x, error %lu\n", i, nums[i], GetLastError());
		if (!nums[i])
			return;
		snprintf(digits, sizeof(digits), "\\new%X.tmp", nums[i]);
		ok(strlen(names[i]) == strlen(base) + strlen(digits) &&
			   !strncmp(names[i], base, strlen(base)) &&
			   !lstrcmpiA(names[i] + strlen(base), digits),
		   "got %s for %#x\n", names[i], nums[i]);
		ok(file_size(names[i]) == 0, "%s: size %lld\n", names[i], file_size(names[i]));
		for (j = 0; j < i; j++)
			ok(nums[j] != nums[i], "calls %d and %d both gave %#x\n", j, i, nums[i]);
	}

	/* The low 16 bits of 0x10000 are 0: a name is made and claimed. */
	r = GetTempFileNameA(base, "big", 0x10000, names[0]);
	ok(r && r <= 0xffff, "got %#x\n", r);
	ok(r && file_size(names[0]) == 0, "%s not created\n", names[0]);

	/* The file is really new: CREATE_NEW on it now fails. */
	ok(CreateFileA(names[1], GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL) == INVALID_HANDLE_VALUE &&
		   GetLastError() == ERROR_FILE_EXISTS,
	   "error %lu\n", GetLastError());
}

static void test_wide(void)
{
	WCHAR wbase[MAX_PATH], out[MAX_PATH], want[MAX_PATH];
	HANDLE h;
	UINT r;

	MultiByteToWideChar(CP_ACP, 0, base, -1, wbase, MAX_PATH);
	r = GetTempFileNameW(wbase, L"\x00e9\x4e2dzq", 0xbeef, out);
	swprintf(want, MAX_PATH, L"%ls\\\x00e9\x4e2dzBEEF.tmp", wbase);
	ok(r == 0xbeef, "got %#x\n", r);
	ok(!lstrcmpiW(out, want), "got %ls\n", out);
	ok(GetFileAttributesW(out) == INVALID_FILE_ATTRIBUTES, "created\n");

	r = GetTempFileNameW(wbase, L"\x00e9w", 0, out);
	ok(r, "error %lu\n", GetLastError());
	h = CreateFileW(out, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "%ls: error %lu\n", out, GetLastError());
	ok(GetFileSize(h, NULL) == 0, "size %lu\n", GetFileSize(h, NULL));
	CloseHandle(h);
	ok(DeleteFileW(out), "error %lu\n", GetLastError());

	SetLastError(0xdeadbeef);
	r = GetTempFileNameW(L"C:\\no\\such\\ndshim-folder", L"x", 0, out);
	ok(!r && GetLastError() == ERROR_DIRECTORY, "got %u, error %lu\n", r, GetLastError());
}

static void test_bad_folder(void)
{
	char out[MAX_PATH], file[MAX_PATH];
	static const UINT uniques[] = { 0, 5 };

	snprintf(file, sizeof(file), "%s\\plain.txt", base);
	CloseHandle(CreateFileA(file, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL));
	for (int i = 0; i < 2; i++) {
		UINT u = uniques[i], r;

		/* Even a name that is only formatted needs a real folder. */
		SetLastError(0xdeadbeef);
		r = GetTempFileNameA("C:\\no\\such\\ndshim-folder", "x", u, out);
		ok(!r && GetLastError() == ERROR_DIRECTORY, "missing, %u: got %u, error %lu\n", u, r,
		   GetLastError());
		SetLastError(0xdeadbeef);
		r = GetTempFileNameA(file, "x", u, out);
		ok(!r && GetLastError() == ERROR_DIRECTORY, "file, %u: got %u, error %lu\n", u, r,
		   GetLastError());
		SetLastError(0xdeadbeef);
		r = GetTempFileNameA("", "x", u, out);
		ok(!r && GetLastError() == ERROR_DIRECTORY, "empty, %u: got %u, error %lu\n", u, r,
		   GetLastError());
		SetLastError(0xdeadbeef);
		r = GetTempFileNameA(NULL, "x", u, out);
		ok(!r && GetLastError() == ERROR_DIRECTORY, "NULL, %u: got %u, error %lu\n", u, r,
		   GetLastError());
	}
	ok(DeleteFileA(file), "error %lu\n", GetLastError());
}

/* A folder name of MAX_PATH - 14 characters is the longest allowed: its
 * longest temporary name and terminator just fill MAX_PATH. */
static void test_long_folder(char *dirs, int *ndirs)
{
	char deep[400], out[400];
	int len = (int)strlen(base);
	UINT r;

	strcpy(deep, base);
	while (len < MAX_PATH - 14) {
		int n = MAX_PATH - 14 - len - 1;

		if (n > 100)
			n = 100;
		/* never leave room for a separator alone (the temporary
		 * folder's length decides where the components end) */
		if (MAX_PATH - 14 - len - 1 - n == 1)
			n--;
		deep[len++] = '\\';
		memset(deep + len, 'd', n);
		len += n;
		deep[len] = 0;
		ok(CreateDirectoryA(deep, NULL), "%d: error %lu\n", len, GetLastError());
		strcpy(dirs + MAX_PATH * (*ndirs)++, deep);
	}
	ok(len == MAX_PATH - 14, "built %d\n", len);

	r = GetTempFileNameA(deep, "lng", 0, out);
	ok(r && strlen(out) <= MAX_PATH - 1, "got %u, error %lu, %d chars\n", r, GetLastError(),
	   (int)strlen(out));
	ok(r && file_size(out) == 0, "not created\n");
	if (r)
		DeleteFileA(out);

	/* One more character is too many.  Wine 8 makes the name anyway and
	 * writes past MAX_PATH (hence the large buffer). */
	strcat(deep, "e");
	CreateDirectoryA(deep, NULL);
	strcpy(dirs + MAX_PATH * (*ndirs)++, deep);
	SetLastError(0xdeadbeef);
	r = GetTempFileNameA(deep, "lng", 3, out);
	ok_todo_wine(!r && GetLastError() == ERROR_BUFFER_OVERFLOW, "got %u, error %lu\n", r,
		     GetLastError());
}

int main(void)
{
	char tmp[MAX_PATH], cwd[MAX_PATH], dirs[8 * MAX_PATH];
	int ndirs = 0;

	GetCurrentDirectoryA(sizeof(cwd), cwd);
	GetTempPathA(sizeof(tmp), tmp);
	snprintf(base, sizeof(base), "%sndtfn%lu", tmp, GetCurrentProcessId());
	if (!CreateDirectoryA(base, NULL)) {
		ok(0, "cannot create %s: error %lu\n", base, GetLastError());
		return test_summary();
	}

	test_format_only();
	SetCurrentDirectoryA(cwd);
	test_create();
	test_wide();
	test_bad_folder();
	test_long_folder(dirs, &ndirs);

	/* Everything the tests made, then the folder: removing it proves
	 * nothing else was left behind. */
	{
		WIN32_FIND_DATAA fd;
		char pat[MAX_PATH], f[MAX_PATH];
		HANDLE fh;

		snprintf(pat, sizeof(pat), "%s\\*.tmp", base);
		fh = FindFirstFileA(pat, &fd);
		if (fh != INVALID_HANDLE_VALUE) {
			do {
				snprintf(f, sizeof(f), "%s\\%s", base, fd.cFileName);
				DeleteFileA(f);
			} while (FindNextFileA(fh, &fd));
			FindClose(fh);
		}
	}
	while (ndirs)
		RemoveDirectoryA(dirs + MAX_PATH * --ndirs);
	ok(RemoveDirectoryA(base), "%s: error %lu\n", base, GetLastError());
	return test_summary();
}
