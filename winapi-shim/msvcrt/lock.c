/* msvcrt's internal lock table, exported as _lock/_unlock: mingw's
 * start-up code takes _lock(8) (the onexit lock) around its atexit list. */
#include <pthread.h>

#include "msvcrt/msvcrt_private.h"

#define CRT_LOCK_COUNT 36 /* _TOTAL_LOCKS in msvcrt's mtdll.h */

static pthread_mutex_t locks[CRT_LOCK_COUNT];
static pthread_once_t locks_once = PTHREAD_ONCE_INIT;

static void init_locks(void)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	for (int i = 0; i < CRT_LOCK_COUNT; i++)
		pthread_mutex_init(&locks[i], &attr);
	pthread_mutexattr_destroy(&attr);
}

void __cdecl crt__lock(int locknum)
{
	if (locknum < 0 || locknum >= CRT_LOCK_COUNT)
		crt__amsg_exit(17); /* _RT_LOCK */
	pthread_once(&locks_once, init_locks);
	pthread_mutex_lock(&locks[locknum]);
}

void __cdecl crt__unlock(int locknum)
{
	if (locknum < 0 || locknum >= CRT_LOCK_COUNT)
		return;
	pthread_mutex_unlock(&locks[locknum]);
}
