/* Per-thread environment blocks, reached by PE code through GS. */
#ifndef NDSHIM_TEB_H
#define NDSHIM_TEB_H

#include <winternl.h>

/* Call fn for the TEB of every thread that runs PE code.  Loader lock held. */
void teb_for_each(void (*fn)(TEB *teb, void *arg), void *arg);

#endif
