/* DuplicateHandle between two processes: into a child (a named event,
 * a named mutex, a named semaphore, an anonymous pipe end, a file, an
 * unnamed mapping, the parent's own process), out of a child with DUPLICATE_CLOSE_SOURCE (a
 * mapping and a pipe end the child made), a handle closed in the child
 * from here, and the PROCESS_DUP_HANDLE right.  The child is this
 * program ("process_duphandle child <mode>"); handle values travel
 * through its standard streams.  Every wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe_lines.h"
#include "test.h"
#include "self_child.h"

#define TIMEOUT 20000

static const char payload[] = "mapped by the parent";
static const char reply[] = "answered by the child";

/* A line of hex handle values from stdin. */
static int read_handles(HANDLE *h, int n)
{
	char line[256], *p = line;

	read_line(GetStdHandle(STD_INPUT_HANDLE), line, sizeof(line));
	for (int i = 0; i < n; i++) {
		h[i] = (HANDLE)(ULONG_PTR)strtoull(p, &p, 16);
		if (!h[i])
			return -1;
	}
	return 0;
}

/* Handles the parent put into us: use each. */
static int child_into(void)
{
	HANDLE h[7], ev, mtx, sem, pipe_w, file, map, parent;
	DWORD n, code = 0;
	char *view;

	if (read_handles(h, 7))
		return 40;
	ev = h[0], mtx = h[1], sem = h[2], pipe_w = h[3], file = h[4], map = h[5], parent = h[6];
	/* The parent's GetCurrentProcess(), made a real handle here. */
	if (WaitForSingleObject(parent, 0) != WAIT_TIMEOUT || !GetExitCodeProcess(parent, &code) ||
	    code != STILL_ACTIVE)
		return 48;
	CloseHandle(parent);
	if (!WriteFile(pipe_w, "piped", 5, &n, NULL) || n != 5)
		return 41;
	CloseHandle(pipe_w);
	if (!WriteFile(file, "filed", 5, &n, NULL) || n != 5)
		return 42;
	CloseHandle(file);
	view = MapViewOfFile(map, FILE_MAP_WRITE, 0, 0, 4096);
	if (!view || strcmp(view, payload))
		return 43;
	strcpy(view + 1024, reply);
	UnmapViewOfFile(view);
	if (WaitForSingleObject(mtx, TIMEOUT) != WAIT_OBJECT_0)
		return 44;
	if (!ReleaseSemaphore(sem, 1, NULL))
		return 45;
	if (!SetEvent(ev))
		return 46;
	/* Exits holding the mutex: abandoned in the parent. */
	return 0;
}

/* Makes a mapping and a pipe, tells the parent their values, writes. */
static int child_out(void)
{
	HANDLE map = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, NULL);
	HANDLE r, w, h[1];
	char line[128], *view;
	DWORD n;

	if (!map || !CreatePipe(&r, &w, NULL, 0))
		return 50;
	view = MapViewOfFile(map, FILE_MAP_WRITE, 0, 0, 0);
	if (!view)
		return 51;
	strcpy(view, reply);
	n = (DWORD)snprintf(line, sizeof(line), "%p %p\n", map, r);
	WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), line, n, &n, NULL);
	if (!WriteFile(w, "from child", 10, &n, NULL))
		return 52;
	CloseHandle(w);
	/* Wait for the parent's word that it took them. */
	if (read_handles(h, 1))
		return 53;
	/* DUPLICATE_CLOSE_SOURCE closed ours. */
	if (CloseHandle(map) || GetLastError() != ERROR_INVALID_HANDLE)
		return 54;
	/* The parent's view shows what we write now. */
	strcpy(view, "second");
	UnmapViewOfFile(view);
	return 0;
}

static void test_into_child(void)
{
	char name[64], path[MAX_PATH], dir[MAX_PATH], line[256], buf[32] = "";
	HANDLE ev, mtx, sem, pipe_r, pipe_w, file, map, mine[7], in[7], proc;
	struct self_child c;
	char *view;
	DWORD n = 0, r, code;
	int i;

	snprintf(name, sizeof(name), "ndshim_duph_%lu", GetCurrentProcessId());
	ev = CreateEventA(NULL, FALSE, FALSE, name);
	strcat(name, "_m");
	mtx = CreateMutexA(NULL, FALSE, name);
	strcat(name, "_s");
	sem = CreateSemaphoreA(NULL, 0, 5, name);
	ok(CreatePipe(&pipe_r, &pipe_w, NULL, 0), "CreatePipe\n");
	GetTempPathA(sizeof(dir), dir);
	snprintf(path, sizeof(path), "%sndshim_duph_%lu.tmp", dir, GetCurrentProcessId());
	file = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_DELETE_ON_CLOSE,
			   NULL);
	map = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, NULL);
	view = MapViewOfFile(map, FILE_MAP_WRITE, 0, 0, 0);
	ok(ev && mtx && sem && file != INVALID_HANDLE_VALUE && view, "objects: %lu\n", GetLastError());
	strcpy(view, payload);

	self_child_start(&c, "child into");
	mine[0] = ev, mine[1] = mtx, mine[2] = sem, mine[3] = pipe_w, mine[4] = file, mine[5] = map;
	mine[6] = GetCurrentProcess();
	for (i = 0; i < 7; i++) {
		DWORD opts = DUPLICATE_SAME_ACCESS | (i == 3 ? DUPLICATE_CLOSE_SOURCE : 0);

		in[i] = NULL;
		/* The event goes with SYNCHRONIZE | EVENT_MODIFY_STATE only. */
		if (i == 0)
			r = DuplicateHandle(GetCurrentProcess(), mine[i], c.pi.hProcess, &in[i],
					    SYNCHRONIZE | EVENT_MODIFY_STATE, FALSE, 0);
		else
			r = DuplicateHandle(GetCurrentProcess(), mine[i], c.pi.hProcess, &in[i], 0, FALSE, opts);
		ok(r && in[i], "DuplicateHandle %d into the child: %lu\n", i, GetLastError());
	}
	/* DUPLICATE_CLOSE_SOURCE closed our pipe end: the child's is the
	 * last writer. */
	SetLastError(0xdeadbeef);
	ok(!CloseHandle(pipe_w) && GetLastError() == ERROR_INVALID_HANDLE, "source closed: %lu\n", GetLastError());
	snprintf(line, sizeof(line), "%p %p %p %p %p %p %p\n", in[0], in[1], in[2], in[3], in[4], in[5], in[6]);
	write_line(c.in_w, line);

	r = WaitForSingleObject(ev, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "event set by the child through its duplicate: %#lx\n", r);
	ok(WaitForSingleObject(sem, TIMEOUT) == WAIT_OBJECT_0, "semaphore released by the child\n");
	ok(ReadFile(pipe_r, buf, sizeof(buf) - 1, &n, NULL) && n == 5 && !memcmp(buf, "piped", 5),
	   "pipe written by the child: %lu %.5s\n", n, buf);
	SetLastError(0xdeadbeef);
	ok(!ReadFile(pipe_r, buf, sizeof(buf), &n, NULL) && GetLastError() == ERROR_BROKEN_PIPE,
	   "the child closed the last write end: %lu\n", GetLastError());
	code = self_child_finish(&c);
	ok(code == 0, "child into exit code %lu\n", code);
	ok(!strcmp(view + 1024, reply), "mapping written by the child: %.30s\n", view + 1024);
	SetFilePointer(file, 0, NULL, FILE_BEGIN);
	memset(buf, 0, sizeof(buf));
	ok(ReadFile(file, buf, sizeof(buf) - 1, &n, NULL) && n == 5 && !strcmp(buf, "filed"),
	   "file written through the child's duplicate: %lu %s\n", n, buf);
	r = WaitForSingleObject(mtx, TIMEOUT);
	ok(r == WAIT_ABANDONED, "mutex the child exited holding: %#lx\n", r);
	ReleaseMutex(mtx);

	/* PROCESS_DUP_HANDLE is needed on the process handle. */
	proc = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, GetCurrentProcessId());
	SetLastError(0xdeadbeef);
	ok(!DuplicateHandle(proc, ev, GetCurrentProcess(), &in[0], 0, FALSE, DUPLICATE_SAME_ACCESS) &&
		   GetLastError() == ERROR_ACCESS_DENIED,
	   "without PROCESS_DUP_HANDLE: %lu\n", GetLastError());
	CloseHandle(proc);
	proc = OpenProcess(PROCESS_DUP_HANDLE, FALSE, GetCurrentProcessId());
	ok(DuplicateHandle(proc, ev, GetCurrentProcess(), &in[0], 0, FALSE, DUPLICATE_SAME_ACCESS),
	   "with PROCESS_DUP_HANDLE: %lu\n", GetLastError());
	CloseHandle(in[0]);
	CloseHandle(proc);

	UnmapViewOfFile(view);
	CloseHandle(map);
	CloseHandle(file);
	CloseHandle(pipe_r);
	CloseHandle(ev);
	CloseHandle(mtx);
	CloseHandle(sem);
}

static void test_out_of_child(void)
{
	HANDLE theirs[2], mine[2] = { NULL, NULL }, again = NULL;
	char line[128] = "", buf[32] = "", *view;
	struct self_child c;
	DWORD n = 0, code;

	self_child_start(&c, "child out");
	read_line(c.out_r, line, sizeof(line));
	ok(sscanf(line, "%p %p", &theirs[0], &theirs[1]) == 2, "child's handles: %s\n", line);
	for (int i = 0; i < 2; i++)
		ok(DuplicateHandle(c.pi.hProcess, theirs[i], GetCurrentProcess(), &mine[i], 0, FALSE,
				   DUPLICATE_SAME_ACCESS | DUPLICATE_CLOSE_SOURCE),
		   "DuplicateHandle %d out of the child: %lu\n", i, GetLastError());
	SetLastError(0xdeadbeef);
	ok(!DuplicateHandle(c.pi.hProcess, theirs[0], GetCurrentProcess(), &again, 0, FALSE, DUPLICATE_SAME_ACCESS) &&
		   GetLastError() == ERROR_INVALID_HANDLE,
	   "the closed source again: %lu\n", GetLastError());
	view = MapViewOfFile(mine[0], FILE_MAP_READ, 0, 0, 0);
	ok(view && !strcmp(view, reply), "the child's mapping: %.30s\n", view ? view : "(none)");
	ok(ReadFile(mine[1], buf, sizeof(buf) - 1, &n, NULL) && n == 10 && !memcmp(buf, "from child", 10),
	   "the child's pipe: %lu %.10s\n", n, buf);
	write_line(c.in_w, "1\n");
	code = self_child_finish(&c);
	ok(code == 0, "child out exit code %lu\n", code);
	ok(view && !strcmp(view, "second"), "written by the child after the duplicate: %.30s\n", view ? view : "");
	if (view)
		UnmapViewOfFile(view);
	CloseHandle(mine[0]);
	CloseHandle(mine[1]);
}

/* A handle of the child closed from here: DuplicateHandle with
 * DUPLICATE_CLOSE_SOURCE and no target. */
static void test_close_in_child(void)
{
	HANDLE theirs[2];
	char line[128] = "";
	struct self_child c;
	HANDLE dummy;

	self_child_start(&c, "child out");
	read_line(c.out_r, line, sizeof(line));
	ok(sscanf(line, "%p %p", &theirs[0], &theirs[1]) == 2, "child's handles: %s\n", line);
	/* The documented way to close a handle in another process (a NULL
	 * target process with DUPLICATE_CLOSE_SOURCE).  Wine 8 leaves the
	 * handle open: todo_wine. */
	ok_todo_wine(DuplicateHandle(c.pi.hProcess, theirs[0], NULL, NULL, 0, FALSE, DUPLICATE_CLOSE_SOURCE),
		     "close in the child: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok_todo_wine(!DuplicateHandle(c.pi.hProcess, theirs[0], GetCurrentProcess(), &dummy, 0, FALSE,
				      DUPLICATE_SAME_ACCESS) &&
			     GetLastError() == ERROR_INVALID_HANDLE,
		     "closed: %lu\n", GetLastError());
	write_line(c.in_w, "1\n");
	/* The child's own CloseHandle finds it closed: it exits 0. */
	ok_todo_wine(self_child_finish(&c) == 0, "child exit code\n");
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "child")) {
		if (!strcmp(argv[2], "into"))
			return child_into();
		if (!strcmp(argv[2], "out"))
			return child_out();
		return 99;
	}
	test_into_child();
	test_out_of_child();
	test_close_in_child();
	return test_summary();
}
