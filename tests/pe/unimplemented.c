/* Calling a Win32 function ndrun does not implement must stop the program
 * with exit status 125 and "ndrun: unimplemented function <DLL>.<name>
 * called" (DESIGN.md: unresolved imports bind to a trap that names them).
 * GetFirmwareEnvironmentVariableW (reads UEFI variables) is real kernel32
 * but should never be needed by the programs ndrun targets.
 * Meaningless under wine64, which implements it: ndrun-only in tests.list. */
#include <stdio.h>
#include <windows.h>

int main(void)
{
	WCHAR buf[16];
	DWORD n;

	printf("calling GetFirmwareEnvironmentVariableW\n");
	fflush(stdout);
	n = GetFirmwareEnvironmentVariableW(L"", L"{00000000-0000-0000-0000-000000000000}", buf,
					    sizeof(buf));
	printf("returned %lu: ndrun should have stopped the program\n", n);
	return 0;
}
