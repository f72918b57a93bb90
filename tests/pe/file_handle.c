/* What an open file is: GetFileInformationByHandle(Ex) (size, links,
 * identity, times, name), SetFileInformationByHandle (end of file,
 * allocation, times, delete on close), GetFinalPathNameByHandleW/A,
 * GetFileAttributesExA/SetFileAttributesA, and ntdll's NtReadFile and
 * NtWriteFile on a synchronous handle, as Rust's standard library calls
 * them (explicit offsets, the file pointer, STATUS_END_OF_FILE). */
#include <windows.h>
#include <winternl.h>

#include "test.h"

#define ST_END_OF_FILE ((NTSTATUS)0xc0000011)

typedef NTSTATUS(WINAPI *nt_rw_fn)(HANDLE, HANDLE, void *, void *, IO_STATUS_BLOCK *, void *, ULONG,
				   LARGE_INTEGER *, ULONG *);

static char path[MAX_PATH];

static HANDLE open_file(DWORD access, DWORD disposition)
{
	return CreateFileA(path, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, disposition,
			   0, NULL);
}

static void test_information(void)
{
	BY_HANDLE_FILE_INFORMATION a, b;
	FILE_STANDARD_INFO std;
	FILE_BASIC_INFO basic;
	FILE_ATTRIBUTE_TAG_INFO tag;
	BYTE name_buf[sizeof(FILE_NAME_INFO) + MAX_PATH * sizeof(WCHAR)];
	FILE_NAME_INFO *name = (FILE_NAME_INFO *)name_buf;
	HANDLE h1 = open_file(GENERIC_READ | GENERIC_WRITE, CREATE_ALWAYS), h2;
	const char *base = strrchr(path, '\\') + 1;
	WCHAR wbase[MAX_PATH];
	DWORD done;

	ok(h1 != INVALID_HANDLE_VALUE, "create: %lu\n", GetLastError());
	WriteFile(h1, "0123456789abcdef", 16, &done, NULL);
	h2 = open_file(GENERIC_READ, OPEN_EXISTING);
	ok(GetFileInformationByHandle(h1, &a) && GetFileInformationByHandle(h2, &b), "GetFileInformationByHandle: %lu\n",
	   GetLastError());
	ok(a.nFileSizeLow == 16 && a.nFileSizeHigh == 0, "size %lu\n", a.nFileSizeLow);
	ok(a.nNumberOfLinks == 1, "links %lu\n", a.nNumberOfLinks);
	/* Two handles to one file: same volume and index. */
	ok(a.dwVolumeSerialNumber == b.dwVolumeSerialNumber && a.nFileIndexLow == b.nFileIndexLow &&
	   a.nFileIndexHigh == b.nFileIndexHigh, "two handles, two identities\n");
	ok(!(a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY), "attributes %#lx\n", a.dwFileAttributes);

	ok(GetFileInformationByHandleEx(h1, FileStandardInfo, &std, sizeof(std)), "FileStandardInfo: %lu\n",
	   GetLastError());
	ok(std.EndOfFile.QuadPart == 16 && !std.Directory && std.NumberOfLinks == 1, "standard: eof %lld dir %d\n",
	   std.EndOfFile.QuadPart, std.Directory);
	ok(GetFileInformationByHandleEx(h1, FileBasicInfo, &basic, sizeof(basic)), "FileBasicInfo: %lu\n",
	   GetLastError());
	ok(basic.LastWriteTime.QuadPart == ((LONGLONG)a.ftLastWriteTime.dwHighDateTime << 32 | a.ftLastWriteTime.dwLowDateTime),
	   "basic and by-handle write times differ\n");
	ok(GetFileInformationByHandleEx(h1, FileAttributeTagInfo, &tag, sizeof(tag)) && !tag.ReparseTag,
	   "FileAttributeTagInfo: %lu\n", GetLastError());
	ok(GetFileInformationByHandleEx(h1, FileNameInfo, name, sizeof(name_buf)), "FileNameInfo: %lu\n",
	   GetLastError());
	MultiByteToWideChar(CP_ACP, 0, base, -1, wbase, MAX_PATH);
	ok(name->FileNameLength >= lstrlenW(wbase) * sizeof(WCHAR) && name->FileName[0] == '\\' &&
	   !memcmp((BYTE *)name->FileName + name->FileNameLength - lstrlenW(wbase) * sizeof(WCHAR), wbase,
		   lstrlenW(wbase) * sizeof(WCHAR)),
	   "FileNameInfo: length %lu\n", name->FileNameLength);
	SetLastError(0xdeadbeef);
	ok(!GetFileInformationByHandleEx(h1, FileStandardInfo, &std, 4) && GetLastError() == ERROR_BAD_LENGTH,
	   "short buffer: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!GetFileInformationByHandleEx(h1, FileDispositionInfo, &std, sizeof(std)) &&
	   GetLastError() == ERROR_INVALID_PARAMETER, "query of a set-only class: %lu\n", GetLastError());
	CloseHandle(h2);
	CloseHandle(h1);
}

static void test_set_information(void)
{
	HANDLE h = open_file(GENERIC_READ | GENERIC_WRITE | DELETE, OPEN_EXISTING), r;
	FILE_END_OF_FILE_INFO eof = { .EndOfFile.QuadPart = 5 };
	FILE_ALLOCATION_INFO alloc = { .AllocationSize.QuadPart = 3 };
	FILE_BASIC_INFO basic = { 0 };
	FILE_DISPOSITION_INFO disp = { TRUE };
	LARGE_INTEGER size;
	FILETIME ft;

	ok(h != INVALID_HANDLE_VALUE, "open: %lu\n", GetLastError());
	ok(SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof(eof)), "end of file: %lu\n", GetLastError());
	ok(GetFileSizeEx(h, &size) && size.QuadPart == 5, "size %lld after end of file 5\n", size.QuadPart);
	/* An allocation below the end of file cuts it (Wine does not
	 * implement FileAllocationInfo). */
	ok_todo_wine(SetFileInformationByHandle(h, FileAllocationInfo, &alloc, sizeof(alloc)), "allocation: %lu\n",
		     GetLastError());
	ok_todo_wine(GetFileSizeEx(h, &size) && size.QuadPart == 3, "size %lld after allocation 3\n", size.QuadPart);
	/* 2001-01-01 00:00:00 UTC; zero fields are left alone. */
	basic.LastWriteTime.QuadPart = 126227808000000000ll;
	ok(SetFileInformationByHandle(h, FileBasicInfo, &basic, sizeof(basic)), "basic: %lu\n", GetLastError());
	ok(GetFileTime(h, NULL, NULL, &ft), "GetFileTime\n");
	ok(((LONGLONG)ft.dwHighDateTime << 32 | ft.dwLowDateTime) == basic.LastWriteTime.QuadPart,
	   "write time not set\n");

	r = open_file(GENERIC_READ, OPEN_EXISTING);
	SetLastError(0xdeadbeef);
	/* FILE_WRITE_DATA is needed; Wine does not check. */
	ok_todo_wine(!SetFileInformationByHandle(r, FileEndOfFileInfo, &eof, sizeof(eof)) &&
			     GetLastError() == ERROR_ACCESS_DENIED,
		     "end of file through a read-only handle: %lu\n", GetLastError());
	CloseHandle(r);

	ok(SetFileInformationByHandle(h, FileDispositionInfo, &disp, sizeof(disp)), "disposition: %lu\n",
	   GetLastError());
	ok(GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES, "deleted before the close\n");
	CloseHandle(h);
	ok(GetFileAttributesA(path) == INVALID_FILE_ATTRIBUTES && GetLastError() == ERROR_FILE_NOT_FOUND,
	   "not deleted on close\n");
}

static void test_final_path(void)
{
	HANDLE h = open_file(GENERIC_READ | GENERIC_WRITE, CREATE_ALWAYS);
	WCHAR w[MAX_PATH + 8], wpath[MAX_PATH];
	char a[MAX_PATH + 8];
	DWORD n, need;

	MultiByteToWideChar(CP_ACP, 0, path, -1, wpath, MAX_PATH);
	need = GetFinalPathNameByHandleW(h, NULL, 0, VOLUME_NAME_DOS);
	n = GetFinalPathNameByHandleW(h, w, MAX_PATH + 8, VOLUME_NAME_DOS);
	ok(n && n + 1 == need, "length %lu, needed %lu\n", n, need);
	ok(!wcsncmp(w, L"\\\\?\\", 4) && !lstrcmpiW(w + 4, wpath), "DOS name %ls for %ls\n", w, wpath);
	n = GetFinalPathNameByHandleW(h, w, MAX_PATH + 8, VOLUME_NAME_NONE);
	ok(n && w[0] == '\\' && !lstrcmpiW(w, wpath + 2), "no-volume name %ls\n", w);
	n = GetFinalPathNameByHandleA(h, a, sizeof(a), VOLUME_NAME_DOS);
	ok(n == strlen(a) && !strncmp(a, "\\\\?\\", 4) && !lstrcmpiA(a + 4, path), "A: %s\n", a);
	SetLastError(0xdeadbeef);
	ok(!GetFinalPathNameByHandleW(h, w, MAX_PATH, 0x100) && GetLastError() == ERROR_INVALID_PARAMETER,
	   "bad flags: %lu\n", GetLastError());
	CloseHandle(h);
}

static void test_attributes_a(void)
{
	WIN32_FILE_ATTRIBUTE_DATA data;

	ok(GetFileAttributesExA(path, GetFileExInfoStandard, &data), "GetFileAttributesExA: %lu\n", GetLastError());
	ok(data.nFileSizeLow == 0 && !(data.dwFileAttributes & FILE_ATTRIBUTE_READONLY), "size %lu attr %#lx\n",
	   data.nFileSizeLow, data.dwFileAttributes);
	ok(SetFileAttributesA(path, FILE_ATTRIBUTE_READONLY), "SetFileAttributesA: %lu\n", GetLastError());
	ok(GetFileAttributesA(path) & FILE_ATTRIBUTE_READONLY, "not read-only\n");
	ok(SetFileAttributesA(path, FILE_ATTRIBUTE_NORMAL), "SetFileAttributesA normal: %lu\n", GetLastError());
	ok(!(GetFileAttributesA(path) & FILE_ATTRIBUTE_READONLY), "still read-only\n");
}

static void test_nt_read_write(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	nt_rw_fn nt_read = (nt_rw_fn)(void *)GetProcAddress(ntdll, "NtReadFile");
	nt_rw_fn nt_write = (nt_rw_fn)(void *)GetProcAddress(ntdll, "NtWriteFile");
	HANDLE h = open_file(GENERIC_READ | GENERIC_WRITE, CREATE_ALWAYS);
	IO_STATUS_BLOCK io;
	LARGE_INTEGER off;
	char buf[16];
	NTSTATUS st;

	ok(nt_read && nt_write, "ntdll lacks NtReadFile/NtWriteFile\n");
	if (!nt_read || !nt_write)
		return;
	SetLastError(0xdeadbeef);
	st = nt_write(h, NULL, NULL, NULL, &io, "hello world", 11, NULL, NULL);
	ok(st == 0 && io.Status == 0 && io.Information == 11, "write: %#lx %lu\n", st, (ULONG)io.Information);
	ok(GetLastError() == 0xdeadbeef, "last error touched: %lu\n", GetLastError());
	off.QuadPart = 6;
	memset(buf, 0, sizeof(buf));
	st = nt_read(h, NULL, NULL, NULL, &io, buf, sizeof(buf), &off, NULL);
	ok(st == 0 && io.Information == 5 && !memcmp(buf, "world", 5), "read at 6: %#lx %lu '%s'\n", st,
	   (ULONG)io.Information, buf);
	off.QuadPart = 11;
	st = nt_read(h, NULL, NULL, NULL, &io, buf, sizeof(buf), &off, NULL);
	ok(st == ST_END_OF_FILE, "read at the end: %#lx\n", st);
	SetFilePointer(h, 0, NULL, FILE_BEGIN);
	st = nt_read(h, NULL, NULL, NULL, &io, buf, 5, NULL, NULL);
	ok(st == 0 && io.Information == 5 && !memcmp(buf, "hello", 5), "read at the file pointer: %#lx\n", st);
	CloseHandle(h);
	DeleteFileA(path);
}

int main(void)
{
	char tmp[MAX_PATH];

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(path, sizeof(path), "%sndshim-info-%lu.bin", tmp, GetCurrentProcessId());
	test_information();
	test_set_information();
	test_final_path();
	test_attributes_a();
	test_nt_read_write();
	return test_summary();
}
