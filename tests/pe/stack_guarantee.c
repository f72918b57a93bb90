/* SetThreadStackGuarantee: per thread, rounded up to pages, grows only,
 * bounded by the reserved stack. */
#include "test.h"

static DWORD WINAPI other_thread(void *arg)
{
	ULONG size = 0;

	(void)arg;
	ok(SetThreadStackGuarantee(&size) && size == 0, "a new thread starts at %lu\n", size);
	return 0;
}

int main(void)
{
	SYSTEM_INFO si;
	ULONG size = 0;
	HANDLE th;
	BOOL ret;

	GetSystemInfo(&si);
	ret = SetThreadStackGuarantee(&size);
	ok(ret && size == 0, "query: %d, %lu\n", ret, size);
	size = 5000;
	ret = SetThreadStackGuarantee(&size);
	ok(ret && size == 0, "set: %d, previous %lu\n", ret, size);
	size = 0;
	SetThreadStackGuarantee(&size);
	ok(size == 2 * si.dwPageSize, "5000 bytes became %lu\n", size);
	/* Smaller requests are ignored. */
	size = 100;
	ret = SetThreadStackGuarantee(&size);
	ok(ret && size == 2 * si.dwPageSize, "smaller: %d, previous %lu\n", ret, size);
	size = 0;
	SetThreadStackGuarantee(&size);
	ok(size == 2 * si.dwPageSize, "reduced to %lu\n", size);
	/* More than the whole stack cannot be guaranteed. */
	size = 0x7fffffff;
	SetLastError(0xdeadbeef);
	ret = SetThreadStackGuarantee(&size);
	ok(!ret && GetLastError() == ERROR_INVALID_PARAMETER, "too big: %d, error %lu\n", ret,
	   GetLastError());
	size = 0;
	SetThreadStackGuarantee(&size);
	ok(size == 2 * si.dwPageSize, "after the failure: %lu\n", size);

	th = CreateThread(NULL, 0, other_thread, NULL, 0, NULL);
	WaitForSingleObject(th, INFINITE);
	CloseHandle(th);
	return test_summary();
}
