/* CallNtPowerInformation: the ProcessorInformation level, one
 * PROCESSOR_POWER_INFORMATION per processor (GetSystemInfo's count, in
 * Windows' numbering), from Linux's cpufreq and cpuidle.  Other levels
 * (battery, power capabilities, policies) are not implemented and stop
 * the program naming the level (core/unimpl.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/topology.h"
#include "core/unimpl.h"
#include "powrprof/powrprof_private.h"

#ifndef STATUS_SUCCESS
#define STATUS_SUCCESS ((NTSTATUS)0)
#endif
#ifndef STATUS_BUFFER_TOO_SMALL
#define STATUS_BUFFER_TOO_SMALL ((NTSTATUS)0xC0000023)
#endif

/* A number from a one-line sysfs file; 0 when it cannot be read. */
static unsigned long read_number(const char *root, int cpu, const char *file)
{
	char path[512], line[64];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%d/%s", root, cpu, file);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		v = strtoul(line, NULL, 10);
	fclose(f);
	return v;
}

void powrprof_cpu_info(const char *root, int linux_id, ULONG fallback_mhz, PROCESSOR_POWER_INFORMATION *out)
{
	char path[512];
	unsigned long max_khz = read_number(root, linux_id, "cpufreq/cpuinfo_max_freq");
	unsigned long cur_khz = read_number(root, linux_id, "cpufreq/scaling_cur_freq");
	unsigned long limit_khz = read_number(root, linux_id, "cpufreq/scaling_max_freq");
	ULONG states = 0;
	struct dirent *e;
	DIR *d;

	out->MaxMhz = max_khz ? max_khz / 1000 : fallback_mhz;
	out->CurrentMhz = cur_khz ? cur_khz / 1000 : out->MaxMhz;
	out->MhzLimit = limit_khz ? limit_khz / 1000 : out->MaxMhz;
	snprintf(path, sizeof(path), "%s/cpu%d/cpuidle", root, linux_id);
	d = opendir(path);
	if (d) {
		while ((e = readdir(d)))
			if (!strncmp(e->d_name, "state", 5))
				states++;
		closedir(d);
	}
	/* States are numbered from 0: the deepest is one less than their
	 * count.  The current one is not known from outside the kernel. */
	out->MaxIdleState = states ? states - 1 : 0;
	out->CurrentIdleState = 0;
}

/* The first "cpu MHz" of /proc/cpuinfo, rounded. */
static ULONG cpuinfo_mhz(void)
{
	char line[256];
	double mhz = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu MHz", 7) && strchr(line, ':')) {
			mhz = strtod(strchr(line, ':') + 1, NULL);
			break;
		}
	fclose(f);
	return (ULONG)(mhz + 0.5);
}

NTSTATUS WINAPI CallNtPowerInformation(POWER_INFORMATION_LEVEL level, PVOID in, ULONG in_size, PVOID out,
				       ULONG out_size)
{
	const struct topology *t;
	PROCESSOR_POWER_INFORMATION *info = out;
	ULONG fallback;

	if (level != ProcessorInformation)
		unimplemented_case("powrprof.CallNtPowerInformation", "information level %d", (int)level);
	t = topology_get();
	if (!out || out_size < t->ncpus * sizeof(*info))
		return STATUS_BUFFER_TOO_SMALL;
	fallback = cpuinfo_mhz();
	for (unsigned int i = 0; i < t->ncpus; i++) {
		powrprof_cpu_info("/sys/devices/system/cpu", t->cpus[i].linux_id, fallback, &info[i]);
		info[i].Number = t->cpus[i].number;
	}
	return STATUS_SUCCESS;
}
