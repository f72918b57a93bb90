/* MoveFileEx/MoveFile: a rename, an existing target refused without
 * MOVEFILE_REPLACE_EXISTING (ERROR_ALREADY_EXISTS) and replaced with it,
 * a directory never replaced, a missing source (ERROR_FILE_NOT_FOUND)
 * or target folder (ERROR_PATH_NOT_FOUND). */
#include <windows.h>

#include "test.h"

static char a[MAX_PATH], b[MAX_PATH], dir[MAX_PATH];

static void make(const char *path, const char *text)
{
	HANDLE h = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	DWORD done;

	ok(h != INVALID_HANDLE_VALUE, "create %s: %lu\n", path, GetLastError());
	WriteFile(h, text, (DWORD)strlen(text), &done, NULL);
	CloseHandle(h);
}

static DWORD size_of(const char *path)
{
	WIN32_FILE_ATTRIBUTE_DATA d;

	return GetFileAttributesExA(path, GetFileExInfoStandard, &d) ? d.nFileSizeLow : (DWORD)-1;
}

int main(void)
{
	char tmp[MAX_PATH], nowhere[MAX_PATH];

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(a, sizeof(a), "%sndshim-move-a-%lu", tmp, GetCurrentProcessId());
	snprintf(b, sizeof(b), "%sndshim-move-b-%lu", tmp, GetCurrentProcessId());
	snprintf(dir, sizeof(dir), "%sndshim-move-d-%lu", tmp, GetCurrentProcessId());
	snprintf(nowhere, sizeof(nowhere), "%sndshim-no-such-folder\\x", tmp);

	make(a, "aaa");
	ok(MoveFileA(a, b), "MoveFile: %lu\n", GetLastError());
	ok(GetFileAttributesA(a) == INVALID_FILE_ATTRIBUTES && size_of(b) == 3, "not moved\n");

	make(a, "aaaaa");
	SetLastError(0xdeadbeef);
	ok(!MoveFileExA(a, b, 0), "an existing target was replaced without MOVEFILE_REPLACE_EXISTING\n");
	ok(GetLastError() == ERROR_ALREADY_EXISTS, "error %lu\n", GetLastError());
	ok(size_of(b) == 3 && size_of(a) == 5, "files changed by a refused move\n");
	ok(MoveFileExA(a, b, MOVEFILE_REPLACE_EXISTING), "replace: %lu\n", GetLastError());
	ok(size_of(b) == 5 && GetFileAttributesA(a) == INVALID_FILE_ATTRIBUTES, "not replaced\n");

	ok(CreateDirectoryA(dir, NULL), "CreateDirectory\n");
	SetLastError(0xdeadbeef);
	ok(!MoveFileExA(b, dir, MOVEFILE_REPLACE_EXISTING), "a directory was replaced by a file\n");
	ok(GetLastError() == ERROR_ACCESS_DENIED, "error %lu\n", GetLastError());

	SetLastError(0xdeadbeef);
	ok(!MoveFileExA(a, b, MOVEFILE_REPLACE_EXISTING), "a missing source moved\n");
	ok(GetLastError() == ERROR_FILE_NOT_FOUND, "missing source: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!MoveFileExA(b, nowhere, 0), "moved into a missing folder\n");
	ok(GetLastError() == ERROR_PATH_NOT_FOUND, "missing folder: error %lu\n", GetLastError());

	ok(MoveFileExW(L"", NULL, 0) == FALSE, "NULL target accepted\n");
	DeleteFileA(b);
	RemoveDirectoryA(dir);
	return test_summary();
}
