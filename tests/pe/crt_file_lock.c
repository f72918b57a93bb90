/* fprintf into files the program opened.  mingw-w64's printf (on by
 * default with -O2 in C99 mode) is linked into the program and locks a
 * stream with its own copy of _lock_file: _lock(16 + i) for _iob[i], and
 * for any other stream the CRITICAL_SECTION that msvcrt.dll allocates
 * right after the 48-byte FILE.  Checked here: many files written at once
 * through fprintf, the same file written by several threads (every line
 * must come out whole), and the locks shared with msvcrt's own functions
 * (a stream locked with _lock_file holds off fputs from another thread). */
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define NFILES 64
#define NTHREADS 4
#define NLINES 2000

static FILE *shared;
static volatile LONG fputs_done;

static unsigned __stdcall writer(void *arg)
{
	int id = (int)(INT_PTR)arg;

	for (int i = 0; i < NLINES; i++)
		fprintf(shared, "thread %d line %d %s\n", id, i, "abcdefghijklmnopqrstuvwxyz");
	return 0;
}

static unsigned __stdcall fputs_thread(void *arg)
{
	fputs("from the other thread\n", (FILE *)arg);
	InterlockedExchange(&fputs_done, 1);
	return 0;
}

static void many_files(void)
{
	FILE *f[NFILES];
	char name[64], line[128];

	for (int i = 0; i < NFILES; i++) {
		sprintf(name, "crt_file_lock_%d.txt", i);
		f[i] = fopen(name, "w");
		ok(f[i] != NULL, "fopen %s failed\n", name);
		if (!f[i])
			return;
	}
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < NFILES; i++)
			ok(fprintf(f[i], "file %d round %d %.2f\n", i, round, i + round / 4.0) > 0,
			   "fprintf to file %d failed\n", i);
	for (int i = 0; i < NFILES; i++)
		ok(fclose(f[i]) == 0, "fclose %d failed\n", i);
	for (int i = 0; i < NFILES; i++) {
		sprintf(name, "crt_file_lock_%d.txt", i);
		FILE *r = fopen(name, "r");
		ok(r != NULL, "reopen %s failed\n", name);
		if (!r)
			continue;
		for (int round = 0; round < 3; round++) {
			char want[64];
			sprintf(want, "file %d round %d %.2f\n", i, round, i + round / 4.0);
			ok(fgets(line, sizeof(line), r) && !strcmp(line, want), "file %d round %d: got [%s]\n", i,
			   round, line);
		}
		ok(!fgets(line, sizeof(line), r), "file %d: more than three lines\n", i);
		fclose(r);
		remove(name);
	}
}

static void threads_one_file(void)
{
	HANDLE t[NTHREADS];
	char line[128];
	int next[NTHREADS] = { 0 }, bad = 0;

	shared = fopen("crt_file_lock_shared.txt", "w");
	ok(shared != NULL, "fopen shared failed\n");
	if (!shared)
		return;
	for (int i = 0; i < NTHREADS; i++)
		t[i] = (HANDLE)_beginthreadex(NULL, 0, writer, (void *)(INT_PTR)i, 0, NULL);
	WaitForMultipleObjects(NTHREADS, t, TRUE, INFINITE);
	for (int i = 0; i < NTHREADS; i++)
		CloseHandle(t[i]);
	fclose(shared);

	FILE *r = fopen("crt_file_lock_shared.txt", "r");
	ok(r != NULL, "reopen shared failed\n");
	if (!r)
		return;
	while (fgets(line, sizeof(line), r)) {
		int id, n;
		char tail[40];
		/* Each thread's lines arrive in its order, each one whole. */
		if (sscanf(line, "thread %d line %d %39s", &id, &n, tail) != 3 || id < 0 || id >= NTHREADS ||
		    n != next[id] || strcmp(tail, "abcdefghijklmnopqrstuvwxyz")) {
			if (bad++ < 5)
				ok(0, "torn or out-of-order line [%s]\n", line);
			continue;
		}
		next[id]++;
	}
	fclose(r);
	ok(bad == 0, "%d bad lines\n", bad);
	for (int i = 0; i < NTHREADS; i++)
		ok(next[i] == NLINES, "thread %d: %d lines\n", i, next[i]);
	remove("crt_file_lock_shared.txt");
}

/* The lock _lock_file takes is the one fputs takes.  Wine deviates: like
 * msvcrt.dll it puts the first fopen'ed streams in _iob[3..19], but it
 * numbers the _iob locks from 28 where msvcrt.dll (and the copy of
 * _lock_file mingw-w64 links into the program, which takes
 * _lock(16 + i)) numbers them from 16, so under Wine the two take
 * different locks. */
static void lock_file_holds_off(FILE *f, const char *what)
{
	HANDLE t;

	fputs_done = 0;
	_lock_file(f);
	t = (HANDLE)_beginthreadex(NULL, 0, fputs_thread, f, 0, NULL);
	ok_todo_wine(WaitForSingleObject(t, 200) == WAIT_TIMEOUT, "%s: fputs ran while the stream was locked\n",
		     what);
	ok_todo_wine(!fputs_done, "%s: fputs finished under the lock\n", what);
	_unlock_file(f);
	ok(WaitForSingleObject(t, 10000) == WAIT_OBJECT_0, "%s: fputs never finished\n", what);
	CloseHandle(t);
}

int main(void)
{
	many_files();
	threads_one_file();

	FILE *f = fopen("crt_file_lock_held.txt", "w");
	ok(f != NULL, "fopen held failed\n");
	if (f) {
		lock_file_holds_off(f, "fopen'ed stream");
		fclose(f);
		remove("crt_file_lock_held.txt");
	}
	fflush(stdout);
	lock_file_holds_off(stdout, "stdout");
	return test_summary();
}
