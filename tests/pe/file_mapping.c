/* File mappings: pagefile-backed (unnamed and named, shared with a child
 * process by name), file-backed, views at a requested address, views
 * above 4 GiB, and the argument rules.  The program starts a copy of
 * itself ("file_mapping child NAME"); every wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define CHILD_TIMEOUT 20000

static int child(const char *name)
{
	HANDLE m = OpenFileMappingA(FILE_MAP_ALL_ACCESS, FALSE, name);
	char *v;

	if (!m)
		return 90;
	if (!(v = MapViewOfFile(m, FILE_MAP_WRITE, 0, 0, 0)))
		return 91;
	if (strcmp(v, "from the parent"))
		return 92;
	strcpy(v + 4096, "from the child");
	UnmapViewOfFile(v);
	CloseHandle(m);
	return 0;
}

static void test_unnamed(void)
{
	HANDLE m;
	char *a, *b;
	BOOL ret;

	SetLastError(0xdeadbeef);
	m = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 1 << 20, NULL);
	ok(m != NULL && GetLastError() == ERROR_SUCCESS, "CreateFileMappingW: %p, %lu\n", m, GetLastError());
	a = MapViewOfFile(m, FILE_MAP_ALL_ACCESS, 0, 0, 0);
	b = MapViewOfFile(m, FILE_MAP_READ, 0, 0x10000, 0x10000);
	ok(a && b, "MapViewOfFile: %lu\n", GetLastError());
	if (!a || !b)
		return;
	ok(!((ULONG_PTR)a & 0xffff) && !((ULONG_PTR)b & 0xffff), "views not 64 KiB aligned: %p %p\n", a, b);
	strcpy(a + 0x10000, "shared");
	ok(!strcmp(b, "shared"), "second view sees [%s]\n", b);
	ok(UnmapViewOfFile(a), "UnmapViewOfFile: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ret = UnmapViewOfFile(a);
	ok(!ret && GetLastError() == ERROR_INVALID_ADDRESS, "unmapped twice: %d, %lu\n", ret, GetLastError());
	CloseHandle(m);
	/* The view keeps the memory after the last handle is closed. */
	ok(!strcmp(b, "shared"), "view after CloseHandle [%s]\n", b);
	UnmapViewOfFile(b);

	SetLastError(0xdeadbeef);
	m = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 0, NULL);
	ok(!m && GetLastError() == ERROR_INVALID_PARAMETER, "size 0: %p, %lu\n", m, GetLastError());
}

static void test_argument_rules(void)
{
	HANDLE m = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READONLY, 0, 0x20000, NULL);
	void *v, *at;

	ok(m != NULL, "CreateFileMappingW: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	v = MapViewOfFile(m, FILE_MAP_WRITE, 0, 0, 0);
	ok(!v && GetLastError() == ERROR_ACCESS_DENIED, "write view of a read-only mapping: %p, %lu\n", v,
	   GetLastError());
	SetLastError(0xdeadbeef);
	v = MapViewOfFile(m, FILE_MAP_READ, 0, 0x1000, 0x1000);
	ok(!v && GetLastError() == ERROR_MAPPED_ALIGNMENT, "unaligned offset: %p, %lu\n", v, GetLastError());
	SetLastError(0xdeadbeef);
	v = MapViewOfFile(m, FILE_MAP_READ, 0, 0x10000, 0x20000);
	ok(!v && GetLastError() == ERROR_ACCESS_DENIED, "view past the end: %p, %lu\n", v, GetLastError());

	/* MapViewOfFileEx at a free address, then at a taken one. */
	at = MapViewOfFile(m, FILE_MAP_READ, 0, 0, 0);
	ok(at != NULL, "MapViewOfFile: %lu\n", GetLastError());
	UnmapViewOfFile(at);
	v = MapViewOfFileEx(m, FILE_MAP_READ, 0, 0, 0, at);
	ok(v == at, "MapViewOfFileEx at %p: %p, %lu\n", at, v, GetLastError());
	SetLastError(0xdeadbeef);
	v = MapViewOfFileEx(m, FILE_MAP_READ, 0, 0, 0, at);
	ok(!v && GetLastError() == ERROR_INVALID_ADDRESS, "taken address: %p, %lu\n", v, GetLastError());
	UnmapViewOfFile(at);
	CloseHandle(m);
}

/* Named mappings: ERROR_ALREADY_EXISTS, OpenFileMapping's access, the
 * Local\ prefix, the name gone with its last holder, and a child
 * process that opens it by name. */
static void test_named(void)
{
	STARTUPINFOA si = { .cb = sizeof(si) };
	char name[64], local[80], self[MAX_PATH], line[MAX_PATH + 80];
	PROCESS_INFORMATION pi;
	HANDLE m, m2, ro;
	DWORD code = ~0u;
	char *v, *r;

	snprintf(name, sizeof(name), "ndshim_file_mapping_%lu", GetCurrentProcessId());
	snprintf(local, sizeof(local), "Local\\%s", name);
	SetLastError(0xdeadbeef);
	m = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 0x20000, local);
	ok(m != NULL && GetLastError() == ERROR_SUCCESS, "create: %p, %lu\n", m, GetLastError());
	SetLastError(0xdeadbeef);
	m2 = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 0x10000, name);
	ok(m2 != NULL && GetLastError() == ERROR_ALREADY_EXISTS, "again: %p, %lu\n", m2, GetLastError());
	v = MapViewOfFile(m, FILE_MAP_ALL_ACCESS, 0, 0, 0);
	r = MapViewOfFile(m2, FILE_MAP_READ, 0, 0, 0x20000);
	ok(v && r, "views: %lu\n", GetLastError());
	if (!v || !r)
		return;
	strcpy(v, "from the parent");
	ok(!strcmp(r, "from the parent"), "the existing mapping (its own size) [%s]\n", r);

	ro = OpenFileMappingA(FILE_MAP_READ, FALSE, local);
	ok(ro != NULL, "OpenFileMappingA: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!MapViewOfFile(ro, FILE_MAP_WRITE, 0, 0, 0) && GetLastError() == ERROR_ACCESS_DENIED,
	   "write view through a read handle: %lu\n", GetLastError());
	CloseHandle(ro);

	GetModuleFileNameA(NULL, self, sizeof(self));
	snprintf(line, sizeof(line), "\"%s\" child %s", self, local);
	ok(CreateProcessA(NULL, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi), "CreateProcessA: %lu\n",
	   GetLastError());
	ok(WaitForSingleObject(pi.hProcess, CHILD_TIMEOUT) == WAIT_OBJECT_0, "child did not end\n");
	GetExitCodeProcess(pi.hProcess, &code);
	ok(code == 0, "child: %lu\n", code);
	TerminateProcess(pi.hProcess, 1);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	ok(!strcmp(v + 4096, "from the child"), "the child's write [%s]\n", v + 4096);

	UnmapViewOfFile(v);
	UnmapViewOfFile(r);
	CloseHandle(m);
	CloseHandle(m2);
	SetLastError(0xdeadbeef);
	m = OpenFileMappingA(FILE_MAP_READ, FALSE, local);
	ok(!m && GetLastError() == ERROR_FILE_NOT_FOUND, "after the last holder: %p, %lu\n", m,
	   GetLastError());
}

/* A 5 GiB mapping: views above 4 GiB, 64-bit offsets. */
static void test_large(void)
{
	HANDLE m = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 1, 0x40000000, NULL);
	char *a, *b;

	ok(m != NULL, "5 GiB mapping: %lu\n", GetLastError());
	if (!m)
		return;
	a = MapViewOfFile(m, FILE_MAP_WRITE, 1, 0x10000, 0x10000);
	b = MapViewOfFile(m, FILE_MAP_READ, 1, 0, 0x20000);
	ok(a && b, "views above 4 GiB: %lu\n", GetLastError());
	if (a && b) {
		strcpy(a + 100, "above 4 GiB");
		ok(!strcmp(b + 0x10000 + 100, "above 4 GiB"), "[%s]\n", b + 0x10000 + 100);
	}
	UnmapViewOfFile(a);
	UnmapViewOfFile(b);
	CloseHandle(m);
}

static void test_file_backed(void)
{
	const char *path = "file_mapping.tmp";
	HANDLE f, m;
	char buf[32] = "";
	DWORD n;
	char *v;

	f = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(f != INVALID_HANDLE_VALUE, "CreateFileA: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	m = CreateFileMappingA(f, NULL, PAGE_READWRITE, 0, 0, NULL);
	ok(!m && GetLastError() == ERROR_FILE_INVALID, "empty file: %p, %lu\n", m, GetLastError());
	WriteFile(f, "hello", 5, &n, NULL);
	m = CreateFileMappingA(f, NULL, PAGE_READWRITE, 0, 0x3000, NULL);
	ok(m != NULL, "CreateFileMappingA: %lu\n", GetLastError());
	ok(GetFileSize(f, NULL) == 0x3000, "file grown to %lu\n", GetFileSize(f, NULL));
	v = MapViewOfFile(m, FILE_MAP_WRITE, 0, 0, 0);
	ok(v && !memcmp(v, "hello", 5), "view of the file\n");
	if (v) {
		memcpy(v, "HELLO", 5);
		ok(FlushViewOfFile(v, 0), "FlushViewOfFile: %lu\n", GetLastError());
		UnmapViewOfFile(v);
	}
	CloseHandle(m);
	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	ok(ReadFile(f, buf, 5, &n, NULL) && !memcmp(buf, "HELLO", 5), "file after the view: [%.5s]\n", buf);
	CloseHandle(f);
	DeleteFileA(path);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "child"))
		return child(argv[2]);
	test_unnamed();
	test_argument_rules();
	test_named();
	test_large();
	test_file_backed();
	return test_summary();
}
