/* ndadapter: what every ND2 sample does first with the adapter. */
#ifndef NDSAMPLES_NDADAPTER_H
#define NDSAMPLES_NDADAPTER_H

#include "ndwait.h"

/* The largest message the samples move unless told otherwise (-M): the
 * adapter's MaxTransferLength, or 8 MiB if that is less.  rxe reports
 * 2 GiB, and buffers that size fit no test guest. */
#define ND_SAMPLE_MAX_DEFAULT (8ul << 20)
static inline unsigned long NdDefaultMaxSize(unsigned long maxTransferLength)
{
	return maxTransferLength < ND_SAMPLE_MAX_DEFAULT ? maxTransferLength : ND_SAMPLE_MAX_DEFAULT;
}

/* Opens the adapter that has the address local, queries its limits into
 * info, and creates its overlapped file and, when blocking, the I/O
 * completion port that file is associated with (into w).  false with a
 * sentence in why on failure; whatever was made by then is in *adapter,
 * *file and w->port for the caller's tear-down (NULL otherwise). */
bool NdOpen(const sockaddr *local, int localLength, bool blocking, IND2Adapter **adapter, ND2_ADAPTER_INFO *info,
	    HANDLE *file, NdWaiter *w, char *why, size_t whySize);

#endif
