/* GetSystemTimes, GetProcessTimes, GetThreadTimes: plausible values that
 * grow as the program burns CPU, creation times in the past, the right
 * errors for handles that are not processes or threads. */
#include "test.h"

static ULONGLONG ft64(FILETIME ft)
{
	return ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

static volatile ULONG sink;

static void burn(DWORD ms)
{
	DWORD start = GetTickCount();

	while (GetTickCount() - start < ms)
		for (int i = 0; i < 10000; i++)
			sink += i * i;
}

static DWORD WINAPI busy_thread(void *arg)
{
	(void)arg;
	burn(150);
	return 0;
}

static void test_system_times(void)
{
	FILETIME idle, kernel, user, idle2, kernel2, user2;
	BOOL ret;

	ret = GetSystemTimes(&idle, &kernel, &user);
	ok(ret, "GetSystemTimes failed: %lu\n", GetLastError());
	ok(ft64(kernel) >= ft64(idle), "kernel %llu < idle %llu: kernel time includes idle time\n",
	   ft64(kernel), ft64(idle));
	ok(ft64(user) > 0, "user time 0\n");
	burn(100);
	ret = GetSystemTimes(&idle2, &kernel2, &user2);
	ok(ret, "GetSystemTimes failed: %lu\n", GetLastError());
	ok(ft64(user2) + ft64(kernel2) > ft64(user) + ft64(kernel), "busy time did not grow\n");
	ok(ft64(idle2) >= ft64(idle), "idle went back\n");
	/* Each pointer is optional. */
	ret = GetSystemTimes(NULL, NULL, &user);
	ok(ret, "GetSystemTimes(NULL, NULL, user) failed: %lu\n", GetLastError());
}

static void test_process_times(void)
{
	FILETIME creation, exit_time, kernel, user, now;
	ULONGLONG before;
	BOOL ret;

	ret = GetProcessTimes(GetCurrentProcess(), &creation, &exit_time, &kernel, &user);
	ok(ret, "GetProcessTimes failed: %lu\n", GetLastError());
	before = ft64(user) + ft64(kernel);
	GetSystemTimeAsFileTime(&now);
	ok(ft64(creation) > 0 && ft64(creation) <= ft64(now), "creation %llu, now %llu\n",
	   ft64(creation), ft64(now));
	/* Started within the last ten minutes. */
	ok(ft64(now) - ft64(creation) < 600ull * 10000000, "created %llu s ago\n",
	   (ft64(now) - ft64(creation)) / 10000000);
	ok(ft64(exit_time) == 0, "exit time %llu for a running process\n", ft64(exit_time));
	burn(200);
	ret = GetProcessTimes(GetCurrentProcess(), &creation, &exit_time, &kernel, &user);
	ok(ret, "GetProcessTimes failed: %lu\n", GetLastError());
	ok(ft64(user) + ft64(kernel) >= before + 100000,
	   "200 ms of work added only %llu00 ns\n", ft64(user) + ft64(kernel) - before);

	SetLastError(0xdeadbeef);
	ret = GetProcessTimes(CreateEventW(NULL, FALSE, FALSE, NULL), &creation, &exit_time, &kernel,
			      &user);
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "event handle: %d, error %lu\n", ret,
	   GetLastError());
}

static void test_thread_times(void)
{
	FILETIME creation, exit_time, kernel, user, pcreation, now;
	HANDLE th;
	BOOL ret;

	ret = GetThreadTimes(GetCurrentThread(), &creation, &exit_time, &kernel, &user);
	ok(ret, "GetThreadTimes failed: %lu\n", GetLastError());
	ok(ft64(exit_time) == 0, "exit time %llu for a running thread\n", ft64(exit_time));
	GetProcessTimes(GetCurrentProcess(), &pcreation, &exit_time, &kernel, &user);
	GetSystemTimeAsFileTime(&now);
	/* 10 ms of slack: the two are read from different clocks.  Wine
	 * stamps the process later than its first thread (by its start-up
	 * time); on Windows the process exists first. */
	ok_todo_wine(ft64(creation) + 100000 >= ft64(pcreation) && ft64(creation) <= ft64(now),
	   "main thread created %llu, process %llu\n", ft64(creation), ft64(pcreation));

	th = CreateThread(NULL, 0, busy_thread, NULL, 0, NULL);
	ok(th != NULL, "CreateThread failed\n");
	Sleep(100);
	/* A loaded machine (make check runs suites side by side) may not
	 * have given the thread a scheduler tick in 100 ms: ask again while
	 * it runs, for up to 10 s. */
	for (int i = 0; i < 500; i++) {
		ret = GetThreadTimes(th, &creation, &exit_time, &kernel, &user);
		if (!ret || ft64(user) + ft64(kernel) > 0 || WaitForSingleObject(th, 0) == WAIT_OBJECT_0)
			break;
		Sleep(20);
	}
	ok(ret, "GetThreadTimes failed: %lu\n", GetLastError());
	ok(ft64(user) + ft64(kernel) > 0, "busy thread has no CPU time yet\n");
	ok(ft64(creation) >= ft64(pcreation), "thread created before the process\n");
	WaitForSingleObject(th, INFINITE);
	/* After it ended: its times stay, and it has an exit time. */
	{
		FILETIME c2, e2, k2, u2;

		ret = GetThreadTimes(th, &c2, &e2, &k2, &u2);
		ok(ret, "finished thread: %lu\n", GetLastError());
		/* At least one scheduler tick of the 150 ms (the machine may be
		 * busy with other work).  Wine reads thread times from /proc
		 * and sometimes answers 0 once the thread is gone. */
		ok_todo_wine(ft64(u2) + ft64(k2) >= 100000, "150 ms of work left %llu00 ns\n", ft64(u2) + ft64(k2));
		ok(ft64(c2) == ft64(creation), "creation time changed: %llu, %llu\n", ft64(c2), ft64(creation));
		ok(ft64(e2) >= ft64(c2) + 1000000 && ft64(e2) <= ft64(c2) + 600ull * 10000000,
		   "exit %llu, creation %llu\n", ft64(e2), ft64(c2));
	}
	CloseHandle(th);

	SetLastError(0xdeadbeef);
	ret = GetThreadTimes(GetCurrentProcess(), &creation, &exit_time, &kernel, &user);
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "process handle: %d, error %lu\n", ret,
	   GetLastError());
}

int main(void)
{
	test_system_times();
	test_process_times();
	test_thread_times();
	return test_summary();
}
