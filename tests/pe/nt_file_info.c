/* The ntdll file queries libuv looks up at start (CMake stops without
 * them) and DeviceIoControl:
 *   NtQueryInformationFile: basic, standard, position, mode, access and
 *     all information of a file; an unknown class is refused.
 *   NtSetInformationFile: position, end of file, delete disposition.
 *   NtQueryVolumeInformationFile: the device type of a file (disk) and of
 *     an anonymous pipe (named-pipe file system); a volume's size.
 *   GetVolumeInformationByHandleW: the volume serial the file's information
 *     names, a file system name, names kept in their case.
 *   DeviceIoControl / NtDeviceIoControlFile: FSCTL_GET_REPARSE_POINT on an
 *     ordinary file is ERROR_NOT_A_REPARSE_POINT; a code nothing handles
 *     is ERROR_INVALID_FUNCTION (STATUS_INVALID_DEVICE_REQUEST). */
#include <windows.h>
#include <winternl.h>
#include <winioctl.h>

#include "test.h"

typedef NTSTATUS(WINAPI *qif_fn)(HANDLE, IO_STATUS_BLOCK *, void *, ULONG, ULONG); /* class: FILE_INFORMATION_CLASS */
typedef NTSTATUS(WINAPI *qvf_fn)(HANDLE, IO_STATUS_BLOCK *, void *, ULONG, ULONG);
typedef NTSTATUS(WINAPI *dic_fn)(HANDLE, HANDLE, void *, void *, IO_STATUS_BLOCK *, ULONG, void *, ULONG, void *, ULONG);

/* The classes' numbers and the structures mingw's winternl.h lacks. */
enum { FI_BASIC = 4, FI_STANDARD = 5, FI_ACCESS = 8, FI_DISPOSITION = 13, FI_POSITION = 14, FI_MODE = 16,
       FI_ALL = 18, FI_END_OF_FILE = 20 };
enum { FS_SIZE = 3, FS_DEVICE = 4 };
struct basic { LARGE_INTEGER c, a, w, ch; ULONG attr; };
struct standard { LARGE_INTEGER alloc, eof; ULONG links; BOOLEAN del, dir; };
struct device { ULONG type, chars; };
struct fs_size { LARGE_INTEGER total, avail; ULONG sectors_per_unit, bytes_per_sector; };

int main(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	qif_fn qif = (qif_fn)(void *)GetProcAddress(ntdll, "NtQueryInformationFile");
	qif_fn sif = (qif_fn)(void *)GetProcAddress(ntdll, "NtSetInformationFile");
	qvf_fn qvf = (qvf_fn)(void *)GetProcAddress(ntdll, "NtQueryVolumeInformationFile");
	dic_fn dic = (dic_fn)(void *)GetProcAddress(ntdll, "NtDeviceIoControlFile");
	dic_fn fsc = (dic_fn)(void *)GetProcAddress(ntdll, "NtFsControlFile");
	char name[MAX_PATH], dirname[MAX_PATH];
	IO_STATUS_BLOCK io;
	struct basic b;
	struct standard s;
	struct device d;
	struct fs_size fs;
	LARGE_INTEGER pos;
	ULONG mode, access;
	BYTE all[1024], reparse[1024];
	HANDLE f, r, w;
	DWORD n;
	NTSTATUS st;

	ok(qif && sif && qvf && dic && fsc, "ntdll lacks a file function\n");
	if (!qif || !sif || !qvf || !dic || !fsc)
		return test_summary();
	GetTempPathA(sizeof(dirname), dirname);
	GetTempFileNameA(dirname, "nfi", 0, name);
	f = CreateFileA(name, GENERIC_READ | GENERIC_WRITE | DELETE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(f != INVALID_HANDLE_VALUE, "cannot create %s: %lu\n", name, GetLastError());
	ok(WriteFile(f, "0123456789", 10, &n, NULL) && n == 10, "write failed\n");

	memset(&io, 0xcc, sizeof(io));
	st = qif(f, &io, &s, sizeof(s), FI_STANDARD);
	ok(!st && !io.Status && io.Information == sizeof(s), "standard: %#lx, %#lx, %llu\n", st, io.Status, (unsigned long long)io.Information);
	ok(s.eof.QuadPart == 10 && !s.dir && s.links == 1, "size %lld, dir %d, links %lu\n", s.eof.QuadPart, s.dir, s.links);
	st = qif(f, &io, &b, sizeof(b), FI_BASIC);
	ok(!st && (b.attr & FILE_ATTRIBUTE_NORMAL || b.attr & FILE_ATTRIBUTE_ARCHIVE), "basic: %#lx, attributes %#lx\n", st, b.attr);
	ok(b.w.QuadPart > 0, "no write time\n");
	st = qif(f, &io, &pos, sizeof(pos), FI_POSITION);
	ok(!st && pos.QuadPart == 10, "position: %#lx, %lld\n", st, pos.QuadPart);
	st = qif(f, &io, &mode, sizeof(mode), FI_MODE);
	ok(!st && (mode & FILE_SYNCHRONOUS_IO_NONALERT), "mode: %#lx, %#lx\n", st, mode);
	st = qif(f, &io, &access, sizeof(access), FI_ACCESS);
	ok(!st && (access & FILE_READ_DATA) && (access & FILE_WRITE_DATA) && (access & DELETE), "access: %#lx, %#lx\n", st, access);
	st = qif(f, &io, all, sizeof(all), FI_ALL);
	ok(!st && io.Information > 100, "all: %#lx, %llu bytes\n", st, (unsigned long long)io.Information);
	st = qif(f, &io, &s, sizeof(s) - 1, FI_STANDARD);
	ok(st == (NTSTATUS)0xc0000004, "short buffer: %#lx\n", st); /* STATUS_INFO_LENGTH_MISMATCH */
	st = qif(f, &io, all, sizeof(all), 0x7f);
	ok(st == (NTSTATUS)0xc0000003, "unknown class: %#lx\n", st); /* STATUS_INVALID_INFO_CLASS */

	pos.QuadPart = 3;
	st = sif(f, &io, &pos, sizeof(pos), FI_POSITION);
	ok(!st, "set position: %#lx\n", st);
	ok(SetFilePointer(f, 0, NULL, FILE_CURRENT) == 3, "position is %lu\n", SetFilePointer(f, 0, NULL, FILE_CURRENT));
	pos.QuadPart = 4;
	st = sif(f, &io, &pos, sizeof(pos), FI_END_OF_FILE);
	ok(!st && GetFileSize(f, NULL) == 4, "truncate: %#lx, size %lu\n", st, GetFileSize(f, NULL));

	st = qvf(f, &io, &d, sizeof(d), FS_DEVICE);
	/* Windows answers with the device the volume is on, a disk; Wine 8
	 * with the file system's (FILE_DEVICE_DISK_FILE_SYSTEM). */
	ok(!st, "file device: %#lx\n", st);
	ok_todo_wine(d.type == FILE_DEVICE_DISK, "file device type %#lx\n", d.type);
	st = qvf(f, &io, &fs, sizeof(fs), FS_SIZE);
	ok(!st && fs.total.QuadPart > 0 && fs.bytes_per_sector > 0, "volume size: %#lx\n", st);
	{
		WCHAR fs_name[64], label[64];
		DWORD serial = 0, max_len = 0, flags = 0;
		BY_HANDLE_FILE_INFORMATION bhi;

		ok(GetVolumeInformationByHandleW(f, label, 64, &serial, &max_len, &flags, fs_name, 64),
		   "GetVolumeInformationByHandleW: %lu\n", GetLastError());
		ok(GetFileInformationByHandle(f, &bhi) && bhi.dwVolumeSerialNumber == serial,
		   "volume serial %#lx, file's %#lx\n", serial, bhi.dwVolumeSerialNumber);
		ok(max_len >= 255 && (flags & FILE_CASE_PRESERVED_NAMES) && fs_name[0], "max %lu, flags %#lx\n", max_len,
		   flags);
	}
	ok(CreatePipe(&r, &w, NULL, 0), "CreatePipe failed\n");
	st = qvf(r, &io, &d, sizeof(d), FS_DEVICE);
	ok(!st && d.type == FILE_DEVICE_NAMED_PIPE, "pipe device: %#lx, type %#lx\n", st, d.type);
	CloseHandle(r);
	CloseHandle(w);

	SetLastError(0xdeadbeef);
	ok(!DeviceIoControl(f, FSCTL_GET_REPARSE_POINT, NULL, 0, reparse, sizeof(reparse), &n, NULL),
	   "an ordinary file is a reparse point\n");
	ok(GetLastError() == ERROR_NOT_A_REPARSE_POINT, "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!DeviceIoControl(f, CTL_CODE(0x8123, 0x912, METHOD_BUFFERED, FILE_ANY_ACCESS), NULL, 0, NULL, 0, &n, NULL),
	   "an unknown control code succeeded\n");
	/* A file system answers a control code it does not know with
	 * STATUS_INVALID_DEVICE_REQUEST (ERROR_INVALID_FUNCTION); Wine 8 with
	 * STATUS_NOT_SUPPORTED. */
	ok_todo_wine(GetLastError() == ERROR_INVALID_FUNCTION, "unknown code: error %lu\n", GetLastError());
	/* DeviceIoControl sends FSCTL_* codes (the file-system device type)
	 * to NtFsControlFile, the others to NtDeviceIoControlFile. */
	st = fsc(f, NULL, NULL, NULL, &io, FSCTL_GET_REPARSE_POINT, NULL, 0, reparse, sizeof(reparse));
	ok(st == (NTSTATUS)0xc0000275, "NtFsControlFile: %#lx\n", st); /* STATUS_NOT_A_REPARSE_POINT */
	ok(io.Status == st, "IO_STATUS_BLOCK holds %#lx\n", io.Status);
	st = dic((HANDLE)(ULONG_PTR)0x7ff4, NULL, NULL, NULL, &io, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, reparse, sizeof(reparse));
	ok(st == (NTSTATUS)0xc0000008, "bad handle: %#lx\n", st); /* STATUS_INVALID_HANDLE */

	/* Delete disposition: gone once the handle closes. */
	{
		BOOLEAN del = TRUE;

		st = sif(f, &io, &del, sizeof(del), FI_DISPOSITION);
		ok(!st, "disposition: %#lx\n", st);
	}
	CloseHandle(f);
	ok(GetFileAttributesA(name) == INVALID_FILE_ATTRIBUTES, "%s still exists\n", name);
	DeleteFileA(name);
	return test_summary();
}
