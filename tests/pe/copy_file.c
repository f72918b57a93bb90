/* CopyFileA/W and CopyFileExW: data, read-only attribute and last-write
 * time copied; an existing destination replaced or, with
 * COPY_FILE_FAIL_IF_EXISTS / bFailIfExists, kept (ERROR_FILE_EXISTS); a
 * read-only destination refused; a missing source or a folder refused;
 * the progress routine called as the stream starts and after chunks,
 * with the totals, and PROGRESS_CANCEL / *pbCancel ending the copy with
 * ERROR_REQUEST_ABORTED and no destination left. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "test.h"

#define BIG (3 * 1024 * 1024 + 123)

static char src[MAX_PATH], dst[MAX_PATH];

static void put(const char *name, const char *data, DWORD n)
{
	HANDLE h = CreateFileA(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	DWORD w;

	ok(h != INVALID_HANDLE_VALUE, "create %s: %lu\n", name, GetLastError());
	WriteFile(h, data, n, &w, NULL);
	CloseHandle(h);
}

static DWORD get(const char *name, char *buf, DWORD size)
{
	HANDLE h = CreateFileA(name, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	DWORD n = 0;

	if (h == INVALID_HANDLE_VALUE)
		return ~0u;
	ReadFile(h, buf, size, &n, NULL);
	CloseHandle(h);
	return n;
}

struct progress {
	int calls, switches, chunks;
	LONGLONG last, total;
	DWORD answer_at, answer; /* answer on this call (1-based) */
	HANDLE in, out;
	BOOL *cancel;
};

static DWORD CALLBACK on_progress(LARGE_INTEGER total, LARGE_INTEGER done, LARGE_INTEGER stream_total,
				  LARGE_INTEGER stream_done, DWORD stream, DWORD reason, HANDLE in, HANDLE out,
				  LPVOID data)
{
	struct progress *p = data;

	p->calls++;
	p->switches += reason == CALLBACK_STREAM_SWITCH;
	p->chunks += reason == CALLBACK_CHUNK_FINISHED;
	ok(done.QuadPart >= p->last && done.QuadPart <= total.QuadPart, "done %lld of %lld\n", done.QuadPart,
	   total.QuadPart);
	ok(stream_total.QuadPart == total.QuadPart && stream_done.QuadPart == done.QuadPart && stream == 1,
	   "stream %lu: %lld/%lld\n", stream, stream_done.QuadPart, stream_total.QuadPart);
	ok(in && in != INVALID_HANDLE_VALUE && out && out != INVALID_HANDLE_VALUE, "handles %p %p\n", in, out);
	p->last = done.QuadPart;
	p->total = total.QuadPart;
	if (p->cancel && p->calls == 2)
		*p->cancel = TRUE;
	return p->calls == (int)p->answer_at ? p->answer : PROGRESS_CONTINUE;
}

static void test_plain(void)
{
	char buf[64] = { 0 };
	FILETIME when = { 0x12345000, 0x01d9a000 }, got_time;
	HANDLE h;

	put(src, "hello copy", 10);
	h = CreateFileA(src, GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
	SetFileTime(h, NULL, NULL, &when);
	CloseHandle(h);
	DeleteFileA(dst);
	ok(CopyFileA(src, dst, TRUE), "CopyFileA: %lu\n", GetLastError());
	ok(get(dst, buf, sizeof(buf)) == 10 && !memcmp(buf, "hello copy", 10), "copied [%s]\n", buf);
	h = CreateFileA(dst, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	GetFileTime(h, NULL, NULL, &got_time);
	CloseHandle(h);
	ok(CompareFileTime(&got_time, &when) == 0, "last-write time %08lx%08lx\n", got_time.dwHighDateTime,
	   got_time.dwLowDateTime);

	/* an existing destination: kept, or replaced */
	put(src, "second", 6);
	SetLastError(0xdeadbeef);
	ok(!CopyFileA(src, dst, TRUE) && GetLastError() == ERROR_FILE_EXISTS, "fail if exists: %lu\n", GetLastError());
	ok(get(dst, buf, sizeof(buf)) == 10, "destination changed\n");
	ok(CopyFileW(L"copy_file.src", L"copy_file.dst", FALSE), "CopyFileW replacing: %lu\n", GetLastError());
	ok(get(dst, buf, sizeof(buf)) == 6 && !memcmp(buf, "second", 6), "not replaced [%s]\n", buf);
	SetLastError(0xdeadbeef);
	ok(!CopyFileExW(L"copy_file.src", L"copy_file.dst", NULL, NULL, NULL, COPY_FILE_FAIL_IF_EXISTS) &&
		   GetLastError() == ERROR_FILE_EXISTS,
	   "COPY_FILE_FAIL_IF_EXISTS: %lu\n", GetLastError());

	/* read-only: the attribute travels, and a read-only destination stays */
	SetFileAttributesA(src, FILE_ATTRIBUTE_READONLY);
	DeleteFileA(dst);
	ok(CopyFileA(src, dst, FALSE), "read-only source: %lu\n", GetLastError());
	ok(GetFileAttributesA(dst) & FILE_ATTRIBUTE_READONLY, "attributes %#lx\n", GetFileAttributesA(dst));
	SetFileAttributesA(src, FILE_ATTRIBUTE_NORMAL);
	SetLastError(0xdeadbeef);
	/* documented; Wine replaces a read-only destination */
	ok_todo_wine(!CopyFileA(src, dst, FALSE) && GetLastError() == ERROR_ACCESS_DENIED, "onto read-only: %lu\n",
		     GetLastError());
	SetFileAttributesA(dst, FILE_ATTRIBUTE_NORMAL);
	DeleteFileA(dst);

	SetLastError(0xdeadbeef);
	ok(!CopyFileA("copy_file.nosuch", dst, FALSE) && GetLastError() == ERROR_FILE_NOT_FOUND,
	   "missing source: %lu\n", GetLastError());
	ok(GetFileAttributesA(dst) == INVALID_FILE_ATTRIBUTES, "a destination was made\n");
	CreateDirectoryA("copy_file.dir", NULL);
	SetLastError(0xdeadbeef);
	ok(!CopyFileA("copy_file.dir", dst, FALSE) && GetLastError() == ERROR_ACCESS_DENIED, "a folder: %lu\n",
	   GetLastError());
	RemoveDirectoryA("copy_file.dir");
}

static void test_progress(void)
{
	static char data[BIG], back[BIG];
	struct progress p = { 0 };
	BOOL cancel = FALSE;

	for (int i = 0; i < BIG; i++)
		data[i] = (char)(i * 7 + i / 1000);
	put(src, data, BIG);
	DeleteFileA(dst);
	ok(CopyFileExA(src, dst, on_progress, &p, &cancel, 0), "CopyFileExA: %lu\n", GetLastError());
	ok_todo_wine(p.switches == 1 && p.chunks >= 1 && p.total == BIG && p.last == BIG, "%d calls: %d switch, %d chunks, %lld/%lld\n",
		     p.calls, p.switches, p.chunks, p.last, p.total);
	ok(get(dst, back, BIG) == BIG && !memcmp(back, data, BIG), "copied data differ\n");

	/* Wine's CopyFileEx never calls the progress routine (nor reads
	 * *pbCancel); the documentation says it is called as portions are
	 * copied */

	/* PROGRESS_QUIET: no more calls */
	memset(&p, 0, sizeof(p));
	p.answer_at = 1;
	p.answer = PROGRESS_QUIET;
	ok(CopyFileExA(src, dst, on_progress, &p, NULL, 0), "quiet: %lu\n", GetLastError());
	ok_todo_wine(p.calls == 1, "%d calls after PROGRESS_QUIET\n", p.calls);

	/* PROGRESS_CANCEL on the first chunk */
	DeleteFileA(dst);
	memset(&p, 0, sizeof(p));
	p.answer_at = 2;
	p.answer = PROGRESS_CANCEL;
	SetLastError(0xdeadbeef);
	ok_todo_wine(!CopyFileExA(src, dst, on_progress, &p, NULL, 0) && GetLastError() == ERROR_REQUEST_ABORTED,
		     "cancel: %lu\n", GetLastError());
	ok_todo_wine(GetFileAttributesA(dst) == INVALID_FILE_ATTRIBUTES, "a cancelled copy left its destination\n");

	/* *pbCancel set during the copy */
	memset(&p, 0, sizeof(p));
	p.cancel = &cancel;
	cancel = FALSE;
	SetLastError(0xdeadbeef);
	ok_todo_wine(!CopyFileExA(src, dst, on_progress, &p, &cancel, 0) && GetLastError() == ERROR_REQUEST_ABORTED,
		     "pbCancel: %lu\n", GetLastError());
	ok_todo_wine(GetFileAttributesA(dst) == INVALID_FILE_ATTRIBUTES, "a cancelled copy left its destination\n");
	DeleteFileA(src);
}

int main(void)
{
	strcpy(src, "copy_file.src");
	strcpy(dst, "copy_file.dst");
	test_plain();
	test_progress();
	DeleteFileA(src);
	DeleteFileA(dst);
	return test_summary();
}
