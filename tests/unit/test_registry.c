/* The registry's file store: what a program writes under HKCU and HKLM
 * is in the hive files afterwards, in the documented format, and comes
 * back in a later "run" (the store forgotten and reread); a change made
 * by another process shows; a malformed file is an error, not an empty
 * registry; NDSHIM_REGISTRY and XDG_DATA_HOME choose the folder. */
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "k32_test.h"
#include <winreg.h>
#include "advapi32/regstore.h"

static char folder[] = "/tmp/ndshim-registry-XXXXXX";

static char *read_file(const char *name)
{
	static char buf[4096];
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", folder, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static int setup(void **state)
{
	if (!mkdtemp(folder))
		return -1;
	setenv("NDSHIM_REGISTRY", folder, 1);
	regstore_forget();
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	regstore_forget();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", folder);
	return system(cmd);
}

static void test_persist(void **state)
{
	HKEY k;
	DWORD dw = 42, type, size;
	WCHAR buf[32];
	struct stat st;
	char path[256];

	assert_int_equal(RegCreateKeyExW(HKEY_CURRENT_USER, u"Software\\Vendor\\App", 0, NULL, 0, KEY_ALL_ACCESS,
					 NULL, &k, NULL), ERROR_SUCCESS);
	assert_int_equal(RegSetValueExW(k, u"Count", 0, REG_DWORD, (BYTE *)&dw, 4), ERROR_SUCCESS);
	assert_int_equal(RegSetValueExW(k, NULL, 0, REG_SZ, (const BYTE *)u"hi", 6), ERROR_SUCCESS);
	assert_int_equal(RegSetValueExW(k, u"we\"ird\\na%me", 0, REG_BINARY, (const BYTE *)"\x01\xff", 2),
			 ERROR_SUCCESS);
	assert_int_equal(RegCloseKey(k), ERROR_SUCCESS);
	assert_int_equal(RegCreateKeyExW(HKEY_LOCAL_MACHINE, u"Software\\Machine]Wide", 0, NULL, 0,
					 KEY_ALL_ACCESS, NULL, &k, NULL), ERROR_SUCCESS);
	assert_int_equal(RegCloseKey(k), ERROR_SUCCESS);
	/* Volatile keys stay in the process. */
	assert_int_equal(RegCreateKeyExW(HKEY_CURRENT_USER, u"Volatile", 0, NULL, REG_OPTION_VOLATILE,
					 KEY_ALL_ACCESS, NULL, &k, NULL), ERROR_SUCCESS);
	assert_int_equal(RegCloseKey(k), ERROR_SUCCESS);

	assert_string_equal(read_file("user.reg"), "ndshim registry 1\n"
						   "[Software]\n"
						   "[Software\\Vendor]\n"
						   "[Software\\Vendor\\App]\n"
						   "\"Count\"=4:2a000000\n"
						   "@=1:680069000000\n"
						   "\"we%22ird%5Cna%25me\"=3:01ff\n");
	assert_string_equal(read_file("machine.reg"), "ndshim registry 1\n"
						      "[Software]\n"
						      "[Software\\Machine%5DWide]\n");
	snprintf(path, sizeof(path), "%s/user.reg", folder);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* The next run reads it all back. */
	regstore_forget();
	size = sizeof(dw);
	dw = 0;
	assert_int_equal(RegGetValueW(HKEY_CURRENT_USER, u"Software\\Vendor\\App", u"Count", RRF_RT_REG_DWORD,
				      &type, &dw, &size), ERROR_SUCCESS);
	assert_int_equal(dw, 42);
	size = sizeof(buf);
	assert_int_equal(RegGetValueW(HKEY_CURRENT_USER, u"Software\\Vendor\\App", NULL, RRF_RT_REG_SZ, &type,
				      buf, &size), ERROR_SUCCESS);
	assert_wstr_equal(buf, u"hi");
	size = sizeof(buf);
	assert_int_equal(RegGetValueW(HKEY_CURRENT_USER, u"Software\\Vendor\\App", u"WE\"IRD\\NA%ME", RRF_RT_ANY,
				      &type, buf, &size), ERROR_SUCCESS);
	assert_int_equal(type, REG_BINARY);
	assert_int_equal(size, 2);
	assert_int_equal(RegOpenKeyExW(HKEY_LOCAL_MACHINE, u"Software\\machine]wide", 0, KEY_READ, &k),
			 ERROR_SUCCESS);
	RegCloseKey(k);
	assert_int_equal(RegOpenKeyExW(HKEY_CURRENT_USER, u"Volatile", 0, KEY_READ, &k), ERROR_FILE_NOT_FOUND);
}

static void test_other_process(void **state)
{
	char path[256];
	DWORD dw = 0, size = 4;
	FILE *f;

	snprintf(path, sizeof(path), "%s/user.reg", folder);
	/* Another process (here: this test) rewrites the file. */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ndshim registry 1\n# written by hand\n\n[Other]\n\"N\"=4:07000000\n", f);
	fclose(f);
	assert_int_equal(RegGetValueW(HKEY_CURRENT_USER, u"Other", u"N", RRF_RT_REG_DWORD, NULL, &dw, &size),
			 ERROR_SUCCESS);
	assert_int_equal(dw, 7);

	/* A malformed file is an error. */
	f = fopen(path, "w");
	fputs("ndshim registry 1\n[Other]\n\"N\"=4:0700000\n", f);
	fclose(f);
	size = 4;
	assert_int_equal(RegGetValueW(HKEY_CURRENT_USER, u"Other", u"N", RRF_RT_REG_DWORD, NULL, &dw, &size),
			 ERROR_REGISTRY_CORRUPT);
	unlink(path);
}

static void test_folder(void **state)
{
	char *f;

	setenv("NDSHIM_REGISTRY", "/some/where", 1);
	f = registry_folder();
	assert_string_equal(f, "/some/where");
	free(f);
	unsetenv("NDSHIM_REGISTRY");
	setenv("XDG_DATA_HOME", "/xdg", 1);
	f = registry_folder();
	assert_string_equal(f, "/xdg/ndshim/registry");
	free(f);
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/me", 1);
	f = registry_folder();
	assert_string_equal(f, "/home/me/.local/share/ndshim/registry");
	free(f);
	/* HOME unset: the user's home from the password database, never a
	 * folder under /tmp that other users share. */
	{
		struct passwd *pw = getpwuid(getuid());
		char want[PATH_MAX + 64];

		unsetenv("HOME");
		f = registry_folder();
		if (pw && pw->pw_dir && pw->pw_dir[0] == '/') {
			snprintf(want, sizeof(want), "%s/.local/share/ndshim/registry", pw->pw_dir);
			assert_string_equal(f, want);
		} else {
			assert_null(f);
		}
		free(f);
		setenv("HOME", "/home/me", 1);
	}
	setenv("NDSHIM_REGISTRY", folder, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_persist),
		cmocka_unit_test(test_other_process),
		cmocka_unit_test(test_folder),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
