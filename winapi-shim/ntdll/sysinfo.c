/* NtQuerySystemInformation for the classes runtimes read at start: the
 * basic information (page size, allocation granularity, address range,
 * processors) and per-processor times (libuv's uv_cpu_info, from
 * /proc/stat).  Others fail with STATUS_INVALID_INFO_CLASS after a +misc
 * trace line. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* Microsoft's layout of SYSTEM_BASIC_INFORMATION (winternl.h leaves its
 * fields reserved). */
struct basic_info {
	ULONG Reserved;
	ULONG TimerResolution;
	ULONG PageSize;
	ULONG NumberOfPhysicalPages;
	ULONG LowestPhysicalPageNumber;
	ULONG HighestPhysicalPageNumber;
	ULONG AllocationGranularity;
	ULONG_PTR MinimumUserModeAddress;
	ULONG_PTR MaximumUserModeAddress;
	ULONG_PTR ActiveProcessorsAffinityMask;
	CCHAR NumberOfProcessors;
};
_Static_assert(sizeof(struct basic_info) == sizeof(SYSTEM_BASIC_INFORMATION), "SYSTEM_BASIC_INFORMATION");

static NTSTATUS basic(void *buf, ULONG size, ULONG *ret_len)
{
	SYSTEM_INFO si;
	struct basic_info b;

	if (ret_len)
		*ret_len = sizeof(b);
	if (size != sizeof(b))
		return STATUS_INFO_LENGTH_MISMATCH;
	GetSystemInfo(&si);
	memset(&b, 0, sizeof(b));
	b.TimerResolution = 156250; /* 15.625 ms in 100 ns units, Windows' default tick */
	b.PageSize = si.dwPageSize;
	b.NumberOfPhysicalPages = (ULONG)sysconf(_SC_PHYS_PAGES);
	b.LowestPhysicalPageNumber = 1;
	b.HighestPhysicalPageNumber = b.NumberOfPhysicalPages;
	b.AllocationGranularity = si.dwAllocationGranularity;
	b.MinimumUserModeAddress = (ULONG_PTR)si.lpMinimumApplicationAddress;
	b.MaximumUserModeAddress = (ULONG_PTR)si.lpMaximumApplicationAddress;
	b.ActiveProcessorsAffinityMask = si.dwActiveProcessorMask;
	b.NumberOfProcessors = (CCHAR)si.dwNumberOfProcessors;
	memcpy(buf, &b, sizeof(b));
	return STATUS_SUCCESS;
}

/* One entry per processor from /proc/stat's "cpuN" lines (clock ticks);
 * KernelTime includes the idle time, as Windows counts it. */
static NTSTATUS processor_times(void *buf, ULONG size, ULONG *ret_len)
{
	SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION *out = buf;
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long user, nice, sys, idle, iowait, irq, softirq;
	ULONG n = 0, room = size / sizeof(*out);
	char line[512];
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return STATUS_UNSUCCESSFUL;
	while (fgets(line, sizeof(line), f)) {
		unsigned int cpu;

		/* "cpuN ...", not the "cpu  ..." line that adds them up */
		if (line[0] != 'c' || line[1] != 'p' || line[2] != 'u' || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice, &sys, &idle, &iowait,
			   &irq, &softirq) != 8)
			continue;
		if (n < room) {
			unsigned long long to100ns = 10000000ULL / (unsigned long long)hz;

			memset(&out[n], 0, sizeof(out[n]));
			out[n].IdleTime.QuadPart = (LONGLONG)((idle + iowait) * to100ns);
			out[n].KernelTime.QuadPart = (LONGLONG)((sys + irq + softirq + idle + iowait) * to100ns);
			out[n].UserTime.QuadPart = (LONGLONG)((user + nice) * to100ns);
		}
		n++;
	}
	fclose(f);
	if (ret_len)
		*ret_len = n * sizeof(*out);
	return n <= room ? STATUS_SUCCESS : STATUS_INFO_LENGTH_MISMATCH;
}

NTSTATUS WINAPI NtQuerySystemInformation(SYSTEM_INFORMATION_CLASS cls, void *buf, ULONG size, ULONG *ret_len)
{
	TRACE(misc, "(%d, %p, %lu)\n", (int)cls, buf, (unsigned long)size);
	switch ((int)cls) {
	case SystemBasicInformation:
		return basic(buf, size, ret_len);
	case SystemProcessorPerformanceInformation:
		return processor_times(buf, size, ret_len);
	}
	TRACE(misc, "class %d not supported\n", (int)cls);
	return STATUS_INVALID_INFO_CLASS;
}
