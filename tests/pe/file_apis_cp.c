/* The code page of the file functions' A forms: AreFileApisANSI,
 * SetFileApisToOEM, SetFileApisToANSI.
 *
 * Windows rules checked (Microsoft's SetFileApisToOEM and AreFileApisANSI
 * docs): the file functions start in the ANSI code page; after
 * SetFileApisToOEM every kernel32 function that takes or returns a file
 * name uses the OEM code page (a name given in OEM bytes opens the file,
 * FindFirstFileA and GetCurrentDirectoryA return OEM bytes), per process,
 * until SetFileApisToANSI.  tests.list runs it with ANSI 1252 and OEM 437
 * (NDSHIM_ACP/NDSHIM_OEMCP for ndrun; Wine's en-US default), where
 * U+00E9 is 0xE9 and 0x82; with pages where that character does not
 * differ only the switch itself can be checked, and the output says so. */
#include "test.h"

static const WCHAR wname[] = L"ndshim_cp_\x00e9";

/* s in code page cp; FALSE when it cannot be said exactly there. */
static BOOL narrow(UINT cp, const WCHAR *s, char *out, int size)
{
	BOOL dflt = FALSE;

	return WideCharToMultiByte(cp, 0, s, -1, out, size, NULL, &dflt) > 0 && !dflt;
}

static void check_names(const char *mode, const char *name, const char *dir)
{
	WIN32_FIND_DATAA fd;
	char pattern[MAX_PATH], cwd[MAX_PATH], *tail;
	HANDLE h;
	DWORD n;

	ok(GetFileAttributesA(name) != INVALID_FILE_ATTRIBUTES, "%s: GetFileAttributesA: %lu\n", mode,
	   GetLastError());
	h = CreateFileA(name, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "%s: CreateFileA: %lu\n", mode, GetLastError());
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
	strcpy(pattern, "ndshim_cp_*");
	h = FindFirstFileA(pattern, &fd);
	ok(h != INVALID_HANDLE_VALUE && !strcmp(fd.cFileName, name), "%s: FindFirstFileA [%s], want [%s]\n",
	   mode, h != INVALID_HANDLE_VALUE ? fd.cFileName : "", name);
	if (h != INVALID_HANDLE_VALUE)
		FindClose(h);
	/* the current folder is the file's parent: its name, the same bytes */
	n = GetCurrentDirectoryA(sizeof(cwd), cwd);
	tail = strrchr(cwd, '\\');
	ok(n && tail && !strcmp(tail + 1, dir), "%s: GetCurrentDirectoryA [%s], want ...\\%s\n", mode, cwd, dir);
}

int main(void)
{
	WCHAR tmp[MAX_PATH], dirw[MAX_PATH], start[MAX_PATH];
	char ansi[64], oem[64], ansi_dir[64], oem_dir[64];
	HANDLE h;

	ok(AreFileApisANSI(), "the file functions do not start in the ANSI code page\n");
	SetFileApisToOEM();
	ok(!AreFileApisANSI(), "AreFileApisANSI after SetFileApisToOEM\n");
	SetFileApisToANSI();
	ok(AreFileApisANSI(), "AreFileApisANSI after SetFileApisToANSI\n");

	if (!narrow(CP_ACP, wname, ansi, sizeof(ansi)) || !narrow(CP_OEMCP, wname, oem, sizeof(oem)) ||
	    !strcmp(ansi, oem)) {
		printf("file_apis_cp: U+00E9 is not two different bytes in code pages %u and %u: the names' "
		       "conversions NOT checked\n",
		       GetACP(), GetOEMCP());
		return test_summary();
	}
	narrow(CP_ACP, L"ndshim_dir_\x00e9", ansi_dir, sizeof(ansi_dir));
	narrow(CP_OEMCP, L"ndshim_dir_\x00e9", oem_dir, sizeof(oem_dir));

	GetCurrentDirectoryW(MAX_PATH, start);
	GetTempPathW(MAX_PATH, tmp);
	lstrcpyW(dirw, tmp);
	lstrcatW(dirw, L"ndshim_dir_\x00e9");
	CreateDirectoryW(dirw, NULL);
	ok(SetCurrentDirectoryW(dirw), "SetCurrentDirectoryW: %lu\n", GetLastError());
	h = CreateFileW(wname, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFileW: %lu\n", GetLastError());
	CloseHandle(h);

	check_names("ANSI", ansi, ansi_dir);
	SetFileApisToOEM();
	check_names("OEM", oem, oem_dir);
	/* the ANSI bytes name another file now */
	ok(GetFileAttributesA(ansi) == INVALID_FILE_ATTRIBUTES, "OEM: the ANSI name still found\n");
	ok(SetCurrentDirectoryA(".."), "SetCurrentDirectoryA(..): %lu\n", GetLastError());
	ok(SetCurrentDirectoryA(oem_dir), "OEM: SetCurrentDirectoryA: %lu\n", GetLastError());
	SetFileApisToANSI();
	check_names("ANSI again", ansi, ansi_dir);

	ok(DeleteFileW(wname), "DeleteFileW: %lu\n", GetLastError());
	SetCurrentDirectoryW(start);
	ok(RemoveDirectoryW(dirw), "RemoveDirectoryW: %lu\n", GetLastError());
	return test_summary();
}
