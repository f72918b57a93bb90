/* Tool Help snapshots: the process list holds this process under its
 * program's name with its thread count; the thread list holds this
 * process's threads (one started for the purpose too); the module list
 * holds the program and kernel32 with their bases; walks end with
 * ERROR_NO_MORE_FILES, a dwSize too small is ERROR_BAD_LENGTH, and the
 * snapshot is a handle CloseHandle frees. */
#include "test.h"
#include <tlhelp32.h>

static DWORD WINAPI idle(void *arg)
{
	WaitForSingleObject((HANDLE)arg, INFINITE);
	return 0;
}

int main(void)
{
	HANDLE stop = CreateEventW(NULL, TRUE, FALSE, NULL), snap;
	DWORD pid = GetCurrentProcessId(), tid, n;
	HANDLE thread = CreateThread(NULL, 0, idle, stop, 0, &tid);
	PROCESSENTRY32W pe = { .dwSize = sizeof(pe) };
	PROCESSENTRY32 pa = { .dwSize = sizeof(pa) };
	THREADENTRY32 te = { .dwSize = sizeof(te) };
	MODULEENTRY32W me = { .dwSize = sizeof(me) };
	MODULEENTRY32 ma = { .dwSize = sizeof(ma) };
	int found = 0, mine = 0, exe = 0, k32 = 0;
	BOOL more;

	snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS | TH32CS_SNAPTHREAD, 0);
	ok(snap != INVALID_HANDLE_VALUE, "snapshot failed: %lu\n", GetLastError());
	for (more = Process32FirstW(snap, &pe), n = 0; more; more = Process32NextW(snap, &pe), n++) {
		if (pe.th32ProcessID != pid)
			continue;
		found++;
		ok(!lstrcmpiW(pe.szExeFile, L"toolhelp.exe"), "this process is named %ls\n", pe.szExeFile);
		ok(pe.cntThreads >= 2, "%lu threads\n", pe.cntThreads);
	}
	ok(found == 1, "this process is listed %d times among %lu\n", found, n);
	ok(GetLastError() == ERROR_NO_MORE_FILES, "the walk ended with %lu\n", GetLastError());
	ok(Process32First(snap, &pa), "the A walk: %lu\n", GetLastError());
	found = 0;
	for (more = TRUE; more; more = Process32Next(snap, &pa))
		if (pa.th32ProcessID == pid)
			found = !lstrcmpiA(pa.szExeFile, "toolhelp.exe");
	ok(found, "not found by the A walk\n");
	for (more = Thread32First(snap, &te), found = 0; more; more = Thread32Next(snap, &te)) {
		if (te.th32OwnerProcessID != pid)
			continue;
		mine++;
		found += te.th32ThreadID == tid || te.th32ThreadID == GetCurrentThreadId();
	}
	ok(found == 2 && mine >= 2, "threads: %d of ours found, %d listed\n", found, mine);
	pe.dwSize = 8;
	SetLastError(0xdeadbeef);
	/* Documented: Process32First fails unless dwSize is set to the
	 * structure's size; Wine 8 does not check it. */
	ok_todo_wine(!Process32FirstW(snap, &pe) && GetLastError() == ERROR_BAD_LENGTH, "dwSize 8: error %lu\n",
		     GetLastError());
	ok(CloseHandle(snap), "CloseHandle failed\n");

	snap = CreateToolhelp32Snapshot(TH32CS_SNAPMODULE, 0);
	ok(snap != INVALID_HANDLE_VALUE, "module snapshot failed: %lu\n", GetLastError());
	for (more = Module32FirstW(snap, &me); more; more = Module32NextW(snap, &me)) {
		if (me.hModule == GetModuleHandleW(NULL)) {
			exe++;
			ok(me.modBaseAddr == (BYTE *)me.hModule && me.modBaseSize > 0, "program base %p, size %lu\n",
			   (void *)me.modBaseAddr, me.modBaseSize);
			ok(!lstrcmpiW(me.szModule, L"toolhelp.exe"), "program module %ls\n", me.szModule);
			ok(me.th32ProcessID == pid, "owner %lu\n", me.th32ProcessID);
		}
		if (!lstrcmpiW(me.szModule, L"kernel32.dll"))
			k32 += me.hModule == GetModuleHandleW(L"kernel32.dll");
	}
	ok(exe == 1 && k32 == 1, "program %d, kernel32 %d\n", exe, k32);
	ok(Module32First(snap, &ma) && ma.hModule != NULL, "the A module walk: %lu\n", GetLastError());
	CloseHandle(snap);

	SetEvent(stop);
	WaitForSingleObject(thread, INFINITE);
	CloseHandle(thread);
	return test_summary();
}
