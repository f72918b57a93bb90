/* NtCreateFile's dispositions and what it reports in Information
 * (FILE_CREATED, FILE_OPENED, FILE_OVERWRITTEN, FILE_SUPERSEDED), a new
 * folder (FILE_DIRECTORY_FILE), FILE_DELETE_ON_CLOSE; NtCancelIoFileEx
 * cancels a pending overlapped read by its IO_STATUS_BLOCK (the
 * OVERLAPPED) and answers STATUS_NOT_FOUND when nothing is pending;
 * NtClose closes, STATUS_INVALID_HANDLE for a closed handle. */
#include <windows.h>
#include <winternl.h>

#include "test.h"

typedef NTSTATUS(WINAPI *create_fn)(HANDLE *, ACCESS_MASK, OBJECT_ATTRIBUTES *, IO_STATUS_BLOCK *, LARGE_INTEGER *,
				    ULONG, ULONG, ULONG, ULONG, void *, ULONG);
typedef NTSTATUS(WINAPI *cancel_fn)(HANDLE, IO_STATUS_BLOCK *, IO_STATUS_BLOCK *);
typedef NTSTATUS(WINAPI *close_fn)(HANDLE);

static create_fn nt_create;

static NTSTATUS create(const WCHAR *nt_path, ULONG disposition, ULONG options, ULONG_PTR *info, HANDLE *h)
{
	UNICODE_STRING us;
	OBJECT_ATTRIBUTES oa;
	IO_STATUS_BLOCK io;
	NTSTATUS st;

	us.Buffer = (WCHAR *)nt_path;
	us.Length = us.MaximumLength = (USHORT)(lstrlenW(nt_path) * sizeof(WCHAR));
	InitializeObjectAttributes(&oa, &us, OBJ_CASE_INSENSITIVE, NULL, NULL);
	io.Information = 0xdead;
	*h = NULL;
	st = nt_create(h, GENERIC_READ | GENERIC_WRITE | DELETE | SYNCHRONIZE, &oa, &io, NULL, FILE_ATTRIBUTE_NORMAL,
		       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, disposition,
		       options | FILE_SYNCHRONOUS_IO_NONALERT, NULL, 0);
	*info = io.Information;
	return st;
}

int main(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	cancel_fn cancel = (cancel_fn)(void *)GetProcAddress(ntdll, "NtCancelIoFileEx");
	WCHAR tmp[MAX_PATH], file[MAX_PATH + 8], dir[MAX_PATH + 8], dos[MAX_PATH], pipe_name[64];
	ULONG_PTR info;
	NTSTATUS st;
	HANDLE h, srv, cli;
	OVERLAPPED ov = { 0 };
	IO_STATUS_BLOCK cio;
	char buf[16];
	DWORD n;

	nt_create = (create_fn)(void *)GetProcAddress(ntdll, "NtCreateFile");
	ok(nt_create && cancel, "ntdll lacks NtCreateFile or NtCancelIoFileEx\n");
	if (!nt_create || !cancel)
		return test_summary();
	GetTempPathW(MAX_PATH, tmp);
	wsprintfW(dos, L"%sntcreate-%lu.txt", tmp, GetCurrentProcessId());
	wsprintfW(file, L"\\??\\%s", dos);
	wsprintfW(dir, L"\\??\\%sntcreate-dir-%lu", tmp, GetCurrentProcessId());
	DeleteFileW(dos);

	st = create(file, FILE_OPEN, 0, &info, &h);
	ok(st == (NTSTATUS)0xc0000034, "FILE_OPEN of nothing: %#lx\n", st); /* STATUS_OBJECT_NAME_NOT_FOUND */
	st = create(file, FILE_CREATE, 0, &info, &h);
	ok(!st && info == FILE_CREATED, "FILE_CREATE: %#lx, %llu\n", st, (unsigned long long)info);
	ok(WriteFile(h, "abc", 3, &n, NULL), "write failed\n");
	CloseHandle(h);
	st = create(file, FILE_CREATE, 0, &info, &h);
	ok(st == (NTSTATUS)0xc0000035, "FILE_CREATE of an existing file: %#lx\n", st); /* OBJECT_NAME_COLLISION */
	st = create(file, FILE_OPEN_IF, 0, &info, &h);
	ok(!st && info == FILE_OPENED && GetFileSize(h, NULL) == 3, "FILE_OPEN_IF: %#lx, %llu\n", st,
	   (unsigned long long)info);
	CloseHandle(h);
	st = create(file, FILE_OVERWRITE_IF, 0, &info, &h);
	ok(!st && info == FILE_OVERWRITTEN && GetFileSize(h, NULL) == 0, "FILE_OVERWRITE_IF: %#lx, %llu\n", st,
	   (unsigned long long)info);
	CloseHandle(h);
	st = create(file, FILE_SUPERSEDE, FILE_DELETE_ON_CLOSE, &info, &h);
	ok(!st && info == FILE_SUPERSEDED, "FILE_SUPERSEDE: %#lx, %llu\n", st, (unsigned long long)info);
	CloseHandle(h);
	ok(GetFileAttributesW(dos) == INVALID_FILE_ATTRIBUTES, "FILE_DELETE_ON_CLOSE left the file\n");

	st = create(dir, FILE_CREATE, FILE_DIRECTORY_FILE, &info, &h);
	ok(!st && info == FILE_CREATED, "a new folder: %#lx, %llu\n", st, (unsigned long long)info);
	CloseHandle(h);
	ok(GetFileAttributesW(dir + 4) & FILE_ATTRIBUTE_DIRECTORY, "no folder was made\n");
	RemoveDirectoryW(dir + 4);

	/* A pending read on a pipe, cancelled by its IO_STATUS_BLOCK. */
	wsprintfW(pipe_name, L"\\\\.\\pipe\\ntcreate-%lu", GetCurrentProcessId());
	srv = CreateNamedPipeW(pipe_name, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED, 0, 1, 64, 64, 0, NULL);
	cli = CreateFileW(pipe_name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	ok(!ReadFile(srv, buf, sizeof(buf), NULL, &ov) && GetLastError() == ERROR_IO_PENDING, "the read did not pend\n");
	st = cancel(srv, (IO_STATUS_BLOCK *)&ov, &cio);
	ok(!st, "NtCancelIoFileEx: %#lx\n", st);
	ok(!GetOverlappedResult(srv, &ov, &n, TRUE) && GetLastError() == ERROR_OPERATION_ABORTED,
	   "the read ended with %lu\n", GetLastError());
	st = cancel(srv, NULL, &cio);
	/* As CancelIoEx's ERROR_NOT_FOUND; Wine 8 answers STATUS_SUCCESS. */
	ok_todo_wine(st == (NTSTATUS)0xc0000225, "nothing pending: %#lx\n", st); /* STATUS_NOT_FOUND */
	CloseHandle(cli);
	{
		close_fn nt_close = (close_fn)(void *)GetProcAddress(ntdll, "NtClose");

		ok(nt_close && nt_close(srv) == 0, "NtClose failed\n");
		SetLastError(0xdeadbeef);
		ok(nt_close && nt_close(srv) == (NTSTATUS)0xc0000008, "NtClose of a closed handle\n"); /* INVALID_HANDLE */
		ok(GetLastError() == 0xdeadbeef, "NtClose set the last error\n");
	}
	return test_summary();
}
