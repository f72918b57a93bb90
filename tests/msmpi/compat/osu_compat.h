/* Forced-included into the OSU micro-benchmarks (tests/msmpi/build-osu)
 * when they are built with mingw-w64 for MS-MPI: the POSIX calls they
 * make that Windows' C runtime lacks.  Buffers come from malloc, which is
 * 16-byte aligned: the benchmarks ask for page alignment for speed only
 * and free their buffers with free(). */
#ifndef NDSHIM_OSU_COMPAT_H
#define NDSHIM_OSU_COMPAT_H

#include <stdlib.h>
#include <errno.h>
#include <windows.h>

static inline int osu_posix_memalign(void **p, size_t align, size_t size)
{
	(void)align;
	*p = malloc(size ? size : 1);
	return *p ? 0 : ENOMEM;
}
#define posix_memalign osu_posix_memalign

static inline long osu_page_size(void)
{
	SYSTEM_INFO si;

	GetSystemInfo(&si);
	return (long)si.dwPageSize;
}
#define getpagesize() ((int)osu_page_size())
#define _SC_PAGESIZE 30
#define sysconf(name) ((name) == _SC_PAGESIZE ? osu_page_size() : -1L)

/* osu_init times MPI_Init with the real-time clock: here the system time
 * in 100 ns units, as Windows keeps it. */
#include <time.h>
#ifndef CLOCK_REALTIME
#define CLOCK_REALTIME 0
#endif
static inline int osu_clock_gettime(int clock, struct timespec *ts)
{
	FILETIME ft;
	ULONGLONG t;

	(void)clock;
	GetSystemTimePreciseAsFileTime(&ft);
	t = (ULONGLONG)ft.dwHighDateTime << 32 | ft.dwLowDateTime;
	ts->tv_sec = (time_t)(t / 10000000);
	ts->tv_nsec = (long)(t % 10000000) * 100;
	return 0;
}
#define clock_gettime osu_clock_gettime

#ifdef OSU_ONE_SIDED
/* mpi/one-sided's CHECK() declares a local variable named errno, which
 * is a macro in Windows' C runtime; those files use errno nowhere else. */
#undef errno
#endif

#endif
