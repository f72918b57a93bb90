/* The Windows and system folders (sysinfoapi.h): C:\windows and
 * C:\windows\system32, where GetModuleFileName places the builtin DLLs.
 * They are folders of the system drive (core/drives.h), made with the
 * Windows environment (winenv.c) and empty: a program building a path to
 * a system file there finds none, as with a missing system file. */
#include "kernel32/kernel32_private.h"

static const WCHAR windows_dir[] = { 'C', ':', '\\', 'w', 'i', 'n', 'd', 'o', 'w', 's', 0 };
static const WCHAR system_dir[] = { 'C', ':', '\\', 'w', 'i', 'n', 'd', 'o', 'w', 's', '\\',
				    's', 'y', 's', 't', 'e', 'm', '3', '2', 0 };

UINT WINAPI GetWindowsDirectoryW(LPWSTR buf, UINT size)
{
	return string_result_w(windows_dir, buf, size);
}

UINT WINAPI GetWindowsDirectoryA(LPSTR buf, UINT size)
{
	return string_result_a(windows_dir, buf, size);
}

UINT WINAPI GetSystemWindowsDirectoryW(LPWSTR buf, UINT size)
{
	return string_result_w(windows_dir, buf, size);
}

UINT WINAPI GetSystemWindowsDirectoryA(LPSTR buf, UINT size)
{
	return string_result_a(windows_dir, buf, size);
}

UINT WINAPI GetSystemDirectoryW(LPWSTR buf, UINT size)
{
	return string_result_w(system_dir, buf, size);
}

UINT WINAPI GetSystemDirectoryA(LPSTR buf, UINT size)
{
	return string_result_a(system_dir, buf, size);
}
