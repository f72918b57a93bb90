/* sysinfo: what a Windows program sees of the machine it runs on.
 *
 * The interim main job of `make demo`: an ordinary mingw-w64 console
 * program, run unmodified under ndrun.  It asks Windows for the system,
 * version and module information, then has worker threads hand results
 * back through events and a wait on all of them. */
#include <windows.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 4

struct work {
	HANDLE done;
	unsigned int id;
	unsigned long long sum;
};

static DWORD WINAPI worker(void *arg)
{
	struct work *w = arg;

	for (unsigned long long i = 0; i < 1000000; i++)
		w->sum += i * (w->id + 1);
	SetEvent(w->done);
	return w->id;
}

static void usage(void)
{
	printf("usage: sysinfo [ARGS...]\n"
	       "Prints what a Windows program sees of this machine (version, processors,\n"
	       "its own path and command line, each argument), then runs %d worker\n"
	       "threads that report back through events.\n"
	       "exit status: 0 done, 1 a worker could not start or did not finish\n",
	       WORKERS);
}

int main(int argc, char **argv)
{
	SYSTEM_INFO si;
	OSVERSIONINFOW ver;
	WCHAR path[MAX_PATH];
	HANDLE threads[WORKERS], events[WORKERS];
	struct work work[WORKERS];
	DWORD rc;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage();
		return 0;
	}

	GetSystemInfo(&si);
	ver.dwOSVersionInfoSize = sizeof(ver);
	GetVersionExW(&ver);
	GetModuleFileNameW(NULL, path, MAX_PATH);

	printf("Windows %lu.%lu build %lu\n", ver.dwMajorVersion, ver.dwMinorVersion, ver.dwBuildNumber);
	printf("processors: %lu, page size: %lu, allocation granularity: %lu\n",
	       si.dwNumberOfProcessors, si.dwPageSize, si.dwAllocationGranularity);
	printf("program: %ls\n", path);
	printf("command line: %s\n", GetCommandLineA());
	for (int i = 1; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);

	for (unsigned int i = 0; i < WORKERS; i++) {
		work[i].id = i;
		work[i].sum = 0;
		work[i].done = events[i] = CreateEventW(NULL, TRUE, FALSE, NULL);
		threads[i] = CreateThread(NULL, 0, worker, &work[i], 0, NULL);
		if (!events[i] || !threads[i]) {
			printf("cannot start worker %u: error %lu\n", i, GetLastError());
			return 1;
		}
	}
	rc = WaitForMultipleObjects(WORKERS, events, TRUE, 10000);
	if (rc != WAIT_OBJECT_0) {
		printf("workers did not finish: wait returned %lu\n", rc);
		return 1;
	}
	WaitForMultipleObjects(WORKERS, threads, TRUE, INFINITE);
	for (unsigned int i = 0; i < WORKERS; i++) {
		DWORD code = 0;
		GetExitCodeThread(threads[i], &code);
		printf("worker %u (exit code %lu): sum %llu\n", i, code, work[i].sum);
		CloseHandle(threads[i]);
		CloseHandle(events[i]);
	}
	return 0;
}
