/* psapi (K32* in kernel32, and psapi.dll's names for them): process
 * memory counters and the module list, for the current process (the
 * only process object ndshim has, so any other process handle is not a
 * process: ERROR_INVALID_HANDLE).
 *
 * Memory counters come from /proc/self/status: WorkingSetSize is VmRSS,
 * PeakWorkingSetSize VmHWM, PagefileUsage and PrivateUsage (the commit
 * charge: private memory) VmData + VmStk; PeakPagefileUsage is the
 * largest PagefileUsage these calls have seen (Linux keeps no peak of
 * it).  PageFaultCount is getrusage's minor + major faults; the kernel
 * pool quotas are 0 (a Linux process has none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

/* From Microsoft's psapi.h; the Wine headers lack them. */
typedef struct {
	PROCESS_MEMORY_COUNTERS base;
	SIZE_T PrivateUsage;
} ndshim_PROCESS_MEMORY_COUNTERS_EX;
_Static_assert(sizeof(ndshim_PROCESS_MEMORY_COUNTERS_EX) == 80, "ndshim_PROCESS_MEMORY_COUNTERS_EX is 80 bytes");
#ifndef LIST_MODULES_ALL
#define LIST_MODULES_ALL 0x03
#endif

static BOOL check_process(HANDLE process)
{
	struct object *obj = handle_get(process, &process_ops);

	if (!obj)
		return FALSE;
	object_unref(obj);
	return TRUE;
}

/* kB values of /proc/self/status, by field name; 0 when absent. */
static bool read_status(SIZE_T *rss, SIZE_T *hwm, SIZE_T *data, SIZE_T *stk)
{
	char line[256];
	unsigned long long v;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	*rss = *hwm = *data = *stk = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmRSS: %llu", &v) == 1)
			*rss = v * 1024;
		else if (sscanf(line, "VmHWM: %llu", &v) == 1)
			*hwm = v * 1024;
		else if (sscanf(line, "VmData: %llu", &v) == 1)
			*data = v * 1024;
		else if (sscanf(line, "VmStk: %llu", &v) == 1)
			*stk = v * 1024;
	}
	fclose(f);
	return true;
}

BOOL WINAPI K32GetProcessMemoryInfo(HANDLE process, PPROCESS_MEMORY_COUNTERS pmc, DWORD cb)
{
	static SIZE_T peak_commit;
	SIZE_T rss, hwm, data, stk, commit, peak;
	struct rusage ru;

	TRACE(misc, "%p, %u\n", process, cb);
	if (!check_process(process))
		return FALSE;
	if (cb < sizeof(PROCESS_MEMORY_COUNTERS)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	if (!read_status(&rss, &hwm, &data, &stk) || getrusage(RUSAGE_SELF, &ru)) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	commit = data + stk;
	peak = __atomic_load_n(&peak_commit, __ATOMIC_RELAXED);
	while (commit > peak && !__atomic_compare_exchange_n(&peak_commit, &peak, commit, false,
							     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	memset(pmc, 0, sizeof(*pmc));
	pmc->cb = sizeof(PROCESS_MEMORY_COUNTERS);
	pmc->PageFaultCount = (DWORD)(ru.ru_minflt + ru.ru_majflt);
	pmc->WorkingSetSize = rss;
	pmc->PeakWorkingSetSize = hwm > rss ? hwm : rss;
	pmc->PagefileUsage = commit;
	pmc->PeakPagefileUsage = commit > peak ? commit : peak;
	if (cb >= sizeof(ndshim_PROCESS_MEMORY_COUNTERS_EX)) {
		pmc->cb = sizeof(ndshim_PROCESS_MEMORY_COUNTERS_EX);
		((ndshim_PROCESS_MEMORY_COUNTERS_EX *)pmc)->PrivateUsage = commit;
	}
	return TRUE;
}

BOOL WINAPI K32EnumProcessModules(HANDLE process, HMODULE *modules, DWORD cb, DWORD *needed)
{
	DWORD n;

	if (!check_process(process))
		return FALSE;
	if (!needed || (cb && !modules)) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	n = loader_enum_modules(modules, modules ? cb / sizeof(HMODULE) : 0);
	*needed = n * sizeof(HMODULE);
	TRACE(misc, "%u modules\n", n);
	return TRUE;
}

/* Every module is a 64-bit one: the filter changes nothing. */
BOOL WINAPI K32EnumProcessModulesEx(HANDLE process, HMODULE *modules, DWORD cb, DWORD *needed,
				    DWORD filter)
{
	if (filter & ~LIST_MODULES_ALL) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return K32EnumProcessModules(process, modules, cb, needed);
}

BOOL WINAPI K32GetModuleInformation(HANDLE process, HMODULE module, LPMODULEINFO info, DWORD cb)
{
	const char *name;
	void *base, *entry;
	DWORD size;

	if (!check_process(process))
		return FALSE;
	if (cb < sizeof(MODULEINFO)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	if (!loader_module_info(module, &base, &size, &entry, &name))
		return FALSE;
	info->lpBaseOfDll = base;
	info->SizeOfImage = size;
	info->EntryPoint = entry;
	return TRUE;
}

/* As much of s as fits in size characters, terminated when it all fits;
 * the count copied.  (Windows neither terminates nor fails a cut base
 * name.) */
static DWORD copy_w(const WCHAR *s, WCHAR *buf, DWORD size)
{
	DWORD len = (DWORD)wstr_len(s), n = len < size ? len : size;

	memcpy(buf, s, n * sizeof(WCHAR));
	if (n < size)
		buf[n] = 0;
	return n;
}

DWORD WINAPI K32GetModuleBaseNameW(HANDLE process, HMODULE module, LPWSTR buf, DWORD size)
{
	const char *name;
	void *base, *entry;
	DWORD isize, n;
	WCHAR *w;

	if (!check_process(process) || !loader_module_info(module, &base, &isize, &entry, &name))
		return 0;
	if (!buf || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	w = utf8_to_utf16_dup(name);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	n = copy_w(w, buf, size);
	free(w);
	return n;
}

DWORD WINAPI K32GetModuleBaseNameA(HANDLE process, HMODULE module, LPSTR buf, DWORD size)
{
	WCHAR w[MAX_PATH];
	DWORD n;
	char *a;

	if (!buf || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!(n = K32GetModuleBaseNameW(process, module, w, MAX_PATH)))
		return 0;
	w[n < MAX_PATH ? n : MAX_PATH - 1] = 0;
	a = utf16_to_cp_dup(cp_ansi(), w);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	n = (DWORD)strlen(a);
	if (n > size)
		n = size;
	memcpy(buf, a, n);
	if (n < size)
		buf[n] = 0;
	free(a);
	return n;
}

/* GetModuleFileNameW's rules for the current process: a cut name is
 * terminated, the result is size and the error ERROR_INSUFFICIENT_BUFFER. */
DWORD WINAPI K32GetModuleFileNameExW(HANDLE process, HMODULE module, LPWSTR buf, DWORD size)
{
	if (!check_process(process))
		return 0;
	return GetModuleFileNameW(module, buf, size);
}

DWORD WINAPI K32GetModuleFileNameExA(HANDLE process, HMODULE module, LPSTR buf, DWORD size)
{
	if (!check_process(process))
		return 0;
	return GetModuleFileNameA(module, buf, size);
}
