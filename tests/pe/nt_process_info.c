/* The ntdll queries runtimes make at start, looked up with GetProcAddress
 * as they do: NtQueryInformationProcess (basic information, debug port,
 * WOW64), RtlGetCurrentPeb, NtQuerySystemInformation (basic, processor
 * times), RtlImageNtHeader, and the section lookups GraalVM native
 * images use on a copy of their own file (RtlImageRvaToSection,
 * RtlImageRvaToVa, RtlAddressInSectionTable). */
#include <windows.h>
#include <winternl.h>

#include "test.h"

typedef NTSTATUS(WINAPI *qip_fn)(HANDLE, PROCESSINFOCLASS, void *, ULONG, ULONG *);
typedef NTSTATUS(WINAPI *qsi_fn)(SYSTEM_INFORMATION_CLASS, void *, ULONG, ULONG *);
typedef PEB *(WINAPI *peb_fn)(void);
typedef IMAGE_NT_HEADERS *(WINAPI *nth_fn)(HMODULE);
typedef IMAGE_SECTION_HEADER *(WINAPI *rvasec_fn)(const IMAGE_NT_HEADERS *, HMODULE, DWORD);
typedef void *(WINAPI *rvava_fn)(const IMAGE_NT_HEADERS *, HMODULE, DWORD, IMAGE_SECTION_HEADER **);
typedef void *(WINAPI *insec_fn)(const IMAGE_NT_HEADERS *, HMODULE, DWORD);
typedef void(WINAPI *ntver_fn)(ULONG *, ULONG *, ULONG *);
typedef NTSTATUS(WINAPI *rtlver_fn)(OSVERSIONINFOEXW *);
typedef NTSTATUS(WINAPI *wait_fn)(HANDLE, BOOLEAN, const LARGE_INTEGER *);

/* Microsoft's layouts (winternl.h leaves the fields reserved). */
struct basic_process {
	NTSTATUS ExitStatus;
	PEB *PebBaseAddress;
	ULONG_PTR AffinityMask;
	LONG BasePriority;
	ULONG_PTR UniqueProcessId;
	ULONG_PTR InheritedFromUniqueProcessId;
};

struct basic_system {
	ULONG Reserved, TimerResolution, PageSize, NumberOfPhysicalPages, LowestPhysicalPageNumber,
		HighestPhysicalPageNumber, AllocationGranularity;
	ULONG_PTR MinimumUserModeAddress, MaximumUserModeAddress, ActiveProcessorsAffinityMask;
	CCHAR NumberOfProcessors;
};

static HMODULE ntdll;

int main(void);

static void *fn(const char *name)
{
	void *p = (void *)GetProcAddress(ntdll, name);

	ok(p != NULL, "ntdll lacks %s\n", name);
	return p;
}

static void test_process(void)
{
	qip_fn qip = (qip_fn)fn("NtQueryInformationProcess");
	peb_fn get_peb = (peb_fn)fn("RtlGetCurrentPeb");
	struct basic_process pbi;
	ULONG len = 0;
	ULONG_PTR port = 1, wow = 1;
	NTSTATUS st;

	if (!qip || !get_peb)
		return;
	/* TEB.ProcessEnvironmentBlock, at offset 0x60 on x86-64. */
	PEB *teb_peb;

	__asm__("movq %%gs:0x60, %0" : "=r"(teb_peb));

	ok(get_peb() == teb_peb, "RtlGetCurrentPeb %p, TEB's %p\n", (void *)get_peb(), (void *)teb_peb);
	st = qip(GetCurrentProcess(), ProcessBasicInformation, &pbi, sizeof(pbi), &len);
	ok(!st && len == sizeof(pbi), "basic: status %#lx, length %lu\n", st, len);
	ok(pbi.PebBaseAddress == get_peb(), "PEB %p, not %p\n", (void *)pbi.PebBaseAddress, (void *)get_peb());
	ok(pbi.UniqueProcessId == GetCurrentProcessId(), "pid %llu, not %lu\n", (unsigned long long)pbi.UniqueProcessId,
	   GetCurrentProcessId());
	ok(pbi.ExitStatus == STILL_ACTIVE, "exit status %#lx\n", pbi.ExitStatus);
	ok(pbi.AffinityMask != 0, "no affinity mask\n");
	/* The size must be exact. */
	st = qip(GetCurrentProcess(), ProcessBasicInformation, &pbi, sizeof(pbi) - 1, &len);
	ok(st == (NTSTATUS)0xc0000004, "short buffer: status %#lx\n", st); /* STATUS_INFO_LENGTH_MISMATCH */
	st = qip(GetCurrentProcess(), ProcessDebugPort, &port, sizeof(port), NULL);
	ok(!st && port == 0, "debug port: status %#lx, port %llu\n", st, (unsigned long long)port);
	st = qip(GetCurrentProcess(), ProcessWow64Information, &wow, sizeof(wow), NULL);
	ok(!st && wow == 0, "WOW64: status %#lx, value %llu\n", st, (unsigned long long)wow);
	st = qip((HANDLE)(ULONG_PTR)0x7ff0, ProcessBasicInformation, &pbi, sizeof(pbi), NULL);
	ok(st == (NTSTATUS)0xc0000008, "bad handle: status %#lx\n", st); /* STATUS_INVALID_HANDLE */
}

static void test_system(void)
{
	qsi_fn qsi = (qsi_fn)fn("NtQuerySystemInformation");
	struct basic_system sbi;
	SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION perf[64];
	SYSTEM_INFO si;
	ULONG len = 0;
	NTSTATUS st;

	if (!qsi)
		return;
	GetSystemInfo(&si);
	st = qsi(SystemBasicInformation, &sbi, sizeof(sbi), &len);
	ok(!st && len == sizeof(sbi), "basic: status %#lx, length %lu\n", st, len);
	ok(sbi.PageSize == si.dwPageSize, "page size %lu\n", sbi.PageSize);
	ok(sbi.AllocationGranularity == si.dwAllocationGranularity, "granularity %lu\n", sbi.AllocationGranularity);
	ok((DWORD)sbi.NumberOfProcessors == si.dwNumberOfProcessors, "%d processors, GetSystemInfo says %lu\n",
	   sbi.NumberOfProcessors, si.dwNumberOfProcessors);
	ok(sbi.MaximumUserModeAddress == (ULONG_PTR)si.lpMaximumApplicationAddress, "highest address %#llx\n",
	   (unsigned long long)sbi.MaximumUserModeAddress);
	st = qsi(SystemProcessorPerformanceInformation, perf, sizeof(perf), &len);
	ok(!st && len == si.dwNumberOfProcessors * sizeof(perf[0]), "processor times: status %#lx, length %lu\n", st, len);
	if (!st)
		ok(perf[0].KernelTime.QuadPart >= perf[0].IdleTime.QuadPart, "kernel time %lld below idle time %lld\n",
		   perf[0].KernelTime.QuadPart, perf[0].IdleTime.QuadPart);
}

static void test_image(void)
{
	nth_fn nth = (nth_fn)fn("RtlImageNtHeader");
	rvasec_fn rva_sec = (rvasec_fn)fn("RtlImageRvaToSection");
	rvava_fn rva_va = (rvava_fn)fn("RtlImageRvaToVa");
	/* Wine 8's ntdll does not export it; Windows' does (GraalVM native
	 * images stop without it). */
	insec_fn in_sec = (insec_fn)(void *)GetProcAddress(ntdll, "RtlAddressInSectionTable");
	HMODULE exe = GetModuleHandleA(NULL);
	IMAGE_NT_HEADERS *nt;
	IMAGE_SECTION_HEADER *sec, *last = NULL;
	WCHAR path[MAX_PATH];
	HANDLE file, map;
	BYTE *view;
	DWORD rva;

	ok_todo_wine(in_sec != NULL, "ntdll lacks RtlAddressInSectionTable\n");
	if (!nth || !rva_sec || !rva_va)
		return;
	nt = nth(exe);
	ok(nt == (IMAGE_NT_HEADERS *)((BYTE *)exe + ((IMAGE_DOS_HEADER *)exe)->e_lfanew), "headers at %p\n", (void *)nt);
	ok(nth((HMODULE)&path) == NULL, "a buffer without MZ has headers\n");
	if (!nt)
		return;
	/* main's code, looked up in a copy of the file as GraalVM does. */
	rva = (DWORD)((BYTE *)main - (BYTE *)exe);
	sec = rva_sec(nt, exe, rva);
	ok(sec && (sec->Characteristics & IMAGE_SCN_MEM_EXECUTE), "main is not in a code section\n");
	GetModuleFileNameW(NULL, path, MAX_PATH);
	file = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	map = CreateFileMappingW(file, NULL, PAGE_READONLY, 0, 0, NULL);
	view = map ? MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0) : NULL;
	ok(view != NULL, "cannot map the program's file: %lu\n", GetLastError());
	if (view && sec) {
		BYTE *at = rva_va(nt, (HMODULE)view, rva, &last);

		ok(at == view + sec->PointerToRawData + (rva - sec->VirtualAddress), "RtlImageRvaToVa gave %p\n", at);
		ok(last == sec, "the section found is %p, not %p\n", (void *)last, (void *)sec);
		ok(at && !memcmp(at, (BYTE *)main, 16), "the file's bytes are not main's\n");
		if (in_sec)
			ok(in_sec(nt, (HMODULE)view, rva) == at, "RtlAddressInSectionTable differs\n");
		ok(rva_va(nt, (HMODULE)view, nt->OptionalHeader.SizeOfImage + 0x1000, NULL) == NULL,
		   "an RVA past the image is in a section\n");
	}
	if (view)
		UnmapViewOfFile(view);
	CloseHandle(map);
	CloseHandle(file);
}

/* What Go's runtime before 1.21 calls at start without checking the
 * look-ups: RtlGetNtVersionNumbers (RtlGetVersion's numbers, the build's
 * top nibble 0xF) and NtWaitForSingleObject (NT timeouts and results). */
static void test_go_runtime(void)
{
	ntver_fn ntver = (ntver_fn)fn("RtlGetNtVersionNumbers");
	rtlver_fn rtlver = (rtlver_fn)fn("RtlGetVersion");
	wait_fn wait = (wait_fn)fn("NtWaitForSingleObject");
	OSVERSIONINFOEXW v = { .dwOSVersionInfoSize = sizeof(v) };
	ULONG major = 0, minor = 0, build = 0;
	HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL);
	LARGE_INTEGER t;

	if (!ntver || !rtlver || !wait)
		return;
	rtlver(&v);
	ntver(&major, &minor, &build);
	ok(major == v.dwMajorVersion && minor == v.dwMinorVersion, "%lu.%lu, RtlGetVersion %lu.%lu\n", major, minor,
	   v.dwMajorVersion, v.dwMinorVersion);
	ok((build & 0xffff) == (v.dwBuildNumber & 0xffff) && (build >> 28) == 0xf, "build %#lx\n", build);
	t.QuadPart = -10000; /* 1 ms from now */
	ok(wait(ev, FALSE, &t) == 0x102, "an unset event: not STATUS_TIMEOUT\n");
	SetEvent(ev);
	ok(wait(ev, FALSE, NULL) == 0, "a set event: not STATUS_WAIT_0\n");
	t.QuadPart = 0;
	ok(wait(ev, TRUE, &t) == 0, "a set event, no wait: not STATUS_WAIT_0\n");
	CloseHandle(ev);
}

int main(void)
{
	ntdll = GetModuleHandleA("ntdll.dll");
	test_go_runtime();
	test_process();
	test_system();
	test_image();
	return test_summary();
}
