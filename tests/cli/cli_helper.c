/* A Windows program for tests/cli/run, which checks what ndrun leaves
 * behind and what it says about its inputs:
 *   cli_helper server-unimpl   start the handle server (a child process),
 *                              wait for a line on stdin, then call a
 *                              function ndrun lacks
 *   cli_helper server-crash    the same, then write through a NULL pointer
 *                              (an unhandled access violation)
 *   cli_helper hold NAME       a named file mapping and the handle
 *                              server, then wait to be killed
 *   cli_helper make NAME       a file mapping NAME and an event NAME-event, then
 *                              exit without closing them
 *   cli_helper regwrite        write HKEY_CURRENT_USER\Software\ndshim-cli
 *                              and print the result
 *   cli_helper reg             read HKEY_CURRENT_USER\Software (the
 *                              registry's user hive file) and print the
 *                              result */
#include <stdio.h>
#include <string.h>
#include <windows.h>

/* A process that starts another may be asked for handles by it: ndrun
 * starts its handle server (kernel32/duphandle.c) with the first child. */
static void serve(void)
{
	STARTUPINFOA si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	char line[MAX_PATH + 16];

	snprintf(line, sizeof(line), "cli_helper exit");
	if (!CreateProcessA(NULL, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) {
		printf("CreateProcess failed: %lu\n", GetLastError());
		ExitProcess(3);
	}
	WaitForSingleObject(pi.hProcess, INFINITE);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "server-unimpl") || !strcmp(argv[1], "server-crash"))) {
		WCHAR buf[16];
		char go[16];

		serve();
		printf("serving\n");
		fflush(stdout);
		if (!fgets(go, sizeof(go), stdin))
			return 4;
		if (!strcmp(argv[1], "server-crash")) {
			static int *volatile nowhere;

			*nowhere = 0;
		}
		/* Real kernel32, absent from ndrun (tests/pe/unimplemented.c). */
		GetFirmwareEnvironmentVariableW(L"", L"{00000000-0000-0000-0000-000000000000}", buf, sizeof(buf));
		printf("not stopped\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "hold")) {
		HANDLE m = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, argv[2]);

		if (!m) {
			printf("CreateFileMapping failed: %lu\n", GetLastError());
			return 3;
		}
		serve();
		printf("holding\n");
		fflush(stdout);
		Sleep(INFINITE);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "make")) {
		char event[MAX_PATH];

		/* Objects of all kinds share one namespace: another name. */
		snprintf(event, sizeof(event), "%s-event", argv[2]);
		if (!CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, argv[2]) ||
		    !CreateEventA(NULL, TRUE, FALSE, event))
			return 3;
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "regwrite")) {
		HKEY k;
		DWORD v = 1;
		LONG r = RegCreateKeyExA(HKEY_CURRENT_USER, "Software\\ndshim-cli", 0, NULL, 0, KEY_WRITE, NULL, &k,
					 NULL);

		if (!r) {
			r = RegSetValueExA(k, "v", 0, REG_DWORD, (const BYTE *)&v, sizeof(v));
			RegCloseKey(k);
		}
		printf("write: %ld\n", r);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "reg")) {
		HKEY k;
		LONG r = RegOpenKeyExA(HKEY_CURRENT_USER, "Software", 0, KEY_READ, &k);

		printf("RegOpenKeyEx: %ld\n", r);
		if (!r)
			RegCloseKey(k);
		return 0;
	}
	fprintf(stderr, "usage: cli_helper server-unimpl | server-crash | hold NAME | make NAME | regwrite | reg\n");
	return 2;
}
