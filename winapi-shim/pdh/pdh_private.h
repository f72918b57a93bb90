/* pdh.dll: performance counter queries for the counters a program can
 * sample on its own machine: the processors' busy time and the memory
 * available, read from /proc; see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_PDH_PRIVATE_H
#define NDSHIM_PDH_PRIVATE_H

#include <stdint.h>

#include <windef.h>
#include <winbase.h>
#include <winnls.h>
#include <pdh.h>
#include <pdhmsg.h>

/* One sample of a counter from the /proc files under root (counters.c);
 * cpu: the Linux CPU for PDH_KIND_CPU, -1 for all of them. */
enum pdh_counter_kind { PDH_KIND_CPU, PDH_KIND_MEM_AVAILABLE };
struct pdh_sample {
	uint64_t busy, total; /* CPU: jiffies busy and in all */
	uint64_t value;	      /* memory: bytes */
	BOOL valid;
};
void pdh_read_sample(const char *root, enum pdh_counter_kind kind, int cpu, struct pdh_sample *out);

#endif
