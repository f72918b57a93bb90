/* psapi for the current process: memory counters, the module list,
 * module names and information, through kernel32's K32* names and
 * through psapi.dll's own. */
#include <wchar.h>

#include "test.h"

#include <psapi.h>

typedef BOOL(WINAPI *enum_fn)(HANDLE, HMODULE *, DWORD, DWORD *);
typedef BOOL(WINAPI *pmi_fn)(HANDLE, PPROCESS_MEMORY_COUNTERS, DWORD);
typedef DWORD(WINAPI *name_fn)(HANDLE, HMODULE, LPWSTR, DWORD);

typedef struct {
	PROCESS_MEMORY_COUNTERS base;
	SIZE_T PrivateUsage;
} pmc_ex;

static void test_memory(void)
{
	PROCESS_MEMORY_COUNTERS pmc;
	pmc_ex ex;
	SIZE_T before;
	char *block;
	BOOL ret;

	ret = K32GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof(pmc));
	ok(ret, "K32GetProcessMemoryInfo: %lu\n", GetLastError());
	ok(pmc.cb == sizeof(pmc), "cb %lu\n", pmc.cb);
	ok(pmc.WorkingSetSize > 100 * 1024 && pmc.PeakWorkingSetSize >= pmc.WorkingSetSize,
	   "working set %zu, peak %zu\n", pmc.WorkingSetSize, pmc.PeakWorkingSetSize);
	ok(pmc.PagefileUsage > 0 && pmc.PeakPagefileUsage >= pmc.PagefileUsage,
	   "pagefile %zu, peak %zu\n", pmc.PagefileUsage, pmc.PeakPagefileUsage);
	before = pmc.WorkingSetSize;

	/* 32 MB touched shows in the working set. */
	block = VirtualAlloc(NULL, 32 << 20, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	for (size_t i = 0; block && i < (32 << 20); i += 4096)
		block[i] = 1;
	ret = K32GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof(pmc));
	ok(ret && pmc.WorkingSetSize >= before + (24 << 20), "working set %zu after 32 MB, %zu before\n",
	   pmc.WorkingSetSize, before);
	ok(pmc.PagefileUsage >= (32 << 20), "commit %zu after committing 32 MB\n", pmc.PagefileUsage);
	VirtualFree(block, 0, MEM_RELEASE);

	/* PROCESS_MEMORY_COUNTERS_EX: PrivateUsage too (Wine fills only the
	 * basic structure). */
	memset(&ex, 0xcc, sizeof(ex));
	ret = K32GetProcessMemoryInfo(GetCurrentProcess(), &ex.base, sizeof(ex));
	ok(ret, "EX: %lu\n", GetLastError());
	ok_todo_wine(ex.base.cb == sizeof(ex) && ex.PrivateUsage > 0 && ex.PrivateUsage != (SIZE_T)-1 &&
		     ex.PrivateUsage != 0xccccccccccccccccull, "EX: cb %lu, PrivateUsage %zu\n", ex.base.cb,
		     ex.PrivateUsage);

	SetLastError(0xdeadbeef);
	ret = K32GetProcessMemoryInfo(GetCurrentProcess(), &pmc, 10);
	ok(!ret && GetLastError() == ERROR_INSUFFICIENT_BUFFER, "small cb: %d, error %lu\n", ret,
	   GetLastError());
	SetLastError(0xdeadbeef);
	ret = K32GetProcessMemoryInfo(CreateEventA(NULL, FALSE, FALSE, NULL), &pmc, sizeof(pmc));
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "event handle: %d, error %lu\n", ret,
	   GetLastError());
}

static void test_modules(void)
{
	HMODULE mods[128], k32 = GetModuleHandleA("kernel32.dll"), exe = GetModuleHandleA(NULL);
	DWORD needed = 0, n;
	MODULEINFO mi;
	WCHAR name[MAX_PATH], full[MAX_PATH];
	char aname[MAX_PATH];
	int found_k32 = 0;
	BOOL ret;

	ret = K32EnumProcessModules(GetCurrentProcess(), mods, sizeof(mods), &needed);
	ok(ret && needed >= 2 * sizeof(HMODULE), "K32EnumProcessModules: %d, needed %lu\n", ret, needed);
	ok(mods[0] == exe, "the program is not first: %p, %p\n", mods[0], exe);
	for (DWORD i = 0; i < needed / sizeof(HMODULE) && i < 128; i++)
		found_k32 |= mods[i] == k32;
	ok(found_k32, "kernel32 not listed\n");
	n = needed;
	ret = K32EnumProcessModules(GetCurrentProcess(), NULL, 0, &needed);
	ok(ret && needed == n, "size query: %d, %lu\n", ret, needed);
	ret = K32EnumProcessModules(GetCurrentProcess(), mods, sizeof(HMODULE), &needed);
	ok(ret && needed == n && mods[0] == exe, "one slot: %d, %lu\n", ret, needed);

	n = K32GetModuleBaseNameW(GetCurrentProcess(), NULL, name, MAX_PATH);
	ok(n == 14 && !wcscmp(name, L"psapi_info.exe"), "base name %lu %ls\n", n, name);
	n = K32GetModuleBaseNameW(GetCurrentProcess(), k32, name, MAX_PATH);
	ok(n == 12 && !_wcsicmp(name, L"kernel32.dll"), "kernel32 base name %lu %ls\n", n, name);
	n = K32GetModuleBaseNameA(GetCurrentProcess(), NULL, aname, MAX_PATH);
	ok(n == 14 && !strcmp(aname, "psapi_info.exe"), "base name A %lu %s\n", n, aname);
	/* Cut to the buffer. */
	n = K32GetModuleBaseNameW(GetCurrentProcess(), NULL, name, 4);
	ok(n == 4 && !wcsncmp(name, L"psap", 4), "cut base name %lu\n", n);

	n = K32GetModuleFileNameExW(GetCurrentProcess(), NULL, full, MAX_PATH);
	GetModuleFileNameW(NULL, name, MAX_PATH);
	ok(n > 14 && !wcscmp(full, name), "file name %ls, GetModuleFileName %ls\n", full, name);
	n = K32GetModuleFileNameExA(GetCurrentProcess(), NULL, aname, MAX_PATH);
	ok(n > 14 && aname[1] == ':' && strstr(aname, "psapi_info.exe"), "file name A %s\n", aname);
	memset(full, 0xcc, sizeof(full));
	n = K32GetModuleFileNameExW(GetCurrentProcess(), NULL, full, 4);
	ok(n == 4 && full[3] == 0, "cut file name: %lu, [3] %#x\n", n, full[3]);

	ret = K32GetModuleInformation(GetCurrentProcess(), exe, &mi, sizeof(mi));
	ok(ret && mi.lpBaseOfDll == exe && mi.SizeOfImage >= 4096 && mi.EntryPoint &&
	   (char *)mi.EntryPoint > (char *)exe && (char *)mi.EntryPoint < (char *)exe + mi.SizeOfImage,
	   "program: base %p, size %lu, entry %p\n", mi.lpBaseOfDll, (unsigned long)mi.SizeOfImage,
	   mi.EntryPoint);
	ret = K32GetModuleInformation(GetCurrentProcess(), k32, &mi, sizeof(mi));
	ok(ret && mi.lpBaseOfDll == k32 && mi.SizeOfImage > 0, "kernel32: base %p, size %lu\n",
	   mi.lpBaseOfDll, (unsigned long)mi.SizeOfImage);
	SetLastError(0xdeadbeef);
	ret = K32GetModuleInformation(GetCurrentProcess(), (HMODULE)0x1230000, &mi, sizeof(mi));
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "not a module: %d, error %lu\n", ret,
	   GetLastError());
	SetLastError(0xdeadbeef);
	n = K32GetModuleBaseNameW(GetCurrentProcess(), (HMODULE)0x1230000, name, MAX_PATH);
	ok(!n && GetLastError() == ERROR_INVALID_HANDLE, "base name of no module: %lu, error %lu\n", n,
	   GetLastError());
}

/* psapi.dll exports the same functions under their classic names. */
static void test_psapi_dll(void)
{
	HMODULE psapi = LoadLibraryA("psapi.dll");
	PROCESS_MEMORY_COUNTERS pmc;
	HMODULE mods[64];
	WCHAR name[MAX_PATH];
	DWORD needed;
	enum_fn enum_modules;
	pmi_fn pmi;
	name_fn base_name, file_name;

	ok(psapi != NULL, "LoadLibrary(psapi.dll): %lu\n", GetLastError());
	if (!psapi)
		return;
	enum_modules = (enum_fn)(void *)GetProcAddress(psapi, "EnumProcessModules");
	pmi = (pmi_fn)(void *)GetProcAddress(psapi, "GetProcessMemoryInfo");
	base_name = (name_fn)(void *)GetProcAddress(psapi, "GetModuleBaseNameW");
	file_name = (name_fn)(void *)GetProcAddress(psapi, "GetModuleFileNameExW");
	ok(enum_modules && pmi && base_name && file_name, "psapi.dll lacks a function\n");
	if (!enum_modules || !pmi || !base_name || !file_name)
		return;
	ok(enum_modules(GetCurrentProcess(), mods, sizeof(mods), &needed) && mods[0] == GetModuleHandleA(NULL),
	   "EnumProcessModules\n");
	ok(pmi(GetCurrentProcess(), &pmc, sizeof(pmc)) && pmc.WorkingSetSize > 0, "GetProcessMemoryInfo\n");
	ok(base_name(GetCurrentProcess(), NULL, name, MAX_PATH) == 14, "GetModuleBaseNameW\n");
	ok(file_name(GetCurrentProcess(), NULL, name, MAX_PATH) > 14, "GetModuleFileNameExW\n");
	FreeLibrary(psapi);
}

int main(void)
{
	test_memory();
	test_modules();
	test_psapi_dll();
	return test_summary();
}
