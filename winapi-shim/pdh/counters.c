/* The counters pdh knows, sampled from /proc: "\Processor(_Total)\%
 * Processor Time" and "\Processor(N)\% Processor Time" (the share of the
 * time since the previous sample the processors were not idle, from the
 * "cpu" or "cpuN" line of /proc/stat; idle and iowait count as idle)
 * and "\Memory\Available Bytes" (/proc/meminfo's MemAvailable). */
#include <stdio.h>
#include <string.h>

#include "pdh/pdh_private.h"

void pdh_read_sample(const char *root, enum pdh_counter_kind kind, int cpu, struct pdh_sample *out)
{
	char path[256], line[512];
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (kind == PDH_KIND_CPU) {
		char want[16];
		unsigned long long v[10];
		size_t wlen;
		if (cpu < 0)
			snprintf(want, sizeof(want), "cpu ");
		else
			snprintf(want, sizeof(want), "cpu%d ", cpu);
		wlen = strlen(want);
		snprintf(path, sizeof(path), "%s/proc/stat", root);
		if (!(f = fopen(path, "re")))
			return;
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, want, wlen))
				continue;
			memset(v, 0, sizeof(v));
			if (sscanf(line + wlen, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
				   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) >= 4) {
				/* user nice system idle iowait irq softirq steal
				 * (guest time is inside user and nice already) */
				for (int i = 0; i < 8; i++)
					out->total += v[i];
				out->busy = out->total - v[3] - v[4];
				out->valid = TRUE;
			}
			break;
		}
		fclose(f);
		return;
	}
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long kb;
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			out->value = kb * 1024;
			out->valid = TRUE;
			break;
		}
	}
	fclose(f);
}
