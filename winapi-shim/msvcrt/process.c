#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "loader.h"

/* msvcrt's abort ends the process with exit code 3, without running
 * atexit handlers. */
void __cdecl crt_abort(void)
{
	_exit(3);
}
