/* shell32's ShellExecuteExW/ShellExecuteW from a console program: a
 * program runs (found with and without ".exe", with its parameters, in
 * the given directory, its process handle returned on request); a file
 * that does not exist, a document with no application and an unknown
 * verb fail with the documented errors. */
#include <windows.h>
#include <shellapi.h>

#include "test.h"

int main(int argc, char **argv)
{
	WCHAR self[MAX_PATH], noext[MAX_PATH], dir[MAX_PATH], doc[MAX_PATH];
	SHELLEXECUTEINFOW info;
	DWORD code = 0;
	HINSTANCE inst;
	HANDLE f;

	if (argc == 3 && !strcmp(argv[1], "child")) {
		/* The child: exits with its argument plus whether it runs in
		 * the folder it was given (100). */
		char cwd[MAX_PATH];
		GetCurrentDirectoryA(MAX_PATH, cwd);
		return atoi(argv[2]) + (strstr(cwd, "shexec_dir") ? 100 : 0);
	}
	GetModuleFileNameW(NULL, self, MAX_PATH);

	memset(&info, 0, sizeof(info));
	info.cbSize = sizeof(info);
	info.fMask = SEE_MASK_NOCLOSEPROCESS | SEE_MASK_FLAG_NO_UI;
	info.lpVerb = L"open";
	info.lpFile = self;
	info.lpParameters = L"child 7";
	info.nShow = SW_HIDE;
	ok(ShellExecuteExW(&info), "ShellExecuteExW: %lu\n", GetLastError());
	ok((UINT_PTR)info.hInstApp > 32, "hInstApp %p\n", info.hInstApp);
	ok(info.hProcess != NULL, "no process handle\n");
	if (info.hProcess) {
		WaitForSingleObject(info.hProcess, INFINITE);
		GetExitCodeProcess(info.hProcess, &code);
		ok(code == 7, "child exit code %lu\n", code);
		CloseHandle(info.hProcess);
	}

	/* Without ".exe", in a directory of its own. */
	lstrcpyW(noext, self);
	noext[lstrlenW(noext) - 4] = 0;
	GetTempPathW(MAX_PATH, dir);
	lstrcatW(dir, L"shexec_dir");
	CreateDirectoryW(dir, NULL);
	info.lpVerb = NULL;
	info.lpFile = noext;
	info.lpDirectory = dir;
	info.lpParameters = L"child 3";
	ok(ShellExecuteExW(&info), "without .exe: %lu\n", GetLastError());
	if (info.hProcess) {
		WaitForSingleObject(info.hProcess, INFINITE);
		GetExitCodeProcess(info.hProcess, &code);
		ok(code == 103, "child in its directory: exit code %lu\n", code);
		CloseHandle(info.hProcess);
	}
	info.lpDirectory = NULL;

	inst = ShellExecuteW(NULL, NULL, self, L"child 0", NULL, SW_HIDE);
	ok((UINT_PTR)inst > 32, "ShellExecuteW: %p\n", inst);

	/* A file that does not exist, in a folder that does not either. */
	info.lpFile = L"C:\\no\\such\\ndshim_program.exe";
	SetLastError(0);
	ok(!ShellExecuteExW(&info), "missing file ran\n");
	ok(GetLastError() == ERROR_PATH_NOT_FOUND, "missing folder: error %lu\n", GetLastError());
	ok((UINT_PTR)info.hInstApp == SE_ERR_FNF, "missing folder: hInstApp %p\n", info.hInstApp);
	GetTempPathW(MAX_PATH, doc);
	lstrcatW(doc, L"ndshim_no_such_program.exe");
	info.lpFile = doc;
	SetLastError(0);
	ok(!ShellExecuteExW(&info), "missing file ran\n");
	ok(GetLastError() == ERROR_FILE_NOT_FOUND, "missing file: error %lu\n", GetLastError());
	ok((UINT_PTR)info.hInstApp == SE_ERR_FNF, "missing file: hInstApp %p\n", info.hInstApp);
	inst = ShellExecuteW(NULL, NULL, L"C:\\no\\such\\ndshim_program.exe", NULL, NULL, SW_HIDE);
	ok((UINT_PTR)inst == SE_ERR_FNF, "ShellExecuteW missing file: %p\n", inst);

	/* A document of a type nothing opens. */
	GetTempPathW(MAX_PATH, doc);
	lstrcatW(doc, L"shexec_doc.ndshimnoassoc");
	f = CreateFileW(doc, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	CloseHandle(f);
	info.lpFile = doc;
	SetLastError(0);
	ok(!ShellExecuteExW(&info), "document opened\n");
	/* ShellExecuteEx's docs: ERROR_NO_ASSOCIATION.  Wine tries to run
	 * such a file as a program and reports ERROR_BAD_EXE_FORMAT. */
	ok_todo_wine(GetLastError() == ERROR_NO_ASSOCIATION, "document: error %lu\n", GetLastError());
	ok((UINT_PTR)info.hInstApp == SE_ERR_NOASSOC, "document: hInstApp %p\n", info.hInstApp);
	DeleteFileW(doc);
	RemoveDirectoryW(dir);
	return test_summary();
}
