#include "loader.h"

/* The calling thread's TEB, through glibc's TLS (FS) rather than GS, so
 * ndrun's own code can ask on any thread: NULL where no PE code runs. */
static __thread TEB *thread_teb;

TEB *loader_current_teb(void)
{
	return thread_teb;
}
