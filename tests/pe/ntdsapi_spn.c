/* ntdsapi's DsMakeSpnW (smpd names its Kerberos service with it):
 * "class/instance:port/service", the instance defaulting to the service
 * name (and the last part then left out), the size protocol, invalid
 * arguments.  authz's AuthzGetInformationFromContext refuses a context
 * that is not one. */
#include <windows.h>
#include <ntdsapi.h>

#include "test.h"

typedef BOOL(WINAPI *authz_info_fn)(HANDLE, int, DWORD, PDWORD, PVOID);

int main(void)
{
	WCHAR spn[128];
	DWORD len = 0;
	HMODULE authz;

	ok(DsMakeSpnW(L"msmpi", L"node1", NULL, 0, NULL, &len, NULL) == ERROR_BUFFER_OVERFLOW && len == 12,
	   "size: length %lu\n", len);
	len = 128;
	ok(DsMakeSpnW(L"msmpi", L"node1", NULL, 0, NULL, &len, spn) == ERROR_SUCCESS && !lstrcmpW(spn, L"msmpi/node1") &&
		   len == 12,
	   "got %ls (%lu)\n", spn, len);
	len = 128;
	ok(DsMakeSpnW(L"http", L"svc.example", L"host.example", 8080, NULL, &len, spn) == ERROR_SUCCESS &&
		   !lstrcmpW(spn, L"http/host.example:8080/svc.example"),
	   "got %ls\n", spn);
	len = 5;
	ok(DsMakeSpnW(L"msmpi", L"node1", NULL, 0, NULL, &len, spn) == ERROR_BUFFER_OVERFLOW && len == 12,
	   "short buffer: length %lu\n", len);
	len = 128;
	ok(DsMakeSpnW(NULL, L"node1", NULL, 0, NULL, &len, spn) == ERROR_INVALID_PARAMETER, "no class\n");
	authz = LoadLibraryA("authz.dll");
	ok(authz != NULL, "authz.dll: %lu\n", GetLastError());
	if (authz) {
		authz_info_fn info = (authz_info_fn)(void *)GetProcAddress(authz, "AuthzGetInformationFromContext");
		DWORD need = 0;
		BYTE buf[64];

		/* Wine's is a stub that ends the program. */
		ok(info != NULL, "AuthzGetInformationFromContext not exported\n");
		if (info && test_on_wine()) {
			ok_todo_wine(0, "Wine's AuthzGetInformationFromContext is a stub\n");
		} else if (info) {
			SetLastError(0xdeadbeef);
			ok(!info(NULL, 1, sizeof(buf), &need, buf) && GetLastError() == ERROR_INVALID_HANDLE,
			   "a NULL context: error %lu\n", GetLastError());
		}
	}
	return test_summary();
}
