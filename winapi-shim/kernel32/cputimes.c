/* GetSystemTimes, GetProcessTimes, GetThreadTimes: CPU accounting from
 * /proc (clock ticks) and getrusage.  All results are FILETIMEs: 100 ns
 * units, absolute ones counted from 1601. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/thread.h"
#include "core/wait.h"
#include "kernel32/kernel32_private.h"

#define EPOCH_DIFF 116444736000000000ull

static void set_ft(FILETIME *ft, ULONGLONG v)
{
	ft->dwLowDateTime = (DWORD)v;
	ft->dwHighDateTime = (DWORD)(v >> 32);
}

static ULONGLONG ticks_to_100ns(unsigned long long ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return ticks * (10000000ull / (hz > 0 ? (ULONGLONG)hz : 100));
}

/* The "btime" line of /proc/stat: boot time in seconds since 1970. */
static bool boot_time(unsigned long long *btime)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "btime %llu", btime) == 1;
	fclose(f);
	return found;
}

/* utime, stime and starttime (fields 14, 15, 22) of a /proc stat file;
 * the command name (field 2) may hold spaces and parentheses, so parsing
 * starts after its last ')'. */
static bool read_stat(const char *path, unsigned long long *utime, unsigned long long *stime,
		      unsigned long long *start)
{
	char buf[1024], *p;
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return false;
	/* fields 3..13 skipped, then utime stime, 16..21 skipped, starttime */
	return sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d %llu",
		      utime, stime, start) == 3;
}

static bool start_filetime(unsigned long long start_ticks, ULONGLONG *ft)
{
	unsigned long long btime;

	if (!boot_time(&btime))
		return false;
	*ft = btime * 10000000ull + ticks_to_100ns(start_ticks) + EPOCH_DIFF;
	return true;
}

/* Windows counts idle time as kernel time: kernel >= idle always. */
BOOL WINAPI GetSystemTimes(LPFILETIME idle, LPFILETIME kernel, LPFILETIME user)
{
	unsigned long long u, n, s, i, w, irq, sirq, steal;
	int got;
	FILE *f = fopen("/proc/stat", "re");

	if (!f) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &n, &s, &i, &w, &irq, &sirq,
		     &steal);
	fclose(f);
	if (got != 8) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	TRACE(misc, "user %llu nice %llu sys %llu idle %llu iowait %llu\n", u, n, s, i, w);
	if (idle)
		set_ft(idle, ticks_to_100ns(i + w));
	if (kernel)
		set_ft(kernel, ticks_to_100ns(s + irq + sirq + i + w));
	if (user)
		set_ft(user, ticks_to_100ns(u + n));
	return TRUE;
}

static ULONGLONG timeval_100ns(const struct timeval *tv)
{
	return (ULONGLONG)tv->tv_sec * 10000000ull + (ULONGLONG)tv->tv_usec * 10;
}

/* Another process (a pidfd behind the handle): its CPU time from the
 * process object (its /proc entry, or the rusage kept when it was
 * reaped), its start from /proc while the entry exists.  When it ended
 * is not recorded, so its exit time stays 0. */
static BOOL other_process_times(struct process *p, LPFILETIME creation, LPFILETIME exit_time,
				LPFILETIME kernel, LPFILETIME user)
{
	unsigned long long ut, st, start;
	uint64_t u, k;
	ULONGLONG created = 0;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->pid);
	if (read_stat(path, &ut, &st, &start))
		start_filetime(start, &created);
	process_times(p, &u, &k);
	set_ft(creation, created);
	set_ft(exit_time, 0);
	set_ft(kernel, k);
	set_ft(user, u);
	return TRUE;
}

/* The current process: its times from getrusage (microseconds) and its
 * start from /proc/self/stat. */
BOOL WINAPI GetProcessTimes(HANDLE process, LPFILETIME creation, LPFILETIME exit_time,
			    LPFILETIME kernel, LPFILETIME user)
{
	unsigned long long ut, st, start;
	struct object *obj = handle_get(process, &process_ops);
	struct rusage ru;
	ULONGLONG created;

	TRACE(misc, "%p\n", process);
	if (!obj)
		return FALSE;
	if (to_process(obj)->pidfd >= 0) {
		BOOL ret = other_process_times(to_process(obj), creation, exit_time, kernel, user);

		object_unref(obj);
		return ret;
	}
	object_unref(obj);
	if (getrusage(RUSAGE_SELF, &ru) || !read_stat("/proc/self/stat", &ut, &st, &start) ||
	    !start_filetime(start, &created)) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	set_ft(creation, created);
	set_ft(exit_time, 0);
	set_ft(kernel, timeval_100ns(&ru.ru_stime));
	set_ft(user, timeval_100ns(&ru.ru_utime));
	return TRUE;
}

/* A running thread's times from /proc/self/task/<tid>/stat; a finished
 * one's as the thread recorded them when it ended (core/thread.c).  The
 * creation time is the one recorded at its start when there is one
 * (threads CreateThread made), else the /proc start time. */
BOOL WINAPI GetThreadTimes(HANDLE thread, LPFILETIME creation, LPFILETIME exit_time,
			   LPFILETIME kernel, LPFILETIME user)
{
	unsigned long long ut = 0, st = 0, start = 0;
	struct object *obj = handle_get(thread, &thread_ops);
	struct thread *t;
	char path[64];
	bool finished;
	ULONGLONG created = 0;

	if (!obj)
		return FALSE;
	t = to_thread(obj);
	wait_lock();
	finished = t->finished;
	wait_unlock();
	TRACE(thread, "%p tid %04x%s\n", thread, t->tid, finished ? " (finished)" : "");
	if (finished) {
		set_ft(creation, t->created_time);
		set_ft(exit_time, t->exited_time);
		set_ft(kernel, t->kernel_time);
		set_ft(user, t->user_time);
		object_unref(obj);
		return TRUE;
	}
	snprintf(path, sizeof(path), "/proc/self/task/%u/stat", (unsigned int)t->tid);
	if (!read_stat(path, &ut, &st, &start) || (!t->created_time && !start_filetime(start, &created))) {
		object_unref(obj);
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	if (t->created_time)
		created = t->created_time;
	object_unref(obj);
	set_ft(creation, created);
	set_ft(exit_time, 0);
	set_ft(kernel, ticks_to_100ns(st));
	set_ft(user, ticks_to_100ns(ut));
	return TRUE;
}
