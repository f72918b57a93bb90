/* version.dll over this program's own version resource
 * (version_info.rc): GetFileVersionInfoSize/GetFileVersionInfo (W, A
 * and Ex), VerQueryValueW/A for the fixed part, the translation table
 * and a string; kernel32.dll's version is Windows'; a PE without a
 * version resource, a file that is not a PE and one that does not exist
 * fail. */
#include <windows.h>
#include <winver.h>

#include "test.h"

int main(void)
{
	WCHAR self[MAX_PATH], other[MAX_PATH];
	char selfa[MAX_PATH];
	VS_FIXEDFILEINFO *ffi;
	DWORD size, handle = 1, *trans;
	WCHAR *s;
	char *sa;
	UINT len;
	BYTE *block;
	HANDLE f;

	GetModuleFileNameW(NULL, self, MAX_PATH);
	GetModuleFileNameA(NULL, selfa, MAX_PATH);
	size = GetFileVersionInfoSizeW(self, &handle);
	ok(size > sizeof(VS_FIXEDFILEINFO), "GetFileVersionInfoSizeW %lu (%lu)\n", size, GetLastError());
	ok(handle == 0, "handle %lu\n", handle);
	ok(GetFileVersionInfoSizeA(selfa, NULL) == size, "A size differs\n");
	ok(GetFileVersionInfoSizeExW(0, self, &handle) == size, "Ex size differs\n");
	block = calloc(1, size);
	ok(GetFileVersionInfoW(self, 0, size, block), "GetFileVersionInfoW %lu\n", GetLastError());
	ok(*(WORD *)block <= size, "resource %u > size %lu\n", *(WORD *)block, size);

	ok(VerQueryValueW(block, L"\\", (void **)&ffi, &len), "root\n");
	ok(len == sizeof(*ffi), "root length %u\n", len);
	ok(ffi->dwSignature == VS_FFI_SIGNATURE, "signature %#lx\n", ffi->dwSignature);
	ok(ffi->dwFileVersionMS == 0x00010002 && ffi->dwFileVersionLS == 0x00030004, "file version %#lx.%#lx\n",
	   ffi->dwFileVersionMS, ffi->dwFileVersionLS);
	ok(ffi->dwProductVersionMS == 0x00050006 && ffi->dwProductVersionLS == 0x00070008, "product version\n");
	ok(ffi->dwFileType == VFT_APP, "file type %lu\n", ffi->dwFileType);

	ok(VerQueryValueW(block, L"\\VarFileInfo\\Translation", (void **)&trans, &len), "translation\n");
	ok(len == 4 && trans[0] == MAKELONG(0x409, 1200), "translation %u %#lx\n", len, trans[0]);

	ok(VerQueryValueW(block, L"\\StringFileInfo\\040904b0\\FileDescription", (void **)&s, &len), "string\n");
	ok(!wcscmp(s, L"version.dll conformance program"), "FileDescription [%ls]\n", s);
	ok(len == 32, "string length %u\n", len);
	/* Keys compare without case. */
	ok(VerQueryValueW(block, L"\\stringfileinfo\\040904B0\\productname", (void **)&s, &len) &&
		   !wcscmp(s, L"ndshim"),
	   "case-insensitive keys\n");
	ok(!VerQueryValueW(block, L"\\StringFileInfo\\040904b0\\NoSuchValue", (void **)&s, &len), "missing key\n");

	ok(VerQueryValueA(block, "\\StringFileInfo\\040904b0\\CompanyName", (void **)&sa, &len), "A string\n");
	ok(!strcmp(sa, "ndshim tests"), "CompanyName [%s]\n", sa);
	ok(VerQueryValueA(block, "\\", (void **)&ffi, &len) && ffi->dwSignature == VS_FFI_SIGNATURE, "A root\n");
	free(block);

	block = calloc(1, size);
	ok(GetFileVersionInfoA(selfa, 0, size, block) && VerQueryValueW(block, L"\\", (void **)&ffi, &len) &&
		   ffi->dwFileVersionLS == 0x00030004,
	   "GetFileVersionInfoA\n");
	free(block);

	/* A PE image without a version resource (a test DLL beside this). */
	lstrcpyW(other, self);
	lstrcpyW(wcsrchr(other, '\\') + 1, L"impdll.dll");
	SetLastError(0);
	ok(GetFileVersionInfoSizeW(other, &handle) == 0, "impdll.dll has a version\n");
	ok(GetLastError() == ERROR_RESOURCE_DATA_NOT_FOUND, "no version resource: error %lu\n", GetLastError());

	/* A file that is not a PE image. */
	GetTempPathW(MAX_PATH, other);
	lstrcatW(other, L"version_info.txt");
	f = CreateFileW(other, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	WriteFile(f, "just some text, long enough to be read as a header", 50, &size, NULL);
	CloseHandle(f);
	SetLastError(0);
	ok(GetFileVersionInfoSizeW(other, &handle) == 0, "a text file has a version\n");
	ok(GetLastError() == ERROR_RESOURCE_DATA_NOT_FOUND, "text file: error %lu\n", GetLastError());
	DeleteFileW(other);

	/* kernel32.dll's version is Windows' (programs learn the real
	 * version from it). */
	{
		NTSTATUS(WINAPI * get_version)(RTL_OSVERSIONINFOW *) =
			(void *)GetProcAddress(GetModuleHandleA("ntdll.dll"), "RtlGetVersion");
		RTL_OSVERSIONINFOW osv = { sizeof(osv), 0, 0, 0, 0, { 0 } };
		get_version(&osv);
		size = GetFileVersionInfoSizeW(L"kernel32.dll", &handle);
		ok(size > 0, "kernel32.dll: no version (%lu)\n", GetLastError());
		block = calloc(1, size + 1);
		ok(size && GetFileVersionInfoW(L"kernel32.dll", 0, size, block) &&
			   VerQueryValueW(block, L"\\", (void **)&ffi, &len) && ffi->dwSignature == VS_FFI_SIGNATURE,
		   "kernel32.dll's fixed information\n");
		/* Wine's DLLs carry one version (10.0) whatever version its
		 * prefix reports (6.1 in the tests' prefix). */
		ok_todo_wine(size && HIWORD(ffi->dwFileVersionMS) == osv.dwMajorVersion, "kernel32.dll %u.%u, Windows %lu.%lu\n",
			     HIWORD(ffi->dwFileVersionMS), LOWORD(ffi->dwFileVersionMS), osv.dwMajorVersion,
			     osv.dwMinorVersion);
		ok(size && VerQueryValueW(block, L"\\VarFileInfo\\Translation", (void **)&trans, &len) && len >= 4,
		   "kernel32.dll's translations\n");
		free(block);
	}

	SetLastError(0);
	ok(GetFileVersionInfoSizeW(L"C:\\no\\such\\file.dll", &handle) == 0, "a missing file\n");
	ok(GetLastError() == ERROR_PATH_NOT_FOUND || GetLastError() == ERROR_FILE_NOT_FOUND,
	   "missing file: error %lu\n", GetLastError());
	return test_summary();
}
