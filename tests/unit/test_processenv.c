/* The environment (size protocol, case-insensitive names, expansion),
 * the current directory, full and temporary paths (Z: is the Linux root;
 * the path policy itself is test_path's). */
#include <unistd.h>

#include <stdio.h>
#include <sys/stat.h>

#include "k32_test.h"
#include "core/codepage.h"
#include "core/path.h"
#include "kernel32/kernel32_private.h"

static void test_env_size_protocol(void **state)
{
	WCHAR buf[16];
	char a[16];

	assert_true(SetEnvironmentVariableW(u"K32_TEST_VAR", u"hello"));
	assert_int_equal(GetEnvironmentVariableW(u"K32_TEST_VAR", NULL, 0), 6);
	assert_int_equal(GetEnvironmentVariableW(u"K32_TEST_VAR", buf, 5), 6);  /* too small: size incl. NUL */
	assert_int_equal(GetEnvironmentVariableW(u"K32_TEST_VAR", buf, 6), 5);  /* fits: length */
	assert_wstr_equal(buf, u"hello");
	assert_int_equal(GetEnvironmentVariableA("K32_TEST_VAR", a, 5), 6);
	assert_int_equal(GetEnvironmentVariableA("K32_TEST_VAR", a, 6), 5);
	assert_string_equal(a, "hello");
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetEnvironmentVariableW(u"K32_NO_SUCH_VAR", buf, 16), 0);
	assert_last_error(ERROR_ENVVAR_NOT_FOUND);
	assert_true(SetEnvironmentVariableW(u"K32_TEST_VAR", u""));
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetEnvironmentVariableW(u"K32_TEST_VAR", buf, 16), 0);
	assert_last_error(ERROR_SUCCESS); /* set, but empty */
}

static void test_env_case_insensitive(void **state)
{
	WCHAR buf[16];

	assert_true(SetEnvironmentVariableA("K32_Mixed", "1"));
	assert_int_equal(GetEnvironmentVariableW(u"k32_mixed", buf, 16), 1);
	assert_true(SetEnvironmentVariableW(u"K32_MIXED", u"22"));
	assert_int_equal(GetEnvironmentVariableW(u"K32_mixed", buf, 16), 2);
	assert_wstr_equal(buf, u"22");
	assert_true(SetEnvironmentVariableW(u"k32_MIXED", NULL));
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetEnvironmentVariableW(u"K32_Mixed", buf, 16), 0);
	assert_last_error(ERROR_ENVVAR_NOT_FOUND);
	SetLastError(SENTINEL_ERROR);
	assert_false(SetEnvironmentVariableW(u"A=B", u"x"));
	assert_last_error(ERROR_INVALID_PARAMETER);
}

static void test_env_from_linux(void **state)
{
	WCHAR buf[256];
	DWORD n;

	/* HOME comes from the Linux environment (set by every shell and CI) */
	n = GetEnvironmentVariableW(u"home", buf, 256);
	if (!getenv("HOME"))
		skip();
	assert_int_equal(n, strlen(getenv("HOME")));
}

static void test_windows_env(void **state)
{
	WCHAR buf[512];
	char *u, want[1024];
	DWORD err;
	struct stat st;

	/* tests/unit/run gives the tests a fresh data folder: C: is its drive_c */
	assert_int_equal(GetEnvironmentVariableW(u"systemroot", buf, 512), 10);
	assert_wstr_equal(buf, u"C:\\windows");
	assert_true(GetEnvironmentVariableW(u"TEMP", buf, 512) > 0);
	u = path_to_unix(buf, &err);
	assert_non_null(u);
	assert_int_equal(stat(u, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	if (getenv("NDSHIM_DATA")) {
		snprintf(want, sizeof(want), "%s/drive_c/", getenv("NDSHIM_DATA"));
		assert_memory_equal(u, want, strlen(want));
	}
	free(u);
	assert_true(GetEnvironmentVariableW(u"NDSHIM_WINENV", buf, 512) > 0);
	/* a Linux PATH entry, as a Z: folder */
	if (getenv("PATH") && strstr(getenv("PATH"), "/usr/bin")) {
		assert_true(GetEnvironmentVariableW(u"PATH", buf, 512) > 0);
		u = utf16_to_utf8_dup(buf);
		assert_non_null(strstr(u, ";Z:\\usr\\bin"));
		assert_null(strchr(u, '/'));
		free(u);
		assert_true(GetEnvironmentVariableW(u"NDSHIM_UNIX_PATH", buf, 512) > 0);
	}
}

static void test_linux_child_env(void **state)
{
	char *envp[] = {
		strdup("PATH=C:\\windows;Z:\\bin"), strdup("NDSHIM_UNIX_PATH=/bin:/usr/bin"),
		strdup("Temp=C:\\users\\u\\Temp"), strdup("NDSHIM_UNIX_TEMP=/var/tmp"),
		strdup("APPDATA=C:\\x"), strdup("NDSHIM_WINENV=1"), strdup("NDSHIM_UNIX_TZ=Europe/Paris"), NULL,
	};

	winenv_for_linux(envp);
	assert_string_equal(envp[0], "PATH=/bin:/usr/bin");
	assert_string_equal(envp[1], "TEMP=/var/tmp"); /* the Linux name's case */
	assert_string_equal(envp[2], "APPDATA=C:\\x");
	assert_string_equal(envp[3], "TZ=Europe/Paris"); /* not in the block: given back */
	assert_null(envp[4]);
	for (int i = 0; envp[i]; i++)
		free(envp[i]);
}

static void test_env_block(void **state)
{
	WCHAR *block, *p;
	char *ablock, *q;
	int found = 0;

	assert_true(SetEnvironmentVariableW(u"K32_BLOCK", u"v\x20ac"));
	block = GetEnvironmentStringsW();
	assert_non_null(block);
	for (p = block; *p; p += wstr_len(p) + 1)
		if (!wstr_cmp(p, u"K32_BLOCK=v\x20ac"))
			found = 1;
	assert_true(found);
	assert_true(FreeEnvironmentStringsW(block));
	ablock = GetEnvironmentStringsA();
	found = 0;
	for (q = ablock; *q; q += strlen(q) + 1)
		if (!strcmp(q, GetACP() == CP_UTF8 ? "K32_BLOCK=v\xe2\x82\xac" : "K32_BLOCK=v\x80"))
			found = 1;
	assert_true(found);
	assert_true(FreeEnvironmentStringsA(ablock));
	SetEnvironmentVariableW(u"K32_BLOCK", NULL);
}

static void test_expand(void **state)
{
	WCHAR buf[64];
	char a[64];

	SetEnvironmentVariableW(u"K32_X", u"abc");
	assert_int_equal(ExpandEnvironmentStringsW(u"[%k32_x%]", buf, 64), 6);
	assert_wstr_equal(buf, u"[abc]");
	assert_int_equal(ExpandEnvironmentStringsW(u"%K32_UNSET_X%/%K32_X%", buf, 64), 18);
	assert_wstr_equal(buf, u"%K32_UNSET_X%/abc");
	assert_int_equal(ExpandEnvironmentStringsW(u"50%", buf, 64), 4);
	assert_wstr_equal(buf, u"50%");
	assert_int_equal(ExpandEnvironmentStringsW(u"%K32_X%", buf, 2), 4); /* size needed */
	assert_int_equal(ExpandEnvironmentStringsW(u"%K32_X%", NULL, 0), 4);
	assert_int_equal(ExpandEnvironmentStringsA("<%K32_X%>", a, 64), 6);
	assert_string_equal(a, "<abc>");
	SetEnvironmentVariableW(u"K32_X", NULL);
}

static void test_current_directory(void **state)
{
	WCHAR buf[MAX_PATH], full[MAX_PATH], *part;
	char cwd[MAX_PATH], a[MAX_PATH];
	DWORD n;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_true(SetCurrentDirectoryW(u"Z:\\tmp"));
	n = GetCurrentDirectoryW(MAX_PATH, buf);
	assert_int_equal(n, 6);
	assert_wstr_equal(buf, u"Z:\\tmp");
	assert_int_equal(GetCurrentDirectoryW(3, buf), 7);
	assert_int_equal(GetCurrentDirectoryA(MAX_PATH, a), 6);
	assert_string_equal(a, "Z:\\tmp");

	n = GetFullPathNameW(u"sub\\..\\x/y.txt", MAX_PATH, full, &part);
	assert_wstr_equal(full, u"Z:\\tmp\\x\\y.txt");
	assert_int_equal(n, wstr_len(full));
	assert_wstr_equal(part, u"y.txt");
	GetFullPathNameW(u"\\etc\\.\\hosts", MAX_PATH, full, NULL);
	assert_wstr_equal(full, u"Z:\\etc\\hosts");
	GetFullPathNameW(u"C:\\a\\..\\..\\b\\", MAX_PATH, full, &part);
	assert_wstr_equal(full, u"C:\\b\\");
	assert_null(part);
	GetFullPathNameW(u"/usr", MAX_PATH, full, NULL);
	assert_wstr_equal(full, u"Z:\\usr");
	assert_int_equal(GetFullPathNameW(u"abc", 3, full, NULL), 11); /* Z:\tmp\abc + NUL */

	SetLastError(SENTINEL_ERROR);
	assert_false(SetCurrentDirectoryW(u"Z:\\no\\such\\dir\\k32"));
	assert_last_error(ERROR_FILE_NOT_FOUND);
	assert_false(SetCurrentDirectoryW(u"Z:\\etc\\hostname\\x"));
	assert_int_equal(chdir(cwd), 0);
}

static void test_temp_path(void **state)
{
	WCHAR buf[MAX_PATH], old[MAX_PATH];
	DWORD had = GetEnvironmentVariableW(u"TMP", old, MAX_PATH), n;

	SetEnvironmentVariableW(u"TMP", u"/var/tmp");
	n = GetTempPathW(MAX_PATH, buf);
	assert_int_equal(n, 11);
	assert_wstr_equal(buf, u"Z:\\var\\tmp\\");
	assert_int_equal(GetTempPathW(4, buf), 12);
	SetEnvironmentVariableW(u"TMP", had ? old : NULL);
}

static void test_std_handles(void **state)
{
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);

	assert_non_null(out);
	assert_ptr_not_equal(out, INVALID_HANDLE_VALUE);
	assert_ptr_equal(GetStdHandle(STD_OUTPUT_HANDLE), out);
	SetLastError(SENTINEL_ERROR);
	assert_ptr_equal(GetStdHandle(7), INVALID_HANDLE_VALUE);
	assert_last_error(ERROR_INVALID_HANDLE);
	assert_true(SetStdHandle(STD_ERROR_HANDLE, out));
	assert_ptr_equal(GetStdHandle(STD_ERROR_HANDLE), out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_size_protocol),
		cmocka_unit_test(test_env_case_insensitive),
		cmocka_unit_test(test_env_from_linux),
		cmocka_unit_test(test_windows_env),
		cmocka_unit_test(test_linux_child_env),
		cmocka_unit_test(test_env_block),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_current_directory),
		cmocka_unit_test(test_temp_path),
		cmocka_unit_test(test_std_handles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
