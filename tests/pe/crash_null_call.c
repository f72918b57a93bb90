/* Say why: a program that calls what a failed GetProcAddress returned
 * (NULL) faults at address 0; ndrun's report names the look-ups that
 * failed just before (tests/pe/crash_null_call.stderr.grep; ndrun's own
 * output, so ndrun only).  The look-ups themselves follow Windows:
 * NULL, with ERROR_PROC_NOT_FOUND. */
#include <stdio.h>
#include <windows.h>

typedef void *(WINAPI *peb_fn)(void);

int main(void)
{
	peb_fn by_ordinal = (peb_fn)(void *)GetProcAddress(GetModuleHandleA("kernel32.dll"), (LPCSTR)65000);
	peb_fn fn;
	DWORD err;

	SetLastError(0xdeadbeef);
	fn = (peb_fn)(void *)GetProcAddress(GetModuleHandleA("ntdll.dll"), "RtlNdshimNoSuchFunction");
	err = GetLastError();
	printf("GetProcAddress: %p, by ordinal %p, error %lu\n", (void *)fn, (void *)by_ordinal, err);
	fflush(stdout);
	if (fn || by_ordinal || err != ERROR_PROC_NOT_FOUND)
		return 1;
	fn();
	return 0;
}
