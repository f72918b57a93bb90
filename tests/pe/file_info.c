/* GetFileInformationByHandle and GetFileInformationByHandleEx
 * (FileBasicInfo, FileStandardInfo, FileNameInfo, FileAttributeTagInfo). */
#include <wchar.h>

#include "test.h"

static ULONGLONG ft64(FILETIME ft)
{
	return ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

int main(void)
{
	BY_HANDLE_FILE_INFORMATION info, info2;
	FILE_BASIC_INFO basic;
	FILE_STANDARD_INFO std;
	FILE_ATTRIBUTE_TAG_INFO tag;
	union {
		FILE_NAME_INFO fni;
		BYTE bytes[1024];
	} name;
	WIN32_FILE_ATTRIBUTE_DATA attr;
	HANDLE h, h2, other, dir;
	DWORD written;
	FILETIME now;
	BOOL ret;

	h = CreateFileA("file_info.tmp", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ, NULL, CREATE_ALWAYS,
			0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFileA: %lu\n", GetLastError());
	WriteFile(h, "0123456789", 10, &written, NULL);

	ret = GetFileInformationByHandle(h, &info);
	ok(ret, "GetFileInformationByHandle: %lu\n", GetLastError());
	ok(info.nFileSizeLow == 10 && info.nFileSizeHigh == 0, "size %lu\n", info.nFileSizeLow);
	ok(info.nNumberOfLinks == 1, "links %lu\n", info.nNumberOfLinks);
	ok(!(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY), "attributes %#lx\n", info.dwFileAttributes);
	GetSystemTimeAsFileTime(&now);
	ok(ft64(info.ftLastWriteTime) <= ft64(now) &&
	   ft64(now) - ft64(info.ftLastWriteTime) < 600ull * 10000000, "last write time %llu\n",
	   ft64(info.ftLastWriteTime));
	GetFileAttributesExA("file_info.tmp", GetFileExInfoStandard, &attr);
	ok(ft64(attr.ftLastWriteTime) == ft64(info.ftLastWriteTime),
	   "GetFileAttributesEx says %llu, the handle %llu\n", ft64(attr.ftLastWriteTime),
	   ft64(info.ftLastWriteTime));

	/* The same file through another handle: same volume and index. */
	h2 = CreateFileA("file_info.tmp", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			 OPEN_EXISTING, 0, NULL);
	ok(GetFileInformationByHandle(h2, &info2), "second handle: %lu\n", GetLastError());
	ok(info2.dwVolumeSerialNumber == info.dwVolumeSerialNumber &&
	   info2.nFileIndexLow == info.nFileIndexLow && info2.nFileIndexHigh == info.nFileIndexHigh,
	   "another handle to the same file has another identity\n");
	CloseHandle(h2);
	other = CreateFileA("file_info2.tmp", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(GetFileInformationByHandle(other, &info2), "other file: %lu\n", GetLastError());
	ok(info2.nFileIndexLow != info.nFileIndexLow || info2.nFileIndexHigh != info.nFileIndexHigh,
	   "two files, one index\n");
	CloseHandle(other);
	DeleteFileA("file_info2.tmp");

	ret = GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof(basic));
	ok(ret, "FileBasicInfo: %lu\n", GetLastError());
	ok((ULONGLONG)basic.LastWriteTime.QuadPart == ft64(info.ftLastWriteTime), "LastWriteTime %lld\n",
	   (long long)basic.LastWriteTime.QuadPart);
	ok(basic.FileAttributes == info.dwFileAttributes, "FileAttributes %#lx\n", basic.FileAttributes);
	ok(basic.ChangeTime.QuadPart > 0, "ChangeTime %lld\n", (long long)basic.ChangeTime.QuadPart);

	ret = GetFileInformationByHandleEx(h, FileStandardInfo, &std, sizeof(std));
	ok(ret, "FileStandardInfo: %lu\n", GetLastError());
	ok(std.EndOfFile.QuadPart == 10 && std.NumberOfLinks == 1 && !std.Directory && !std.DeletePending,
	   "EndOfFile %lld, links %lu, dir %d, delete %d\n", (long long)std.EndOfFile.QuadPart,
	   std.NumberOfLinks, std.Directory, std.DeletePending);
	ok(std.AllocationSize.QuadPart >= 10 || std.AllocationSize.QuadPart == 0,
	   "AllocationSize %lld\n", (long long)std.AllocationSize.QuadPart);

	ret = GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag, sizeof(tag));
	ok(ret && tag.FileAttributes == info.dwFileAttributes && tag.ReparseTag == 0,
	   "FileAttributeTagInfo: %d %#lx %#lx\n", ret, tag.FileAttributes, tag.ReparseTag);

	/* The name without the drive, "\...\file_info.tmp". */
	ret = GetFileInformationByHandleEx(h, FileNameInfo, &name, sizeof(name));
	ok(ret, "FileNameInfo: %lu\n", GetLastError());
	if (ret) {
		DWORD chars = name.fni.FileNameLength / sizeof(WCHAR);
		WCHAR *n = name.fni.FileName;

		ok(n[0] == '\\' && chars > 14 && !wcsncmp(n + chars - 14, L"\\file_info.tmp", 14),
		   "name %.*ls\n", (int)chars, n);
	}
	memset(&name, 0xcc, sizeof(name));
	SetLastError(0xdeadbeef);
	ret = GetFileInformationByHandleEx(h, FileNameInfo, &name, sizeof(DWORD) + 4);
	ok(!ret && GetLastError() == ERROR_MORE_DATA, "short buffer: %d, error %lu\n", ret, GetLastError());
	ok(name.fni.FileNameLength > 4 && name.fni.FileName[0] == '\\',
	   "short buffer: FileNameLength %lu\n", name.fni.FileNameLength);

	SetLastError(0xdeadbeef);
	ret = GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof(basic) - 1);
	ok(!ret && GetLastError() == ERROR_BAD_LENGTH, "small buffer: %d, error %lu\n", ret,
	   GetLastError());
	/* Windows rejects a class it does not know as an invalid
	 * parameter; Wine answers ERROR_CALL_NOT_IMPLEMENTED. */
	SetLastError(0xdeadbeef);
	ret = GetFileInformationByHandleEx(h, MaximumFileInfoByHandleClass, &basic, sizeof(basic));
	ok_todo_wine(!ret && GetLastError() == ERROR_INVALID_PARAMETER, "bad class: %d, error %lu\n", ret,
	   GetLastError());
	CloseHandle(h);

	/* A directory, opened with FILE_FLAG_BACKUP_SEMANTICS. */
	CreateDirectoryA("file_info_dir", NULL);
	dir = CreateFileA("file_info_dir", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			  OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
	ok(dir != INVALID_HANDLE_VALUE, "open directory: %lu\n", GetLastError());
	if (dir != INVALID_HANDLE_VALUE) {
		ok(GetFileInformationByHandle(dir, &info) &&
		   (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY), "directory attributes %#lx\n",
		   info.dwFileAttributes);
		ok(GetFileInformationByHandleEx(dir, FileStandardInfo, &std, sizeof(std)) && std.Directory,
		   "FileStandardInfo.Directory %d\n", std.Directory);
		CloseHandle(dir);
	}
	RemoveDirectoryA("file_info_dir");

	SetLastError(0xdeadbeef);
	ret = GetFileInformationByHandle(CreateEventA(NULL, FALSE, FALSE, NULL), &info);
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "event handle: %d, error %lu\n", ret,
	   GetLastError());
	DeleteFileA("file_info.tmp");
	return test_summary();
}
