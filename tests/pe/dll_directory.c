/* SetDllDirectory adds one folder to the DLL search, right after the
 * program's own; NULL takes it away again.  GetDllDirectory reports it.
 * GetModuleHandleExA finds a module by its ANSI name or by an address in
 * it, and pins or counts references as its flags say.  A DLL named by its
 * path in the system folder (as Go's runtime loads winmm.dll) is the
 * system's. */
#include <windows.h>

#include "test.h"

/* A copy of impdll.dll (a test DLL beside the program) under another name
 * in a new subfolder, made with plain file calls. */
static BOOL copy_dll(const char *from, const char *to)
{
	char buf[65536];
	HANDLE in = CreateFileA(from, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	HANDLE out = CreateFileA(to, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	DWORD n, w;
	BOOL ret = in != INVALID_HANDLE_VALUE && out != INVALID_HANDLE_VALUE;

	while (ret && ReadFile(in, buf, sizeof(buf), &n, NULL) && n)
		ret = WriteFile(out, buf, n, &w, NULL) && w == n;
	CloseHandle(in);
	CloseHandle(out);
	return ret;
}

int main(void)
{
	char exe[MAX_PATH], src[MAX_PATH], sub[MAX_PATH], dst[MAX_PATH], sys[MAX_PATH];
	WCHAR got[MAX_PATH];
	HMODULE h, h2, k32;
	char *slash;

	GetModuleFileNameA(NULL, exe, MAX_PATH);
	strcpy(src, exe);
	slash = strrchr(src, '\\');
	strcpy(slash + 1, "impdll.dll");
	snprintf(sub, sizeof(sub), "%s.dlldir-%lu", exe, GetCurrentProcessId());
	ok(CreateDirectoryA(sub, NULL), "cannot create %s: %lu\n", sub, GetLastError());
	snprintf(dst, sizeof(dst), "%s\\dlldir_moved.dll", sub);
	ok(copy_dll(src, dst), "cannot copy %s to %s\n", src, dst);

	SetLastError(0xdeadbeef);
	ok(LoadLibraryA("dlldir_moved.dll") == NULL, "found the DLL before SetDllDirectory\n");
	ok(GetDllDirectoryW(MAX_PATH, got) == 0, "a DLL directory is set at start\n");
	ok(SetDllDirectoryA(sub), "SetDllDirectoryA failed: %lu\n", GetLastError());
	ok(GetDllDirectoryW(MAX_PATH, got) > 0, "GetDllDirectoryW is empty\n");
	h = LoadLibraryA("dlldir_moved.dll");
	ok(h != NULL, "SetDllDirectory's folder is not searched: %lu\n", GetLastError());

	/* GetModuleHandleExA: by name (pinned), by address (no reference). */
	h2 = NULL;
	ok(GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, "DLLDIR_MOVED.DLL", &h2) && h2 == h,
	   "by name: %p, not %p\n", (void *)h2, (void *)h);
	h2 = NULL;
	ok(GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
			      (LPCSTR)(void *)main, &h2) && h2 == GetModuleHandleA(NULL),
	   "by address: %p\n", (void *)h2);
	SetLastError(0xdeadbeef);
	ok(!GetModuleHandleExA(0, "ndshim_not_loaded.dll", &h2) && h2 == NULL && GetLastError() == ERROR_MOD_NOT_FOUND,
	   "not loaded: %p, error %lu\n", (void *)h2, GetLastError());
	ok(FreeLibrary(h), "FreeLibrary failed\n");

	ok(SetDllDirectoryA(NULL), "SetDllDirectoryA(NULL) failed: %lu\n", GetLastError());
	ok(GetDllDirectoryW(MAX_PATH, got) == 0, "the DLL directory is still set\n");
	SetLastError(0xdeadbeef);
	ok(LoadLibraryA("dlldir_moved.dll") == NULL, "the folder is still searched after SetDllDirectory(NULL)\n");

	/* kernel32 by its full path in the system folder. */
	GetSystemDirectoryA(sys, MAX_PATH);
	strcat(sys, "\\kernel32.dll");
	k32 = LoadLibraryA(sys);
	ok(k32 == GetModuleHandleA("kernel32.dll"), "%s gave %p\n", sys, (void *)k32);

	DeleteFileA(dst);
	RemoveDirectoryA(sub);
	return test_summary();
}
