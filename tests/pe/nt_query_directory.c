/* NtQueryDirectoryFile over a folder of three files and a subfolder:
 * every name once with "." and "..", then STATUS_NO_MORE_FILES; the
 * fields of FileBothDirectoryInformation (size, attributes); a mask
 * ("*.txt") given on a handle's first query, kept through RestartScan;
 * ReturnSingleEntry; a buffer with room for one entry at a time;
 * FileNamesInformation; STATUS_NO_SUCH_FILE when the mask matches
 * nothing; GetFileInformationByHandleEx's FileIdBothDirectoryInfo and
 * FileFullDirectoryInfo listings, which are the same records. */
#include <windows.h>
#include <winternl.h>

#include "test.h"

typedef NTSTATUS(WINAPI *qdf_fn)(HANDLE, HANDLE, void *, void *, IO_STATUS_BLOCK *, void *, ULONG, ULONG, BOOLEAN,
				 UNICODE_STRING *, BOOLEAN);

/* mingw's winternl.h lacks these layouts (Microsoft's ntifs.h). */
typedef struct {
	ULONG NextEntryOffset, FileIndex;
	LARGE_INTEGER CreationTime, LastAccessTime, LastWriteTime, ChangeTime, EndOfFile, AllocationSize;
	ULONG FileAttributes, FileNameLength, EaSize;
	CCHAR ShortNameLength;
	WCHAR ShortName[12];
	WCHAR FileName[1];
} BOTH_INFO;
typedef struct {
	ULONG NextEntryOffset, FileIndex, FileNameLength;
	WCHAR FileName[1];
} NAMES_INFO;

enum { C_BOTH = 3, C_NAMES = 12, C_ID_BOTH = 37 };

static qdf_fn qdf;

static void init_mask(UNICODE_STRING *u, const WCHAR *s)
{
	u->Buffer = (WCHAR *)s;
	u->Length = u->MaximumLength = (USHORT)(lstrlenW(s) * sizeof(WCHAR));
}
static WCHAR dir[MAX_PATH];

static void make(const WCHAR *name, DWORD size)
{
	WCHAR path[MAX_PATH];
	char data[64] = { 0 };
	HANDLE h;
	DWORD n;

	wsprintfW(path, L"%s\\%s", dir, name);
	h = CreateFileW(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	WriteFile(h, data, size, &n, NULL);
	CloseHandle(h);
}

/* The names of one buffer, appended to list ("a|b|"); entries counted. */
static int names(const BYTE *buf, ULONG used, int cls, WCHAR *list, const BOTH_INFO **found, const WCHAR *want)
{
	int n = 0;

	for (ULONG off = 0; used;) {
		const BOTH_INFO *b = (const BOTH_INFO *)(buf + off);
		const NAMES_INFO *m = (const NAMES_INFO *)(buf + off);
		const FILE_ID_BOTH_DIR_INFO *ib = (const FILE_ID_BOTH_DIR_INFO *)(buf + off);
		const WCHAR *name = cls == C_NAMES ? m->FileName : cls == C_ID_BOTH ? ib->FileName : b->FileName;
		ULONG len = (cls == C_NAMES ? m->FileNameLength : b->FileNameLength) / sizeof(WCHAR);
		ULONG next = cls == C_NAMES ? m->NextEntryOffset : b->NextEntryOffset;

		lstrcatW(list, L"|");
		memcpy(list + lstrlenW(list), name, len * sizeof(WCHAR));
		list[lstrlenW(list) + len] = 0;
		if (found && want && len == (ULONG)lstrlenW(want) && !memcmp(name, want, len * sizeof(WCHAR)))
			*found = b;
		n++;
		ok(next % 8 == 0, "NextEntryOffset %lu is not 8-aligned\n", next);
		if (!next)
			break;
		off += next;
	}
	return n;
}

int main(void)
{
	WCHAR tmp[MAX_PATH], sub[MAX_PATH], list[2048];
	BYTE buf[4096] __attribute__((aligned(8)));
	IO_STATUS_BLOCK io;
	UNICODE_STRING mask;
	const BOTH_INFO *big = NULL;
	NTSTATUS st;
	HANDLE h;
	int total;

	qdf = (qdf_fn)(void *)GetProcAddress(GetModuleHandleA("ntdll.dll"), "NtQueryDirectoryFile");
	ok(qdf != NULL, "ntdll lacks NtQueryDirectoryFile\n");
	if (!qdf)
		return test_summary();
	GetTempPathW(MAX_PATH, tmp);
	wsprintfW(dir, L"%sntqdf-%lu", tmp, GetCurrentProcessId());
	CreateDirectoryW(dir, NULL);
	make(L"a.txt", 1);
	make(L"b.txt", 2);
	make(L"big.dat", 40);
	wsprintfW(sub, L"%s\\sub", dir);
	CreateDirectoryW(sub, NULL);
	h = CreateFileW(dir, FILE_LIST_DIRECTORY | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS, NULL);
	ok(h != INVALID_HANDLE_VALUE, "cannot open the folder: %lu\n", GetLastError());

	list[0] = 0;
	total = 0;
	while (!(st = qdf(h, NULL, NULL, NULL, &io, buf, sizeof(buf), C_BOTH, FALSE, NULL, FALSE)))
		total += names(buf, (ULONG)io.Information, C_BOTH, list, &big, L"big.dat");
	ok(st == (NTSTATUS)0x80000006, "the end: %#lx\n", st); /* STATUS_NO_MORE_FILES */
	ok(total == 6, "%d entries: %ls\n", total, list);
	ok(wcsstr(list, L"|.|") || wcsstr(list, L"|.") == list, "no \".\": %ls\n", list);
	ok(wcsstr(list, L"|a.txt") && wcsstr(list, L"|b.txt") && wcsstr(list, L"|big.dat") && wcsstr(list, L"|sub"),
	   "names: %ls\n", list);
	ok(big && big->EndOfFile.QuadPart == 40 && !(big->FileAttributes & FILE_ATTRIBUTE_DIRECTORY),
	   "big.dat: size %lld, attributes %#lx\n", big ? big->EndOfFile.QuadPart : -1LL, big ? big->FileAttributes : 0);

	/* A mask on a new handle's first query, one entry at a time, kept
	 * through RestartScan. */
	CloseHandle(h);
	h = CreateFileW(dir, FILE_LIST_DIRECTORY | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS, NULL);
	init_mask(&mask, L"*.txt");
	list[0] = 0;
	total = 0;
	for (BOOLEAN restart = TRUE; !(st = qdf(h, NULL, NULL, NULL, &io, buf, sizeof(buf), C_NAMES, TRUE,
						 restart ? &mask : NULL, restart)); restart = FALSE)
		total += names(buf, (ULONG)io.Information, C_NAMES, list, NULL, NULL);
	ok(total == 2 && wcsstr(list, L"|a.txt") && wcsstr(list, L"|b.txt"), "*.txt: %d, %ls\n", total, list);
	ok(st == (NTSTATUS)0x80000006, "the end of *.txt: %#lx\n", st);
	st = qdf(h, NULL, NULL, NULL, &io, buf, sizeof(buf), C_NAMES, FALSE, NULL, TRUE);
	list[0] = 0;
	total = st ? 0 : names(buf, (ULONG)io.Information, C_NAMES, list, NULL, NULL);
	ok(total == 2, "after RestartScan without a mask: %d, %ls\n", total, list);
	CloseHandle(h);
	h = CreateFileW(dir, FILE_LIST_DIRECTORY | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS, NULL);

	/* Room for about one entry a call: every name still comes, once. */
	list[0] = 0;
	total = 0;
	for (BOOLEAN restart = TRUE;
	     !(st = qdf(h, NULL, NULL, NULL, &io, buf, sizeof(BOTH_INFO) + 16, C_BOTH, FALSE, NULL, restart));
	     restart = FALSE)
		total += names(buf, (ULONG)io.Information, C_BOTH, list, NULL, NULL);
	ok(total == 6, "small buffer: %d entries, %ls\n", total, list);

	/* GetFileInformationByHandleEx's listings are the same records (Go's
	 * os.ReadDir reads folders so). */
	list[0] = 0;
	total = 0;
	for (FILE_INFO_BY_HANDLE_CLASS c = FileIdBothDirectoryRestartInfo;
	     GetFileInformationByHandleEx(h, c, buf, sizeof(buf)); c = FileIdBothDirectoryInfo)
		total += names(buf, 1, C_ID_BOTH, list, NULL, NULL);
	ok(GetLastError() == ERROR_NO_MORE_FILES, "the listing ended with %lu\n", GetLastError());
	ok(total == 6 && wcsstr(list, L"|big.dat"), "FileIdBothDirectoryInfo: %d, %ls\n", total, list);
	ok(GetFileInformationByHandleEx(h, FileFullDirectoryRestartInfo, buf, sizeof(buf)),
	   "FileFullDirectoryRestartInfo: %lu\n", GetLastError());

	CloseHandle(h);
	h = CreateFileW(dir, FILE_LIST_DIRECTORY | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS, NULL);
	init_mask(&mask, L"*.none");
	st = qdf(h, NULL, NULL, NULL, &io, buf, sizeof(buf), C_BOTH, FALSE, &mask, TRUE);
	ok(st == (NTSTATUS)0xc000000f, "no match: %#lx\n", st); /* STATUS_NO_SUCH_FILE */
	CloseHandle(h);

	RemoveDirectoryW(sub);
	for (int i = 0; i < 3; i++) {
		static const WCHAR *const n[] = { L"a.txt", L"b.txt", L"big.dat" };
		wsprintfW(tmp, L"%s\\%s", dir, n[i]);
		DeleteFileW(tmp);
	}
	RemoveDirectoryW(dir);
	return test_summary();
}
