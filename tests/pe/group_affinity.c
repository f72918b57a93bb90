/* GetProcessGroupAffinity: the processor groups this process runs in
 * (one, group 0, on a machine of up to 64 processors), the size protocol
 * when the array is too small, and agreement with the thread's group. */
#include <windows.h>

#include "test.h"

typedef BOOL(WINAPI *pga_fn)(HANDLE, PUSHORT, PUSHORT);

int main(void)
{
	pga_fn pga = (pga_fn)(void *)GetProcAddress(GetModuleHandleA("kernel32.dll"), "GetProcessGroupAffinity");
	USHORT groups[8], count = 0;
	GROUP_AFFINITY ga;
	DWORD err;
	BOOL r;

	ok(pga != NULL, "not exported\n");
	if (!pga)
		return test_summary();
	SetLastError(0xdeadbeef);
	r = pga(GetCurrentProcess(), &count, NULL);
	err = GetLastError();
	/* Wine's fails with ERROR_CALL_NOT_IMPLEMENTED. */
	if (err == ERROR_CALL_NOT_IMPLEMENTED && test_on_wine()) {
		ok_todo_wine(0, "GetProcessGroupAffinity not implemented\n");
		return test_summary();
	}
	ok(!r && err == ERROR_INSUFFICIENT_BUFFER && count >= 1, "size query: %d %lu count %u\n", r, err, count);
	count = 8;
	r = pga(GetCurrentProcess(), &count, groups);
	ok(r && count >= 1 && count <= GetActiveProcessorGroupCount(), "count %u of %u groups\n", count,
	   GetActiveProcessorGroupCount());
	ok(GetThreadGroupAffinity(GetCurrentThread(), &ga), "GetThreadGroupAffinity\n");
	for (USHORT i = 0; r && i < count; i++)
		if (groups[i] == ga.Group)
			r = 2;
	ok(r == 2, "the thread's group %u is not among the process's\n", ga.Group);
	return test_summary();
}
