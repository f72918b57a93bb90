/* NtOpenFile and NtCreateNamedPipeFile as Rust's standard library uses
 * them for a child's pipes: the pipe file system's root (\??\PIPE\), an
 * unnamed pipe created relative to it, its client end opened relative to
 * the server handle with an empty name; data both ways, and the broken
 * pipe when the client end closes.  NtOpenFile of a file by NT path, of a
 * name relative to an open folder, and its errors. */
#include <windows.h>
#include <winternl.h>

#include "test.h"

#define ST_OBJECT_NAME_NOT_FOUND ((NTSTATUS)0xc0000034)
#define ST_NOT_A_DIRECTORY ((NTSTATUS)0xc0000103)
#define ST_FILE_IS_A_DIRECTORY ((NTSTATUS)0xc00000ba)
#ifndef FILE_SYNCHRONOUS_IO_NONALERT
#define FILE_SYNCHRONOUS_IO_NONALERT 0x20
#endif
#ifndef FILE_NON_DIRECTORY_FILE
#define FILE_NON_DIRECTORY_FILE 0x40
#endif
#ifndef FILE_DIRECTORY_FILE
#define FILE_DIRECTORY_FILE 0x1
#endif
#ifndef FILE_CREATE
#define FILE_CREATE 2
#endif

typedef NTSTATUS(WINAPI *open_fn)(HANDLE *, ACCESS_MASK, OBJECT_ATTRIBUTES *, IO_STATUS_BLOCK *, ULONG, ULONG);
typedef NTSTATUS(WINAPI *pipe_fn)(HANDLE *, ULONG, OBJECT_ATTRIBUTES *, IO_STATUS_BLOCK *, ULONG, ULONG, ULONG, ULONG,
				  ULONG, ULONG, ULONG, ULONG, ULONG, LARGE_INTEGER *);

static open_fn nt_open;
static pipe_fn nt_pipe;

static void set_name(UNICODE_STRING *u, const WCHAR *s)
{
	u->Buffer = (WCHAR *)s;
	u->Length = u->MaximumLength = (USHORT)(lstrlenW(s) * sizeof(WCHAR));
}

static void test_anonymous_pipe(void)
{
	OBJECT_ATTRIBUTES attr = { .Length = sizeof(attr) };
	UNICODE_STRING name, empty = { 0, 0, NULL };
	IO_STATUS_BLOCK io;
	LARGE_INTEGER timeout = { .QuadPart = -50 * 10000000ll };
	HANDLE root = NULL, ours = NULL, theirs = NULL, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	OVERLAPPED ov = { .hEvent = ev };
	char buf[16] = { 0 };
	DWORD n = 0;
	NTSTATUS st;

	set_name(&name, L"\\??\\PIPE\\");
	attr.ObjectName = &name;
	st = nt_open(&root, SYNCHRONIZE | GENERIC_READ, &attr, &io, FILE_SHARE_READ | FILE_SHARE_WRITE,
		     FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == 0 && root, "open \\??\\PIPE\\: %#lx\n", st);

	attr.ObjectName = &empty;
	attr.RootDirectory = root;
	st = nt_pipe(&ours, SYNCHRONIZE | GENERIC_READ, &attr, &io, FILE_SHARE_WRITE, FILE_CREATE, 0, 0, 0, 0, 1,
		     65536, 65536, &timeout);
	ok(st == 0 && ours, "NtCreateNamedPipeFile: %#lx\n", st);

	attr.RootDirectory = ours;
	st = nt_open(&theirs, SYNCHRONIZE | FILE_GENERIC_WRITE, &attr, &io, 0,
		     FILE_NON_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == 0 && theirs, "open the client end: %#lx\n", st);
	if (st || !ours)
		return;

	ok(WriteFile(theirs, "ping", 4, &n, NULL) && n == 4, "write: %lu\n", GetLastError());
	/* Ours is asynchronous: an overlapped read. */
	if (!ReadFile(ours, buf, sizeof(buf), NULL, &ov))
		ok(GetLastError() == ERROR_IO_PENDING, "read: %lu\n", GetLastError());
	ok(GetOverlappedResult(ours, &ov, &n, TRUE) && n == 4 && !memcmp(buf, "ping", 4), "read %lu '%s'\n", n, buf);
	CloseHandle(theirs);
	ResetEvent(ev);
	/* The client is gone: the read fails at once with ERROR_BROKEN_PIPE,
	 * or pends and ends so (bounded: Wine leaves such a read pending). */
	if (ReadFile(ours, buf, sizeof(buf), NULL, &ov)) {
		ok(0, "read after the client closed succeeded\n");
	} else if (GetLastError() != ERROR_IO_PENDING) {
		ok(GetLastError() == ERROR_BROKEN_PIPE, "read after the client closed: %lu\n", GetLastError());
	} else if (WaitForSingleObject(ev, 5000) == WAIT_OBJECT_0) {
		BOOL r = GetOverlappedResult(ours, &ov, &n, FALSE);
		DWORD err = GetLastError();

		ok(!r && err == ERROR_BROKEN_PIPE, "read after the client closed: %lu\n", err);
	} else {
		ok_todo_wine(0, "read still pending 5 s after the client closed\n");
		CancelIo(ours);
	}
	CloseHandle(ours);
	CloseHandle(root);
	CloseHandle(ev);
}

static void test_files(void)
{
	OBJECT_ATTRIBUTES attr = { .Length = sizeof(attr) };
	WCHAR tmp[MAX_PATH], nt[MAX_PATH + 8], file[MAX_PATH];
	UNICODE_STRING name;
	IO_STATUS_BLOCK io;
	HANDLE h = NULL, dir, f;
	char buf[8] = { 0 };
	DWORD n;
	NTSTATUS st;

	GetTempPathW(MAX_PATH, tmp);
	_snwprintf(file, MAX_PATH, L"ndshim-ntopen-%lu", GetCurrentProcessId());
	_snwprintf(nt, MAX_PATH, L"\\??\\%ls%ls", tmp, file);
	{
		WCHAR full[MAX_PATH];

		_snwprintf(full, MAX_PATH, L"%ls%ls", tmp, file);
		f = CreateFileW(full, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
		WriteFile(f, "data", 4, &n, NULL);
		CloseHandle(f);
	}

	set_name(&name, nt);
	attr.ObjectName = &name;
	st = nt_open(&h, GENERIC_READ | SYNCHRONIZE, &attr, &io, FILE_SHARE_READ, FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == 0 && io.Information == 1 /* FILE_OPENED */, "open by NT path: %#lx\n", st);
	ok(ReadFile(h, buf, 4, &n, NULL) && n == 4 && !memcmp(buf, "data", 4), "read '%s'\n", buf);
	CloseHandle(h);

	st = nt_open(&h, GENERIC_READ | SYNCHRONIZE, &attr, &io, FILE_SHARE_READ,
		     FILE_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == ST_NOT_A_DIRECTORY, "a file opened as a folder: %#lx\n", st);

	/* A name relative to an open folder. */
	dir = CreateFileW(tmp, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
			  FILE_FLAG_BACKUP_SEMANTICS, NULL);
	ok(dir != INVALID_HANDLE_VALUE, "open the temp folder: %lu\n", GetLastError());
	set_name(&name, file);
	attr.RootDirectory = dir;
	st = nt_open(&h, GENERIC_READ | SYNCHRONIZE, &attr, &io, FILE_SHARE_READ, FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == 0, "relative open: %#lx\n", st);
	if (!st)
		CloseHandle(h);
	set_name(&name, L"ndshim-no-such-file");
	st = nt_open(&h, GENERIC_READ | SYNCHRONIZE, &attr, &io, FILE_SHARE_READ, FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == ST_OBJECT_NAME_NOT_FOUND, "a missing file: %#lx\n", st);
	CloseHandle(dir);

	_snwprintf(nt, MAX_PATH, L"\\??\\%ls", tmp);
	nt[lstrlenW(nt) - 1] = 0; /* no trailing separator */
	set_name(&name, nt);
	attr.RootDirectory = NULL;
	st = nt_open(&h, GENERIC_READ | SYNCHRONIZE, &attr, &io, FILE_SHARE_READ | FILE_SHARE_WRITE,
		     FILE_NON_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT);
	ok(st == ST_FILE_IS_A_DIRECTORY, "a folder opened as a file: %#lx\n", st);

	{
		WCHAR full[MAX_PATH];

		_snwprintf(full, MAX_PATH, L"%ls%ls", tmp, file);
		DeleteFileW(full);
	}
}

int main(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");

	nt_open = (open_fn)(void *)GetProcAddress(ntdll, "NtOpenFile");
	nt_pipe = (pipe_fn)(void *)GetProcAddress(ntdll, "NtCreateNamedPipeFile");
	ok(nt_open && nt_pipe, "ntdll lacks NtOpenFile/NtCreateNamedPipeFile\n");
	if (nt_open && nt_pipe) {
		test_anonymous_pipe();
		test_files();
	}
	return test_summary();
}
