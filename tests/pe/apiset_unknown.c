/* A program importing an API set that ndrun does not implement must not
 * start: ndrun names the set and the importer and exits 126, as for any
 * missing DLL.  (The import library comes from dlls/apiset_nosuch.def.) */
#include <windows.h>

#include "test.h"

__declspec(dllimport) int WINAPI NoSuchApiSetFunction(void);

int main(void)
{
	ok(0, "the program started although it imports an unknown API set\n");
	ok(NoSuchApiSetFunction() == 0, "?\n");
	return test_summary();
}
