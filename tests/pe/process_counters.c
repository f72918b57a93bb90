/* GetProcessIoCounters counts the process's reads and writes (calls and
 * bytes) as they happen; the priority-boost switch reads back what was
 * set, for the current process and a handle to it.  Wine 8 implements
 * neither (its counters stay 0 and its switch reads FALSE whatever was
 * set, and it accepts any handle): those checks are todo_wine. */
#include <windows.h>

#include "test.h"

int main(void)
{
	char name[MAX_PATH], dir[MAX_PATH], buf[4096];
	IO_COUNTERS before, after;
	HANDLE f, self;
	BOOL disabled = 7;
	DWORD n;

	ok(GetProcessIoCounters(GetCurrentProcess(), &before), "GetProcessIoCounters failed: %lu\n", GetLastError());
	GetTempPathA(sizeof(dir), dir);
	GetTempFileNameA(dir, "pio", 0, name);
	f = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_DELETE_ON_CLOSE, NULL);
	ok(f != INVALID_HANDLE_VALUE, "cannot create %s: %lu\n", name, GetLastError());
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 10; i++)
		ok(WriteFile(f, buf, sizeof(buf), &n, NULL) && n == sizeof(buf), "write %d failed\n", i);
	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	for (int i = 0; i < 5; i++)
		ok(ReadFile(f, buf, sizeof(buf), &n, NULL) && n == sizeof(buf), "read %d failed\n", i);
	CloseHandle(f);
	ok(GetProcessIoCounters(GetCurrentProcess(), &after), "GetProcessIoCounters failed: %lu\n", GetLastError());
	ok_todo_wine(after.WriteOperationCount >= before.WriteOperationCount + 10, "writes %llu -> %llu\n",
	   before.WriteOperationCount, after.WriteOperationCount);
	ok_todo_wine(after.WriteTransferCount >= before.WriteTransferCount + 10 * sizeof(buf), "bytes written %llu -> %llu\n",
	   before.WriteTransferCount, after.WriteTransferCount);
	ok_todo_wine(after.ReadOperationCount >= before.ReadOperationCount + 5, "reads %llu -> %llu\n", before.ReadOperationCount,
	   after.ReadOperationCount);
	ok_todo_wine(after.ReadTransferCount >= before.ReadTransferCount + 5 * sizeof(buf), "bytes read %llu -> %llu\n",
	   before.ReadTransferCount, after.ReadTransferCount);
	SetLastError(0xdeadbeef);
	ok_todo_wine(!GetProcessIoCounters((HANDLE)(ULONG_PTR)0x7ff8, &after) && GetLastError() == ERROR_INVALID_HANDLE,
	   "bad handle: error %lu\n", GetLastError());

	ok(GetProcessPriorityBoost(GetCurrentProcess(), &disabled), "GetProcessPriorityBoost failed: %lu\n", GetLastError());
	ok(disabled == FALSE, "boosting starts disabled (%d)\n", disabled);
	ok(SetProcessPriorityBoost(GetCurrentProcess(), TRUE), "SetProcessPriorityBoost failed: %lu\n", GetLastError());
	self = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_SET_INFORMATION, FALSE, GetCurrentProcessId());
	ok(self != NULL, "OpenProcess failed: %lu\n", GetLastError());
	ok_todo_wine(GetProcessPriorityBoost(self, &disabled) && disabled == TRUE, "after disabling: %d\n", disabled);
	ok(SetProcessPriorityBoost(self, FALSE), "SetProcessPriorityBoost failed: %lu\n", GetLastError());
	ok(GetProcessPriorityBoost(GetCurrentProcess(), &disabled) && disabled == FALSE, "after enabling: %d\n", disabled);
	CloseHandle(self);
	return test_summary();
}
