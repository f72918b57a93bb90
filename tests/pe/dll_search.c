/* Which file a DLL name loads (LoadLibrary's search order, "Dynamic-link
 * library search order" in Microsoft's docs):
 *   - a DLL on the KnownDLLs list (ws2_32, psapi, ...) always comes from
 *     the system, even when a file of that name lies beside the program;
 *   - any other DLL beside the program is loaded from there first, also
 *     when the system has one of that name (bcrypt is not a known DLL);
 *   - under ndrun, NDSHIM_DLL_OVERRIDES turns that around per DLL, as
 *     WINEDLLOVERRIDES does for Wine.
 * The program copies itself and fakesys.dll (under those names) into a
 * fresh folder and runs the copy there ("child"), which checks what each
 * LoadLibrary returned by looking for fakesys's marker export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static char folder[MAX_PATH];

/* CopyFile's job with the basic calls only. */
static BOOL copy_file(const char *from, const char *to)
{
	HANDLE in = CreateFileA(from, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL), out;
	char buf[65536];
	DWORD n, w;
	BOOL ok = TRUE;

	if (in == INVALID_HANDLE_VALUE)
		return FALSE;
	out = CreateFileA(to, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	if (out == INVALID_HANDLE_VALUE) {
		CloseHandle(in);
		return FALSE;
	}
	while (ok && ReadFile(in, buf, sizeof(buf), &n, NULL) && n)
		ok = WriteFile(out, buf, n, &w, NULL) && w == n;
	CloseHandle(in);
	CloseHandle(out);
	return ok;
}

/* Did LoadLibrary(name) give the fake (1), the system's DLL (0), or
 * fail (-1)? */
static int loads_fake(const char *name)
{
	HMODULE h = LoadLibraryA(name);

	if (!h)
		return -1;
	return GetProcAddress(h, "FakeSysMarker") != NULL;
}

static int child(const char *mode)
{
	if (!strcmp(mode, "default")) {
		/* Known DLLs: the system's, never the file beside the program. */
		ok(loads_fake("ws2_32.dll") == 0, "ws2_32.dll beside the program was loaded\n");
		ok(loads_fake("PSAPI.DLL") == 0, "psapi.dll beside the program was loaded\n");
		ok(GetProcAddress(GetModuleHandleA("ws2_32.dll"), "WSAStartup") != NULL,
		   "ws2_32.dll without WSAStartup\n");
		/* Not known: the program's own copy comes first.  Wine loads
		 * its own bcrypt first (its default load order puts the DLLs
		 * it implements before files beside the program). */
		ok_todo_wine(loads_fake("bcrypt.dll") == 1, "bcrypt.dll beside the program was not loaded\n");
		ok(loads_fake("mine") == 1, "mine.dll beside the program was not loaded\n");
	} else {
		/* NDSHIM_DLL_OVERRIDES=ws2_32=n;bcrypt=b;psapi=b,n */
		ok(loads_fake("ws2_32.dll") == 1, "ws2_32=n: the file beside the program was not loaded\n");
		ok(loads_fake("bcrypt.dll") == 0, "bcrypt=b: the file beside the program was loaded\n");
		ok(loads_fake("psapi.dll") == 0, "psapi=b,n: the file beside the program was loaded\n");
		ok(loads_fake("mine.dll") == 1, "mine.dll (not named) was not loaded\n");
	}
	return test_summary();
}

static DWORD run(const char *mode, const char *overrides)
{
	STARTUPINFOA si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	char line[2 * MAX_PATH], exe[MAX_PATH];
	DWORD code = 255;

	snprintf(exe, sizeof(exe), "%s\\dll_search.exe", folder);
	snprintf(line, sizeof(line), "\"%s\" child %s", exe, mode);
	SetEnvironmentVariableA("NDSHIM_DLL_OVERRIDES", overrides);
	if (!CreateProcessA(exe, line, NULL, NULL, FALSE, 0, NULL, folder, &si, &pi)) {
		ok(0, "CreateProcess(%s): %lu\n", exe, GetLastError());
		return code;
	}
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	SetEnvironmentVariableA("NDSHIM_DLL_OVERRIDES", NULL);
	return code;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "ws2_32.dll", "psapi.dll", "bcrypt.dll", "mine.dll" };
	char self[MAX_PATH], fake[MAX_PATH], path[MAX_PATH], tmp[MAX_PATH], *slash;

	if (argc == 3 && !strcmp(argv[1], "child"))
		return child(argv[2]);

	GetModuleFileNameA(NULL, self, sizeof(self));
	strcpy(fake, self);
	slash = strrchr(fake, '\\');
	strcpy(slash + 1, "fakesys.dll");
	GetTempPathA(sizeof(tmp), tmp);
	snprintf(folder, sizeof(folder), "%sdll_search_%lu", tmp, GetCurrentProcessId());
	ok(CreateDirectoryA(folder, NULL), "CreateDirectory(%s): %lu\n", folder, GetLastError());
	snprintf(path, sizeof(path), "%s\\dll_search.exe", folder);
	ok(copy_file(self, path), "copy %s: %lu\n", self, GetLastError());
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s\\%s", folder, names[i]);
		ok(copy_file(fake, path), "copy %s to %s: %lu\n", fake, path, GetLastError());
	}

	ok(run("default", NULL) == 0, "the known DLLs and the program's own DLLs (child failed)\n");
	/* The override variable is ndrun's (Wine reads WINEDLLOVERRIDES). */
	if (!test_on_wine())
		ok(run("overrides", "ws2_32=n;bcrypt=b;psapi=b,n") == 0, "NDSHIM_DLL_OVERRIDES (child failed)\n");

	snprintf(path, sizeof(path), "%s\\dll_search.exe", folder);
	DeleteFileA(path);
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s\\%s", folder, names[i]);
		DeleteFileA(path);
	}
	ok(RemoveDirectoryA(folder), "RemoveDirectory(%s): %lu\n", folder, GetLastError());
	return test_summary();
}
