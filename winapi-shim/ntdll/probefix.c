/* The fault side of ntdll/probe.h. */
#include <stddef.h>

#include "ntdll/probe.h"

__thread void *seh_probe_resume;

bool seh_probe_fixup(ucontext_t *uc)
{
	void *resume = seh_probe_resume;

	if (!resume)
		return false;
	seh_probe_resume = NULL;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)resume;
	return true;
}
