/* powrprof.dll: CallNtPowerInformation's processor information, from
 * Linux's cpufreq and cpuidle; see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_POWRPROF_PRIVATE_H
#define NDSHIM_POWRPROF_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winternl.h>
#include <powrprof.h>

/* One processor's entry from the sysfs CPU folders under root
 * (".../devices/system/cpu"): cpufreq's cpuinfo_max_freq, scaling_cur_freq
 * and scaling_max_freq in MHz, and the number of cpuidle states (the
 * deepest index).  A CPU without cpufreq (most virtual machines) gets
 * fallback_mhz, /proc/cpuinfo's figure, for all three (power.c). */
void powrprof_cpu_info(const char *root, int linux_id, ULONG fallback_mhz, PROCESSOR_POWER_INFORMATION *out);

#endif
