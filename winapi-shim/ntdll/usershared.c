/* KUSER_SHARED_DATA at 0x7ffe0000.
 *
 * One memfd page mapped twice: read-only at the fixed address for the
 * program (a write there faults, as on Windows), read-write elsewhere for
 * the updater thread.  Clocks are KSYSTEM_TIMEs, written High2Time, then
 * LowPart, then High1Time, so that a reader that sees High1Time ==
 * High2Time holds a consistent value (the documented reader protocol). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <windef.h>
#include <winbase.h>
#include <winternl.h>
#include <ddk/wdm.h>

#include "core/debug.h"
#include "core/random.h"
#include "ntdll/usershared.h"

_Static_assert(offsetof(KSHARED_USER_DATA, NtSystemRoot) == 0x30, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, NtBuildNumber) == 0x260, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, NtMajorVersion) == 0x26c, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, ProcessorFeatures) == 0x274, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, QpcFrequency) == 0x300, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, TickCountQuad) == 0x320, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, Cookie) == 0x330, "KUSER_SHARED_DATA layout");
_Static_assert(offsetof(KSHARED_USER_DATA, ActiveProcessorCount) == 0x3c0, "KUSER_SHARED_DATA layout");

/* The version ndrun reports everywhere (kernel32/sysinfoapi.c). */
#define WIN_MAJOR 10
#define WIN_MINOR 0
#define WIN_BUILD 19045

/* 100 ns intervals between 1601-01-01 and 1970-01-01. */
#define EPOCH_DIFF 116444736000000000ull
/* Windows' default timer resolution: 64 Hz. */
#define TICK_NS 15625000l

static KSHARED_USER_DATA *rw;
static uint32_t cookie;
static pthread_once_t cookie_once = PTHREAD_ONCE_INIT;

static void make_cookie(void)
{
	random_fill(&cookie, sizeof(cookie));
}

uint32_t user_shared_cookie(void)
{
	pthread_once(&cookie_once, make_cookie);
	return cookie;
}

static uint64_t clock_100ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 10000000ull + (uint64_t)ts.tv_nsec / 100;
}

static void put_time(volatile KSYSTEM_TIME *t, uint64_t v)
{
	t->High2Time = (LONG)(v >> 32);
	atomic_thread_fence(memory_order_release);
	t->LowPart = (ULONG)v;
	atomic_thread_fence(memory_order_release);
	t->High1Time = (LONG)(v >> 32);
}

/* The local time's offset from UTC, as Windows' bias: UTC - local, in
 * 100 ns units. */
static int64_t tz_bias(void)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm))
		return 0;
	return -(int64_t)tm.tm_gmtoff * 10000000;
}

static void update_clocks(void)
{
	uint64_t mono = clock_100ns(CLOCK_MONOTONIC);
	/* Timer ticks of 15.625 ms; readers get milliseconds with
	 * TickCountMultiplier (ms = ticks * multiplier >> 24). */
	uint64_t ticks = mono / 156250;

	put_time(&rw->InterruptTime, mono);
	put_time(&rw->SystemTime, clock_100ns(CLOCK_REALTIME) + EPOCH_DIFF);
	put_time(&rw->TickCount, ticks);
	rw->TickCountLowDeprecated = (ULONG)ticks;
}

static void *updater(void *arg)
{
	struct timespec next;
	unsigned int n = 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		next.tv_nsec += TICK_NS;
		if (next.tv_nsec >= 1000000000l) {
			next.tv_nsec -= 1000000000l;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		update_clocks();
		/* Daylight-saving changes are rare: once a second is enough. */
		if (++n % 64 == 0)
			put_time(&rw->TimeZoneBias, (uint64_t)tz_bias());
	}
	return NULL;
}

static void fill_static(void)
{
	static const char root[] = "C:\\windows";
	long pages = sysconf(_SC_PHYS_PAGES), cpus = sysconf(_SC_NPROCESSORS_ONLN);

	rw->TickCountMultiplier = 0x0fa00000; /* ms per tick << 24, for 15.625 ms */
	rw->ImageNumberLow = IMAGE_FILE_MACHINE_AMD64;
	rw->ImageNumberHigh = IMAGE_FILE_MACHINE_AMD64;
	for (unsigned int i = 0; i < sizeof(root); i++)
		rw->NtSystemRoot[i] = (WCHAR)root[i];
	rw->MaxStackTraceDepth = 0;
	rw->CryptoExponent = 0;
	rw->LargePageMinimum = 0x200000;
	rw->NtBuildNumber = WIN_BUILD;
	rw->NtProductType = NtProductWinNt;
	rw->ProductTypeIsValid = TRUE;
	rw->NativeProcessorArchitecture = PROCESSOR_ARCHITECTURE_AMD64;
	rw->NtMajorVersion = WIN_MAJOR;
	rw->NtMinorVersion = WIN_MINOR;
	for (DWORD f = 0; f < PROCESSOR_FEATURE_MAX; f++)
		rw->ProcessorFeatures[f] = (BOOLEAN)IsProcessorFeaturePresent(f);
	rw->SuiteMask = VER_SUITE_SINGLEUSERTS;
	rw->NXSupportPolicy = NX_SUPPORT_POLICY_OPTIN;
	rw->NumberOfPhysicalPages = pages > 0 ? (ULONG)pages : 0;
	rw->QpcFrequency = 10000000; /* QueryPerformanceFrequency's (profileapi.c) */
	rw->Cookie = user_shared_cookie();
	rw->ActiveProcessorCount = cpus > 0 ? (ULONG)cpus : 1;
	rw->ActiveGroupCount = 1;
	rw->UnparkedProcessorCount = (USHORT)rw->ActiveProcessorCount;
	put_time(&rw->TimeZoneBias, (uint64_t)tz_bias());
	update_clocks();
}

int user_shared_init(void)
{
	pthread_attr_t attr;
	pthread_t thread;
	void *ro;
	int fd;

	fd = memfd_create("KUSER_SHARED_DATA", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0x1000)) {
		ndrun_error("KUSER_SHARED_DATA: %s", strerror(errno));
		goto fail;
	}
	rw = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rw == MAP_FAILED) {
		rw = NULL;
		ndrun_error("KUSER_SHARED_DATA: %s", strerror(errno));
		goto fail;
	}
	ro = mmap((void *)USER_SHARED_DATA_ADDR, 0x1000, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	if (ro != (void *)USER_SHARED_DATA_ADDR) {
		ndrun_error("KUSER_SHARED_DATA: cannot map 0x%lx: %s", USER_SHARED_DATA_ADDR,
			    ro == MAP_FAILED ? strerror(errno) : "address taken");
		if (ro != MAP_FAILED)
			munmap(ro, 0x1000);
		goto fail;
	}
	close(fd);
	fill_static();
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&thread, &attr, updater, NULL)) {
		pthread_attr_destroy(&attr);
		ndrun_error("KUSER_SHARED_DATA: cannot start its updater thread");
		return -1;
	}
	pthread_attr_destroy(&attr);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}
