/* The registry API: create, open, set, query, enumerate, delete, with
 * the documented errors and size protocols, under HKEY_CURRENT_USER
 * (ndrun keeps it in $NDSHIM_REGISTRY, set by tests.list to a folder
 * beside the programs; persistence across runs is checked by
 * tests/unit/test_registry). */
#include <wchar.h>

#include "test.h"

#include <sddl.h>

#define TEST_KEY L"Software\\ndshim-pe-test"

static void delete_tree(HKEY root, const WCHAR *path)
{
	HKEY k;
	WCHAR name[256];
	DWORD len;

	if (RegOpenKeyExW(root, path, 0, KEY_ALL_ACCESS, &k))
		return;
	for (;;) {
		WCHAR sub[600];

		len = 256;
		if (RegEnumKeyExW(k, 0, name, &len, NULL, NULL, NULL, NULL))
			break;
		swprintf(sub, 600, L"%ls\\%ls", path, name);
		delete_tree(root, sub);
	}
	RegCloseKey(k);
	RegDeleteKeyW(root, path);
}

static void test_create_open(void)
{
	HKEY k, k2;
	DWORD disp = 0;
	LSTATUS r;

	delete_tree(HKEY_CURRENT_USER, TEST_KEY);
	r = RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY, 0, KEY_READ, &k);
	ok(r == ERROR_FILE_NOT_FOUND, "open missing key: %ld\n", r);
	r = RegCreateKeyExW(HKEY_CURRENT_USER, TEST_KEY L"\\a\\b", 0, NULL, 0, KEY_ALL_ACCESS, NULL, &k, &disp);
	ok(r == ERROR_SUCCESS && disp == REG_CREATED_NEW_KEY, "create: %ld, disposition %lu\n", r, disp);
	RegCloseKey(k);
	r = RegCreateKeyExW(HKEY_CURRENT_USER, TEST_KEY L"\\A\\B", 0, NULL, 0, KEY_ALL_ACCESS, NULL, &k, &disp);
	ok(r == ERROR_SUCCESS && disp == REG_OPENED_EXISTING_KEY, "create existing (other case): %ld, %lu\n",
	   r, disp);
	RegCloseKey(k);
	r = RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY, 0, KEY_ALL_ACCESS, &k);
	ok(r == ERROR_SUCCESS, "open: %ld\n", r);
	r = RegOpenKeyExW(k, L"a", 0, KEY_READ, &k2);
	ok(r == ERROR_SUCCESS, "open relative: %ld\n", r);
	RegCloseKey(k2);
	r = RegOpenKeyExA(k, "a\\b", 0, KEY_READ, &k2);
	ok(r == ERROR_SUCCESS, "RegOpenKeyExA: %ld\n", r);
	RegCloseKey(k2);
	r = RegOpenKeyExW(k, L"", 0, KEY_READ, &k2);
	ok(r == ERROR_SUCCESS && k2 != k, "open \"\": %ld\n", r);
	RegCloseKey(k2);
	r = RegCreateKeyExA(k, "c", 0, NULL, REG_OPTION_NON_VOLATILE, KEY_ALL_ACCESS, NULL, &k2, &disp);
	ok(r == ERROR_SUCCESS && disp == REG_CREATED_NEW_KEY, "RegCreateKeyExA: %ld\n", r);
	RegCloseKey(k2);
	RegCloseKey(k);
	ok(RegCloseKey(k) == ERROR_INVALID_HANDLE, "closing twice\n");
	ok(RegCloseKey(HKEY_CURRENT_USER) == ERROR_SUCCESS, "closing a predefined key\n");
}

static void test_values(void)
{
	HKEY k;
	DWORD type, size, dw = 0x2a, got;
	WCHAR wbuf[64];
	char abuf[64];
	BYTE bin[3] = { 1, 2, 3 };
	LSTATUS r;

	RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY, 0, KEY_ALL_ACCESS, &k);
	r = RegSetValueExW(k, L"Count", 0, REG_DWORD, (BYTE *)&dw, sizeof(dw));
	ok(r == ERROR_SUCCESS, "set DWORD: %ld\n", r);
	r = RegSetValueExW(k, L"Name", 0, REG_SZ, (const BYTE *)L"caf\u00e9", 5 * sizeof(WCHAR));
	ok(r == ERROR_SUCCESS, "set SZ: %ld\n", r);
	r = RegSetValueExW(k, NULL, 0, REG_SZ, (const BYTE *)L"default", 8 * sizeof(WCHAR));
	ok(r == ERROR_SUCCESS, "set default: %ld\n", r);
	r = RegSetValueExA(k, "Ansi", 0, REG_SZ, (const BYTE *)"na\xefve", 6);
	ok(r == ERROR_SUCCESS, "RegSetValueExA: %ld\n", r);
	r = RegSetValueExW(k, L"Bin", 0, REG_BINARY, bin, 3);
	ok(r == ERROR_SUCCESS, "set BINARY: %ld\n", r);

	size = sizeof(got);
	r = RegQueryValueExW(k, L"count", NULL, &type, (BYTE *)&got, &size);
	ok(r == ERROR_SUCCESS && type == REG_DWORD && size == 4 && got == 0x2a, "DWORD: %ld %lu %lu %#lx\n", r,
	   type, size, got);
	size = sizeof(wbuf);
	r = RegQueryValueExW(k, L"Name", NULL, &type, (BYTE *)wbuf, &size);
	ok(r == ERROR_SUCCESS && type == REG_SZ && size == 10 && !wcscmp(wbuf, L"caf\u00e9"), "SZ: %ld %lu\n",
	   r, size);
	size = 0;
	r = RegQueryValueExW(k, L"Name", NULL, NULL, NULL, &size);
	ok(r == ERROR_SUCCESS && size == 10, "size query: %ld %lu\n", r, size);
	size = 4;
	r = RegQueryValueExW(k, L"Name", NULL, NULL, (BYTE *)wbuf, &size);
	ok(r == ERROR_MORE_DATA && size == 10, "small buffer: %ld %lu\n", r, size);
	size = sizeof(wbuf);
	r = RegQueryValueExW(k, L"", NULL, &type, (BYTE *)wbuf, &size);
	ok(r == ERROR_SUCCESS && !wcscmp(wbuf, L"default"), "default value: %ld\n", r);
	size = sizeof(abuf);
	r = RegQueryValueExA(k, "Ansi", NULL, &type, (BYTE *)abuf, &size);
	ok(r == ERROR_SUCCESS && type == REG_SZ && size == 6 && !strcmp(abuf, "na\xefve"), "A: %ld %lu %s\n",
	   r, size, abuf);
	size = sizeof(wbuf);
	r = RegQueryValueExW(k, L"Ansi", NULL, &type, (BYTE *)wbuf, &size);
	ok(r == ERROR_SUCCESS && size == 12 && !wcscmp(wbuf, L"na\u00efve"), "A stored as UTF-16: %ld %lu\n",
	   r, size);
	size = sizeof(abuf);
	r = RegQueryValueExA(k, "Name", NULL, &type, (BYTE *)abuf, &size);
	ok(r == ERROR_SUCCESS && size == 5 && !strcmp(abuf, "caf\xe9"), "W read through A: %ld %lu\n", r,
	   size);
	r = RegQueryValueExW(k, L"Missing", NULL, NULL, NULL, NULL);
	ok(r == ERROR_FILE_NOT_FOUND, "missing value: %ld\n", r);

	/* RegGetValueW: type filters, termination. */
	size = sizeof(got);
	r = RegGetValueW(HKEY_CURRENT_USER, TEST_KEY, L"Count", RRF_RT_REG_DWORD, &type, &got, &size);
	ok(r == ERROR_SUCCESS && got == 0x2a && type == REG_DWORD, "RegGetValueW DWORD: %ld\n", r);
	size = sizeof(wbuf);
	r = RegGetValueW(HKEY_CURRENT_USER, TEST_KEY, L"Count", RRF_RT_REG_SZ, &type, wbuf, &size);
	ok(r == ERROR_UNSUPPORTED_TYPE, "RegGetValueW wrong type: %ld\n", r);
	RegSetValueExW(k, L"Unterminated", 0, REG_SZ, (const BYTE *)L"abc", 3 * sizeof(WCHAR));
	size = 0;
	r = RegGetValueW(k, NULL, L"Unterminated", RRF_RT_REG_SZ, NULL, NULL, &size);
	ok(r == ERROR_SUCCESS && size == 8, "RegGetValueW adds the terminator: %ld, %lu\n", r, size);
	size = sizeof(wbuf);
	memset(wbuf, 0xff, sizeof(wbuf));
	r = RegGetValueW(k, NULL, L"Unterminated", RRF_RT_ANY, &type, wbuf, &size);
	ok(r == ERROR_SUCCESS && !wcscmp(wbuf, L"abc") && type == REG_SZ, "terminated: %ld\n", r);
	SetEnvironmentVariableW(L"PE_REG_VAR", L"xyz");
	RegSetValueExW(k, L"Expand", 0, REG_EXPAND_SZ, (const BYTE *)L"a%PE_REG_VAR%b", 15 * sizeof(WCHAR));
	size = sizeof(wbuf);
	r = RegGetValueW(k, NULL, L"Expand", RRF_RT_REG_SZ, &type, wbuf, &size);
	ok(r == ERROR_SUCCESS && type == REG_SZ && !wcscmp(wbuf, L"axyzb"), "expanded: %ld %lu %ls\n", r,
	   type, wbuf);
	size = sizeof(wbuf);
	r = RegGetValueW(k, NULL, L"Expand", RRF_RT_ANY | RRF_NOEXPAND, &type, wbuf, &size);
	ok(r == ERROR_SUCCESS && type == REG_EXPAND_SZ && !wcscmp(wbuf, L"a%PE_REG_VAR%b"), "not expanded: %ld\n",
	   r);
	r = RegGetValueW(k, NULL, L"Expand", RRF_RT_REG_DWORD, NULL, NULL, NULL);
	ok(r == ERROR_UNSUPPORTED_TYPE, "type not allowed: %ld\n", r);

	r = RegDeleteValueW(k, L"Bin");
	ok(r == ERROR_SUCCESS, "delete value: %ld\n", r);
	r = RegDeleteValueA(k, "Bin");
	ok(r == ERROR_FILE_NOT_FOUND, "delete again: %ld\n", r);
	RegCloseKey(k);

	/* Access: a KEY_READ handle cannot set. */
	RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY, 0, KEY_READ, &k);
	r = RegSetValueExW(k, L"Denied", 0, REG_DWORD, (BYTE *)&dw, 4);
	ok(r == ERROR_ACCESS_DENIED, "set through KEY_READ: %ld\n", r);
	RegCloseKey(k);
}

static void test_enum(void)
{
	HKEY k;
	WCHAR name[64];
	BYTE data[64];
	DWORD len, dlen, type, subkeys = 0, values = 0, maxsub = 0, maxname = 0, maxdata = 0;
	LSTATUS r;
	int i;

	RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY, 0, KEY_READ, &k);
	{
		HKEY z;

		ok(RegCreateKeyW(HKEY_CURRENT_USER, TEST_KEY L"\\Zeta", &z) == ERROR_SUCCESS, "RegCreateKeyW\n");
		RegCloseKey(z);
	}
	r = RegQueryInfoKeyW(k, NULL, NULL, NULL, &subkeys, &maxsub, NULL, &values, &maxname, &maxdata, NULL,
			     NULL);
	ok(r == ERROR_SUCCESS && subkeys == 3 && maxsub == 4 && values == 6 && maxname == 12,
	   "RegQueryInfoKeyW: %ld, %lu subkeys (max %lu), %lu values (max name %lu, data %lu)\n", r, subkeys,
	   maxsub, values, maxname, maxdata);
	/* Subkeys come sorted by name. */
	{
		static const WCHAR *const want[] = { L"a", L"c", L"Zeta" };

		for (i = 0; i < 4; i++) {
			len = 64;
			r = RegEnumKeyExW(k, i, name, &len, NULL, NULL, NULL, NULL);
			if (i < 3)
				ok(r == ERROR_SUCCESS && !wcscmp(name, want[i]) && len == wcslen(want[i]),
				   "subkey %d: %ld %ls\n", i, r, name);
			else
				ok(r == ERROR_NO_MORE_ITEMS, "past the end: %ld\n", r);
		}
	}
	len = 2;
	r = RegEnumKeyExW(k, 2, name, &len, NULL, NULL, NULL, NULL);
	ok(r == ERROR_MORE_DATA, "small name buffer: %ld\n", r);
	/* Values, with their data (in no documented order). */
	for (i = 0; i < 16; i++) {
		len = 64;
		dlen = sizeof(data);
		r = RegEnumValueW(k, i, name, &len, NULL, &type, data, &dlen);
		if (r)
			break;
		if (!wcscmp(name, L"Count"))
			ok(type == REG_DWORD && dlen == 4 && *(DWORD *)data == 0x2a && len == 5,
			   "Count: type %lu, %lu bytes, name length %lu\n", type, dlen, len);
	}
	ok(r == ERROR_NO_MORE_ITEMS, "enumeration ended with %ld\n", r);
	/* The A forms. */
	{
		char aname[64];
		BYTE adata[64];
		DWORD alen = 64, adlen = sizeof(adata), atype = 0, n = 0;

		r = RegEnumKeyExA(k, 2, aname, &alen, NULL, NULL, NULL, NULL);
		ok(r == ERROR_SUCCESS && !strcmp(aname, "Zeta") && alen == 4, "RegEnumKeyExA: %ld %s\n", r,
		   aname);
		for (i = 0; i < 16; i++) {
			alen = 64;
			adlen = sizeof(adata);
			if (RegEnumValueA(k, i, aname, &alen, NULL, &atype, adata, &adlen))
				break;
			if (!strcmp(aname, "Name"))
				ok(atype == REG_SZ && adlen == 5 && !strcmp((char *)adata, "caf\xe9"),
				   "RegEnumValueA Name: %lu %lu\n", atype, adlen);
		}
		ok(i == 6, "RegEnumValueA: %d values\n", i);
		r = RegQueryInfoKeyA(k, NULL, NULL, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
		ok(r == ERROR_SUCCESS && n == 3, "RegQueryInfoKeyA: %ld, %lu subkeys\n", r, n);
	}
	ok(i == 6, "%d values enumerated\n", i);
	RegCloseKey(k);
}

static void test_delete(void)
{
	HKEY k;
	LSTATUS r;

	r = RegDeleteKeyW(HKEY_CURRENT_USER, TEST_KEY L"\\a");
	ok(r == ERROR_ACCESS_DENIED, "delete a key with subkeys: %ld\n", r);
	RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY L"\\a\\b", 0, KEY_ALL_ACCESS, &k);
	r = RegDeleteKeyW(HKEY_CURRENT_USER, TEST_KEY L"\\a\\b");
	ok(r == ERROR_SUCCESS, "delete: %ld\n", r);
	r = RegSetValueExW(k, L"x", 0, REG_SZ, (const BYTE *)L"", 2);
	ok(r == ERROR_KEY_DELETED, "set through a deleted key's handle: %ld\n", r);
	RegCloseKey(k);
	r = RegDeleteKeyA(HKEY_CURRENT_USER, "Software\\ndshim-pe-test\\a\\b");
	ok(r == ERROR_FILE_NOT_FOUND, "delete again: %ld\n", r);
	delete_tree(HKEY_CURRENT_USER, TEST_KEY);
	r = RegOpenKeyExW(HKEY_CURRENT_USER, TEST_KEY, 0, KEY_READ, &k);
	ok(r == ERROR_FILE_NOT_FOUND, "tree gone: %ld\n", r);
}

static void test_user(void)
{
	WCHAR name[256];
	DWORD size = 256, need = 0;
	HANDLE token;
	BYTE buf[256];
	TOKEN_USER *tu = (TOKEN_USER *)buf;
	LPWSTR str;
	BOOL ret;

	ret = GetUserNameW(name, &size);
	ok(ret && size == wcslen(name) + 1 && size > 1, "GetUserNameW: %d, %lu\n", ret, size);
	size = 1;
	SetLastError(0xdeadbeef);
	ret = GetUserNameW(name, &size);
	ok(!ret && GetLastError() == ERROR_INSUFFICIENT_BUFFER && size == wcslen(name) + 1,
	   "small buffer: %d, error %lu, size %lu\n", ret, GetLastError(), size);

	ret = OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token);
	ok(ret, "OpenProcessToken: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ret = GetTokenInformation(token, TokenUser, NULL, 0, &need);
	ok(!ret && GetLastError() == ERROR_INSUFFICIENT_BUFFER && need > sizeof(TOKEN_USER),
	   "size query: %d, error %lu, need %lu\n", ret, GetLastError(), need);
	ret = GetTokenInformation(token, TokenUser, buf, sizeof(buf), &need);
	ok(ret && IsValidSid(tu->User.Sid), "TokenUser: %d\n", ret);
	ok(ConvertSidToStringSidW(tu->User.Sid, &str) && !wcsncmp(str, L"S-1-5-21-", 9),
	   "user SID %ls\n", str);
	LocalFree(str);
	CloseHandle(token);
}

int main(void)
{
	test_create_open();
	test_values();
	test_enum();
	test_delete();
	test_user();
	return test_summary();
}
