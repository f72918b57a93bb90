/* msvcrt's internal lock table, exported as _lock/_unlock.  mingw's
 * start-up code takes _lock(8) (the onexit lock) around its atexit list,
 * and mingw's own _lock_file (linked into every program from
 * libmsvcrt.a) takes _lock(CRT_STREAM_LOCKS + i) for _iob[i]: so the
 * stream locks of the standard streams are entries of this table, and
 * they are CRITICAL_SECTIONs, as in msvcrt.dll. */
#include "msvcrt/msvcrt_private.h"

#define CRT_LOCK_COUNT (CRT_STREAM_LOCKS + CRT_IOB_ENTRIES) /* _TOTAL_LOCKS: 36 */

/* A free critical section is LockCount -1 with every other field 0,
 * which needs no call to set up. */
static CRITICAL_SECTION locks[CRT_LOCK_COUNT] = { [0 ... CRT_LOCK_COUNT - 1] = { .LockCount = -1 } };

CRITICAL_SECTION *crt_lock_section(int locknum)
{
	return &locks[locknum];
}

void __cdecl crt__lock(int locknum)
{
	if (locknum < 0 || locknum >= CRT_LOCK_COUNT)
		crt__amsg_exit(17); /* _RT_LOCK */
	EnterCriticalSection(&locks[locknum]);
}

void __cdecl crt__unlock(int locknum)
{
	if (locknum < 0 || locknum >= CRT_LOCK_COUNT)
		return;
	LeaveCriticalSection(&locks[locknum]);
}
