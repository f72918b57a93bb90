/* ReadProcessMemory / WriteProcessMemory between two processes: the
 * child ("process_memory child") fills a 1 MiB buffer, tells its parent
 * where it is and where it may write, and checks what the parent wrote
 * once told to.  Every wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "self_child.h"

#define BIG (1u << 20)

static const char message[] = "written by the parent";

static int child(void)
{
	unsigned char *big = VirtualAlloc(NULL, BIG, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	static char target[64];
	char line[64], c;
	DWORD n;

	if (!big)
		return 90;
	for (DWORD i = 0; i < BIG; i++)
		big[i] = (unsigned char)(i * 7 + 3);
	n = (DWORD)snprintf(line, sizeof(line), "%p %p\n", big, target);
	WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), line, n, &n, NULL);
	/* The parent writes one byte to our stdin once it wrote target. */
	if (!ReadFile(GetStdHandle(STD_INPUT_HANDLE), &c, 1, &n, NULL) || n != 1)
		return 91;
	return strcmp(target, message) ? 92 : 0;
}

static void test_cross_process(void)
{
	struct self_child c;
	HANDLE h;
	unsigned char *copy = malloc(BIG);
	char buf[64] = "";
	void *remote_big = NULL, *remote_target = NULL;
	SIZE_T done = 0;
	DWORD n = 0, code, bad = 0;
	BOOL ret;

	if (!self_child_start(&c, "child")) {
		free(copy);
		return;
	}
	ok(ReadFile(c.out_r, buf, sizeof(buf) - 1, &n, NULL) && n > 4, "no addresses: %lu\n", GetLastError());
	buf[n] = 0;
	ok(sscanf(buf, "%p %p", &remote_big, &remote_target) == 2, "addresses [%s]\n", buf);

	h = OpenProcess(PROCESS_VM_READ, FALSE, c.pi.dwProcessId);
	ok(h != NULL, "OpenProcess: %lu\n", GetLastError());
	ret = ReadProcessMemory(h, remote_big, copy, BIG, &done);
	ok(ret && done == BIG, "ReadProcessMemory: %d, %lu, %lu bytes\n", ret, GetLastError(), (DWORD)done);
	for (DWORD i = 0; ret && i < BIG; i++)
		if (copy[i] != (unsigned char)(i * 7 + 3))
			bad++;
	ok(ret && !bad, "%lu bytes differ\n", bad);
	SetLastError(0xdeadbeef);
	ret = WriteProcessMemory(h, remote_target, message, sizeof(message), &done);
	ok(!ret && GetLastError() == ERROR_ACCESS_DENIED, "write without PROCESS_VM_WRITE: %d, %lu\n", ret,
	   GetLastError());
	CloseHandle(h);

	h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, c.pi.dwProcessId);
	SetLastError(0xdeadbeef);
	ret = ReadProcessMemory(h, remote_big, copy, 16, &done);
	ok(!ret && GetLastError() == ERROR_ACCESS_DENIED, "read without PROCESS_VM_READ: %d, %lu\n", ret,
	   GetLastError());
	CloseHandle(h);

	SetLastError(0xdeadbeef);
	ret = ReadProcessMemory(c.pi.hProcess, (void *)0x10, copy, 16, &done);
	ok(!ret && GetLastError() == ERROR_NOACCESS && done == 0, "unmapped address: %d, %lu, %lu\n",
	   ret, GetLastError(), (DWORD)done);

	ret = WriteProcessMemory(c.pi.hProcess, remote_target, message, sizeof(message), &done);
	ok(ret && done == sizeof(message), "WriteProcessMemory: %d, %lu\n", ret, GetLastError());
	WriteFile(c.in_w, "g", 1, &n, NULL);
	code = self_child_finish(&c);
	ok(code == 0, "the child did not see the parent's write: %lu\n", code);
	free(copy);
}

static void test_self(void)
{
	char src[] = "local bytes", dst[sizeof(src)] = "";
	SIZE_T done = 0;

	ok(ReadProcessMemory(GetCurrentProcess(), src, dst, sizeof(src), &done) && done == sizeof(src) &&
		   !strcmp(dst, src),
	   "read from self: %lu\n", GetLastError());
	ok(WriteProcessMemory(GetCurrentProcess(), dst, "LOCAL", 5, &done) && done == 5 &&
		   !memcmp(dst, "LOCAL", 5),
	   "write to self: %lu\n", GetLastError());
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "child"))
		return child();
	test_self();
	test_cross_process();
	return test_summary();
}
