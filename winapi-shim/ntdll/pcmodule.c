/* RtlPcToFileHeader: the image base of the module holding an address
 * (MSVC's C++ runtime finds a throw's image with it).  Builtin DLLs
 * count as modules by their header page only, as their code is ndrun's. */
#include "loader.h"
#include "ntdll/ntdll_private.h"

PVOID WINAPI RtlPcToFileHeader(PVOID pc, PVOID *base)
{
	DWORD saved = GetLastError();
	HMODULE m = loader_get_module_handle_ex(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
							GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
						(const WCHAR *)pc);

	/* An Rtl function: the last error is not its to change. */
	SetLastError(saved);
	*base = m;
	return m;
}
