/* Win32 file names lose trailing dots and spaces: CreateFile("a.txt.")
 * and "a.txt . " open "a.txt", a directory component ending in one dot
 * ("dir.\\x") is "dir\\x", GetFullPathName and DeleteFile/
 * GetFileAttributes/CreateDirectory follow the same rule, and a
 * "\\\\?\\" name is taken as it is. */
#include <windows.h>

#include "test.h"

static char base[MAX_PATH];

static void path(char *out, const char *name)
{
	snprintf(out, MAX_PATH, "%s%s", base, name);
}

static HANDLE create(const char *name, DWORD disposition)
{
	char p[MAX_PATH];

	path(p, name);
	return CreateFileA(p, GENERIC_READ | GENERIC_WRITE, 0, NULL, disposition, 0, NULL);
}

static int exists(const char *name)
{
	char p[MAX_PATH];

	path(p, name);
	return GetFileAttributesA(p) != INVALID_FILE_ATTRIBUTES;
}

/* whether the folder holds an entry of exactly this name */
static int listed(const char *name)
{
	char pattern[MAX_PATH];
	WIN32_FIND_DATAA fd;
	HANDLE h;
	int found = 0;

	path(pattern, "*");
	h = FindFirstFileA(pattern, &fd);
	if (h == INVALID_HANDLE_VALUE)
		return 0;
	do
		found |= !strcmp(fd.cFileName, name);
	while (FindNextFileA(h, &fd));
	FindClose(h);
	return found;
}

int main(void)
{
	char tmp[MAX_PATH], p[MAX_PATH], full[MAX_PATH], want[MAX_PATH];
	WCHAR wlit[MAX_PATH];
	HANDLE h;
	DWORD n;

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(base, sizeof(base), "%sndshim-dots-%lu\\", tmp, GetCurrentProcessId());
	ok(CreateDirectoryA(base, NULL), "CreateDirectory %s: %lu\n", base, GetLastError());

	/* a trailing dot */
	h = create("a.txt.", CREATE_NEW);
	ok(h != INVALID_HANDLE_VALUE, "create a.txt.: %lu\n", GetLastError());
	CloseHandle(h);
	ok(listed("a.txt"), "a.txt. did not create a.txt\n");
	ok(!listed("a.txt."), "a.txt. kept its dot\n");
	h = create("a.txt", OPEN_EXISTING);
	ok(h != INVALID_HANDLE_VALUE, "open a.txt: %lu\n", GetLastError());
	CloseHandle(h);

	/* dots and spaces; and the file is found under the other spellings */
	SetLastError(0xdeadbeef);
	h = create("a.txt . .", CREATE_NEW);
	ok(h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_FILE_EXISTS,
	   "a.txt . . is not a.txt: %p, %lu\n", h, GetLastError());
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
	ok(exists("a.txt..") && exists("a.txt "), "a.txt.. or a.txt(space) not found\n");
	h = create("b.log  ", CREATE_ALWAYS);
	ok(h != INVALID_HANDLE_VALUE, "create b.log(spaces): %lu\n", GetLastError());
	CloseHandle(h);
	ok(listed("b.log") && !listed("b.log  "), "b.log(spaces) kept its spaces\n");

	/* a directory component ending in one dot */
	path(p, "sub.");
	ok(CreateDirectoryA(p, NULL), "CreateDirectory sub.: %lu\n", GetLastError());
	ok(listed("sub") && !listed("sub."), "sub. kept its dot\n");
	h = create("sub.\\c.txt", CREATE_NEW);
	ok(h != INVALID_HANDLE_VALUE, "create sub.\\c.txt: %lu\n", GetLastError());
	CloseHandle(h);
	ok(exists("sub\\c.txt"), "sub.\\c.txt is not sub\\c.txt\n");

	/* GetFullPathName trims the same way */
	path(p, "x.txt. ");
	n = GetFullPathNameA(p, sizeof(full), full, NULL);
	path(want, "x.txt");
	ok(n == strlen(want) && !strcmp(full, want), "GetFullPathName: %lu %s\n", n, full);
	path(p, "sub.\\y");
	GetFullPathNameA(p, sizeof(full), full, NULL);
	path(want, "sub\\y");
	ok(!strcmp(full, want), "GetFullPathName sub.\\y: %s\n", full);

	/* "\\?\" names are taken literally: the dot stays */
	path(p, "lit.txt.");
	GetFullPathNameA(p, sizeof(full), full, NULL);
	snprintf(p, sizeof(p), "\\\\?\\%s%s", base, "lit.txt.");
	MultiByteToWideChar(CP_ACP, 0, p, -1, wlit, MAX_PATH);
	h = CreateFileW(wlit, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "create \\\\?\\...lit.txt.: %lu\n", GetLastError());
	CloseHandle(h);
	ok(listed("lit.txt."), "the \\\\?\\ name lost its dot\n");
	ok(!exists("lit.txt"), "lit.txt. (trimmed) found the literal name\n");
	ok(DeleteFileW(wlit), "DeleteFile \\\\?\\...lit.txt.: %lu\n", GetLastError());

	/* DeleteFile and RemoveDirectory trim too */
	ok(DeleteFileA((path(p, "a.txt."), p)), "DeleteFile a.txt.: %lu\n", GetLastError());
	ok(!exists("a.txt"), "a.txt still there\n");
	DeleteFileA((path(p, "b.log"), p));
	DeleteFileA((path(p, "sub\\c.txt"), p));
	ok(RemoveDirectoryA((path(p, "sub."), p)), "RemoveDirectory sub.: %lu\n", GetLastError());
	ok(RemoveDirectoryA(base), "RemoveDirectory %s: %lu\n", base, GetLastError());
	return test_summary();
}
