/* Cryptographically secure random bytes from the kernel (getrandom),
 * for ProcessPrng, BCryptGenRandom and the pointer-encoding cookies. */
#ifndef NDSHIM_RANDOM_H
#define NDSHIM_RANDOM_H

#include <stddef.h>

/* Fills buf; blocks only until the kernel's pool is first initialised.
 * Cannot fail on Linux >= 3.17 short of a bad buffer. */
void random_fill(void *buf, size_t len);

#endif
