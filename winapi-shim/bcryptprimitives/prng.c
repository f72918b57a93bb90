/* ProcessPrng: the process's cryptographic RNG.  Windows documents it
 * as never failing (it terminates the process instead); the kernel's
 * getrandom has the same property for valid buffers. */
#include "bcryptprimitives/bcryptprimitives_private.h"
#include "core/debug.h"
#include "core/random.h"

BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len)
{
	TRACE(misc, "%p %zu\n", buf, (size_t)len);
	random_fill(buf, len);
	return TRUE;
}
