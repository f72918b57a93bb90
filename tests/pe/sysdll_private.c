/* A DLL that is not Windows' own must be found, or the program does not
 * start: ndrun names the DLL and its importer and exits 126 (Windows
 * reports STATUS_DLL_NOT_FOUND).  The stand-ins for Windows' DLLs
 * (sysdll_standin) do not stretch to names off the list.  (The import
 * library comes from dlls/sysdll_private.def.) */
#include <windows.h>

#include "test.h"

__declspec(dllimport) int WINAPI NoSuchPrivateFunction(void);

int main(void)
{
	ok(0, "the program started although it imports a DLL nobody has\n");
	ok(NoSuchPrivateFunction() == 0, "?\n");
	return test_summary();
}
