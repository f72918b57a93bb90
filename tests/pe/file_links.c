/* CreateSymbolicLinkW and CreateHardLinkW: a file read through a
 * symbolic link (absolute target, and relative to the link's folder) and
 * through a hard link holds the original's bytes; a hard link raises the
 * link count to 2; a name that exists is ERROR_ALREADY_EXISTS; removing
 * the link leaves the file.  Windows asks for a privilege to make
 * symbolic links unless SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE is
 * given in developer mode: the test passes the flag.  Wine 8 makes a
 * symbolic link that cannot be read through or deleted as a file: its
 * symlink checks are todo_wine. */
#include "test.h"

#ifndef SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE
#define SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE 0x2
#endif

static int read_back(const WCHAR *name, char *buf, DWORD size)
{
	HANDLE h = CreateFileW(name, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	DWORD n = 0;

	if (h == INVALID_HANDLE_VALUE)
		return -1;
	ReadFile(h, buf, size - 1, &n, NULL);
	buf[n] = 0;
	CloseHandle(h);
	return (int)n;
}

int main(void)
{
	WCHAR dir[MAX_PATH], sub[MAX_PATH], file[MAX_PATH], sym[MAX_PATH], rel[MAX_PATH], hard[MAX_PATH];
	BY_HANDLE_FILE_INFORMATION bhi;
	char buf[64];
	HANDLE h;
	DWORD n;

	GetTempPathW(MAX_PATH, dir);
	wsprintfW(sub, L"%sndshim-links-%lu", dir, GetCurrentProcessId());
	wsprintfW(file, L"%s\\data.txt", sub);
	wsprintfW(sym, L"%s\\sym.txt", sub);
	wsprintfW(rel, L"%s\\rel.txt", sub);
	wsprintfW(hard, L"%s\\hard.txt", sub);
	/* What an earlier run under Wine could not remove. */
	DeleteFileW(sym);
	DeleteFileW(rel);
	DeleteFileW(hard);
	ok(CreateDirectoryW(sub, NULL) || GetLastError() == ERROR_ALREADY_EXISTS, "cannot create the folder: %lu\n",
	   GetLastError());
	h = CreateFileW(file, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE && WriteFile(h, "linked bytes", 12, &n, NULL), "cannot write the file\n");
	CloseHandle(h);

	ok(CreateSymbolicLinkW(sym, file, SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE), "absolute symlink: %lu\n",
	   GetLastError());
	ok_todo_wine(read_back(sym, buf, sizeof(buf)) == 12 && !strcmp(buf, "linked bytes"), "through the symlink: %s\n",
		     buf);
	ok(CreateSymbolicLinkW(rel, L"data.txt", SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE), "relative symlink: %lu\n",
	   GetLastError());
	ok_todo_wine(read_back(rel, buf, sizeof(buf)) == 12 && !strcmp(buf, "linked bytes"),
		     "through the relative link: %s\n", buf);
	SetLastError(0xdeadbeef);
	ok_todo_wine(!CreateSymbolicLinkW(sym, file, SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE) &&
		   GetLastError() == ERROR_ALREADY_EXISTS,
	   "an existing name: error %lu\n", GetLastError());

	ok(CreateHardLinkW(hard, file, NULL), "hard link: %lu\n", GetLastError());
	ok(read_back(hard, buf, sizeof(buf)) == 12 && !strcmp(buf, "linked bytes"), "through the hard link: %s\n", buf);
	h = CreateFileW(file, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	ok(GetFileInformationByHandle(h, &bhi) && bhi.nNumberOfLinks == 2, "links: %lu\n", bhi.nNumberOfLinks);
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	ok(!CreateHardLinkW(hard, file, NULL) && GetLastError() == ERROR_ALREADY_EXISTS, "existing hard link: %lu\n",
	   GetLastError());

	ok(DeleteFileW(hard), "removing the hard link failed: %lu\n", GetLastError());
	ok_todo_wine(DeleteFileW(sym) && DeleteFileW(rel), "removing the symlinks failed: %lu\n", GetLastError());
	ok(read_back(file, buf, sizeof(buf)) == 12, "the file went with its links\n");
	DeleteFileW(file);
	ok_todo_wine(RemoveDirectoryW(sub), "the folder is not empty: %lu\n", GetLastError());
	return test_summary();
}
