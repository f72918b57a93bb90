/* ReadDirectoryChangesW: the changes made to a folder come back as
 * FILE_NOTIFY_INFORMATION records, names relative to the folder:
 *   synchronously: a file created before the call (changes are queued
 *     from the first call on) -> FILE_ACTION_ADDED;
 *   overlapped, with an event: a rename -> RENAMED_OLD_NAME then
 *     RENAMED_NEW_NAME, then a removal -> FILE_ACTION_REMOVED; CancelIoEx
 *     ends a pending request with ERROR_OPERATION_ABORTED;
 *   with bWatchSubtree: a file in a subfolder, named "sub\\name";
 *   with a completion routine, run by an alertable wait.
 * Wine 8 misses changes in a subfolder that existed before the call:
 * todo_wine. */
#include "test.h"

static WCHAR dir[MAX_PATH];
static volatile LONG routine_bytes = -1;

static void path_of(WCHAR *out, const WCHAR *name)
{
	wsprintfW(out, L"%s\\%s", dir, name);
}

static void touch(const WCHAR *name)
{
	WCHAR p[MAX_PATH];
	HANDLE h;

	path_of(p, name);
	h = CreateFileW(p, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	CloseHandle(h);
}

/* Whether buf holds a record (action, name) among its first n bytes. */
static BOOL has(const BYTE *buf, DWORD n, DWORD action, const WCHAR *name)
{
	for (DWORD off = 0; n;) {
		const FILE_NOTIFY_INFORMATION *r = (const FILE_NOTIFY_INFORMATION *)(buf + off);

		if (r->Action == action && r->FileNameLength == lstrlenW(name) * sizeof(WCHAR) &&
		    !memcmp(r->FileName, name, r->FileNameLength))
			return TRUE;
		if (!r->NextEntryOffset)
			break;
		off += r->NextEntryOffset;
	}
	return FALSE;
}

static HANDLE open_dir(DWORD flags)
{
	return CreateFileW(dir, FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			   OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | flags, NULL);
}

static void CALLBACK done(DWORD err, DWORD bytes, OVERLAPPED *ov)
{
	(void)ov;
	ok(err == 0, "routine: error %lu\n", err);
	routine_bytes = (LONG)bytes;
}

int main(void)
{
	const DWORD names = FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_DIR_NAME;
	WCHAR tmp[MAX_PATH], a[MAX_PATH], b[MAX_PATH], sub[MAX_PATH];
	BYTE buf[4096] __attribute__((aligned(4)));
	OVERLAPPED ov = { 0 };
	HANDLE h;
	DWORD n;

	GetTempPathW(MAX_PATH, tmp);
	wsprintfW(dir, L"%sdirchg-%lu", tmp, GetCurrentProcessId());
	ok(CreateDirectoryW(dir, NULL), "cannot create the folder: %lu\n", GetLastError());

	/* Synchronous: the first call starts watching, so start it on a
	 * thread-free path: an overlapped request first, then a sync one. */
	h = open_dir(FILE_FLAG_OVERLAPPED);
	ok(h != INVALID_HANDLE_VALUE, "cannot open the folder: %lu\n", GetLastError());
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	ok(ReadDirectoryChangesW(h, buf, sizeof(buf), FALSE, names, NULL, &ov, NULL), "overlapped call: %lu\n",
	   GetLastError());
	touch(L"a.txt");
	ok(WaitForSingleObject(ov.hEvent, 10000) == WAIT_OBJECT_0, "no change reported\n");
	ok(GetOverlappedResult(h, &ov, &n, FALSE) && n > 0, "result: %lu bytes, error %lu\n", n, GetLastError());
	ok(has(buf, n, FILE_ACTION_ADDED, L"a.txt"), "a.txt not reported as added\n");

	/* Queued between calls: a rename while no request is pending. */
	path_of(a, L"a.txt");
	path_of(b, L"b.txt");
	ok(MoveFileW(a, b), "rename failed\n");
	ResetEvent(ov.hEvent);
	ok(ReadDirectoryChangesW(h, buf, sizeof(buf), FALSE, names, NULL, &ov, NULL), "second call: %lu\n",
	   GetLastError());
	ok(WaitForSingleObject(ov.hEvent, 10000) == WAIT_OBJECT_0, "no rename reported\n");
	ok(GetOverlappedResult(h, &ov, &n, FALSE) && n > 0, "rename result: %lu\n", n);
	ok(has(buf, n, FILE_ACTION_RENAMED_OLD_NAME, L"a.txt") && has(buf, n, FILE_ACTION_RENAMED_NEW_NAME, L"b.txt"),
	   "the rename is not a.txt -> b.txt\n");

	/* Synchronous, on queued changes. */
	ok(DeleteFileW(b), "delete failed\n");
	ok(ReadDirectoryChangesW(h, buf, sizeof(buf), FALSE, names, &n, NULL, NULL), "sync call: %lu\n", GetLastError());
	ok(n > 0 && has(buf, n, FILE_ACTION_REMOVED, L"b.txt"), "b.txt not reported as removed (%lu bytes)\n", n);

	/* A pending request, cancelled. */
	ResetEvent(ov.hEvent);
	ok(ReadDirectoryChangesW(h, buf, sizeof(buf), FALSE, names, NULL, &ov, NULL), "third call: %lu\n",
	   GetLastError());
	ok(CancelIoEx(h, &ov), "CancelIoEx: %lu\n", GetLastError());
	ok(!GetOverlappedResult(h, &ov, &n, TRUE) && GetLastError() == ERROR_OPERATION_ABORTED, "cancelled: %lu\n",
	   GetLastError());
	CloseHandle(h);

	/* The subtree, with an event. */
	path_of(sub, L"sub");
	ok(CreateDirectoryW(sub, NULL), "cannot create sub\n");
	h = open_dir(FILE_FLAG_OVERLAPPED);
	ResetEvent(ov.hEvent);
	ok(ReadDirectoryChangesW(h, buf, sizeof(buf), TRUE, names, NULL, &ov, NULL), "subtree call: %lu\n",
	   GetLastError());
	touch(L"sub\\deep.txt");
	/* Wine 8 reports nothing from a subfolder that existed before. */
	ok_todo_wine(WaitForSingleObject(ov.hEvent, 10000) == WAIT_OBJECT_0, "nothing reported from sub\n");
	ok_todo_wine(GetOverlappedResult(h, &ov, &n, FALSE) && has(buf, n, FILE_ACTION_ADDED, L"sub\\deep.txt"),
		     "sub\\deep.txt not reported (%lu bytes)\n", n);
	CloseHandle(h);

	/* A completion routine, run by an alertable wait. */
	h = open_dir(FILE_FLAG_OVERLAPPED);
	memset(&ov, 0, sizeof(ov));
	ok(ReadDirectoryChangesW(h, buf, sizeof(buf), FALSE, names, NULL, &ov, done), "routine call: %lu\n",
	   GetLastError());
	touch(L"c.txt");
	for (int i = 0; i < 100 && routine_bytes < 0; i++)
		SleepEx(100, TRUE);
	ok(routine_bytes > 0, "the routine did not run (%ld)\n", routine_bytes);
	ok(routine_bytes > 0 && has(buf, (DWORD)routine_bytes, FILE_ACTION_ADDED, L"c.txt"), "c.txt not reported\n");
	CloseHandle(h);
	path_of(a, L"c.txt");
	DeleteFileW(a);

	path_of(a, L"sub\\deep.txt");
	DeleteFileW(a);
	RemoveDirectoryW(sub);
	RemoveDirectoryW(dir);
	return test_summary();
}
