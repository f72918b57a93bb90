/* powrprof's CallNtPowerInformation(ProcessorInformation): one entry
 * per processor, numbered from 0, with frequencies; a buffer for one
 * processor fewer is STATUS_BUFFER_TOO_SMALL. */
#include <windows.h>
#include <powrprof.h>

#include "test.h"

typedef struct {
	ULONG Number, MaxMhz, CurrentMhz, MhzLimit, MaxIdleState, CurrentIdleState;
} proc_power_info;

int main(void)
{
	SYSTEM_INFO si;
	proc_power_info *info;
	LONG st;

	GetSystemInfo(&si);
	info = calloc(si.dwNumberOfProcessors, sizeof(*info));
	st = CallNtPowerInformation(ProcessorInformation, NULL, 0, info, si.dwNumberOfProcessors * sizeof(*info));
	ok(st == 0, "CallNtPowerInformation: %#lx\n", st);
	for (DWORD i = 0; !st && i < si.dwNumberOfProcessors; i++) {
		ok(info[i].Number == i, "entry %lu: number %lu\n", i, info[i].Number);
		ok(info[i].MaxMhz > 0 && info[i].MhzLimit > 0, "entry %lu: %lu MHz, limit %lu\n", i, info[i].MaxMhz,
		   info[i].MhzLimit);
	}
	st = CallNtPowerInformation(ProcessorInformation, NULL, 0, info,
				    (si.dwNumberOfProcessors - 1) * sizeof(*info));
	ok(st == (LONG)0xC0000023, "one entry short: %#lx\n", st);
	free(info);
	return test_summary();
}
