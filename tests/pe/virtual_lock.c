/* VirtualLock and VirtualUnlock.
 *
 * Windows rules checked (Microsoft's VirtualLock and VirtualUnlock docs):
 *  - committed pages lock, and one VirtualUnlock unlocks them (locks are
 *    not counted: a second VirtualUnlock finds them unlocked);
 *  - unlocking pages that are not locked fails with ERROR_NOT_LOCKED
 *    (and only takes them out of the working set: their contents stay,
 *    which runtimes rely on when they call it to trim memory);
 *  - a range with a page that is only reserved fails to lock.
 * Wine 8 unlocks anything without complaint (seen under wine64): the
 * ERROR_NOT_LOCKED checks are ok_todo_wine. */
#include "test.h"

int main(void)
{
	SYSTEM_INFO si;
	BYTE *p;
	DWORD err;
	BOOL r;

	GetSystemInfo(&si);
	p = VirtualAlloc(NULL, 16 * si.dwPageSize, MEM_RESERVE, PAGE_READWRITE);
	ok(p != NULL, "VirtualAlloc reserve: %lu\n", GetLastError());
	if (!p)
		return test_summary();
	ok(VirtualAlloc(p, 4 * si.dwPageSize, MEM_COMMIT, PAGE_READWRITE) == p, "commit: %lu\n", GetLastError());
	memset(p, 0x5a, 4 * si.dwPageSize);

	ok(VirtualLock(p, 2 * si.dwPageSize), "VirtualLock: %lu\n", GetLastError());
	ok(VirtualUnlock(p, 2 * si.dwPageSize), "VirtualUnlock of locked pages: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	r = VirtualUnlock(p, 2 * si.dwPageSize);
	err = GetLastError();
	ok_todo_wine(!r && err == ERROR_NOT_LOCKED, "second VirtualUnlock: %d, error %lu\n", r, err);

	/* a range part of which is locked is not locked */
	ok(VirtualLock(p, si.dwPageSize), "VirtualLock of one page: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	r = VirtualUnlock(p, 3 * si.dwPageSize);
	err = GetLastError();
	ok_todo_wine(!r && err == ERROR_NOT_LOCKED, "VirtualUnlock of a partly locked range: %d, error %lu\n", r,
		     err);
	ok(p[0] == 0x5a && p[3 * si.dwPageSize - 1] == 0x5a, "contents after a failed VirtualUnlock\n");

	/* a page of the range is only reserved */
	SetLastError(0xdeadbeef);
	r = VirtualLock(p + 3 * si.dwPageSize, 2 * si.dwPageSize);
	ok(!r, "VirtualLock over a reserved page succeeded\n");
	ok(VirtualFree(p, 0, MEM_RELEASE), "VirtualFree\n");
	return test_summary();
}
