/* The path policy (core/path.h, core/drives.h) against a dosdevices
 * folder of the test's own: C: and D: are temporary folders, Z: the
 * Linux root, \\srv\pub a share, COM1 a device.  Drives, devices, UNC,
 * trimming, "." and "..", drive-relative names, the case-insensitive
 * lookup, Linux -> Windows, and the C runtime's crt_unix_path. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "k32_test.h"
#include "core/drives.h"
#include "core/path.h"
#include "msvcrt/msvcrt_private.h"

static char top[1024], cdir[1100], ddir[1100], share[1100], oldcwd[PATH_MAX];

static void mk(const char *fmt, const char *arg, bool dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), fmt, top, arg);
	if (dir)
		assert_int_equal(mkdir(p, 0700), 0);
	else
		fclose(fopen(p, "w"));
}

static void link_to(const char *target, const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/dos/%s", top, name);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	char *t;

	snprintf(top, sizeof(top), "/tmp/ndshim-path-XXXXXX");
	if (!mkdtemp(top) || !(t = realpath(top, NULL)))
		return -1;
	snprintf(top, sizeof(top), "%s", t);
	free(t);
	snprintf(cdir, sizeof(cdir), "%s/c", top);
	snprintf(ddir, sizeof(ddir), "%s/d", top);
	snprintf(share, sizeof(share), "%s/share", top);
	mk("%s/%s", "c", true);
	mk("%s/%s", "d", true);
	mk("%s/%s", "share", true);
	mk("%s/%s", "dos", true);
	mk("%s/%s", "dos/unc", true);
	mk("%s/%s", "dos/unc/srv", true);
	mk("%s/%s", "c/Folder", true);
	mk("%s/%s", "c/Folder/File.TXT", false);
	mk("%s/%s", "c/\xc3\x89lan", true); /* "Élan" */
	mk("%s/%s", "d/sub", true);
	link_to(cdir, "c:");
	link_to(ddir, "d:");
	link_to("/", "z:");
	link_to(share, "unc/srv/pub");
	link_to("/dev/null", "com1");
	link_to("/no/such/target", "e:"); /* a dangling link is no drive */
	{
		char dos[PATH_MAX];

		snprintf(dos, sizeof(dos), "%s/dos", top);
		setenv("NDSHIM_DOSDEVICES", dos, 1);
	}
	drives_reload();
	assert_non_null(getcwd(oldcwd, sizeof(oldcwd)));
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	if (chdir(oldcwd))
		return -1;
	unsetenv("NDSHIM_DOSDEVICES");
	drives_reload();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

/* path_to_unix(win) is want (NULL: fails with error err). */
static void expect(const WCHAR *win, const char *want, DWORD err_want)
{
	DWORD err = 0;
	char *got = path_to_unix(win, &err);

	if (!want) {
		if (got)
			fail_msg("%s mapped to %s", debugstr_w(win), got);
		if (err != err_want)
			fail_msg("%s: error %lu, want %lu", debugstr_w(win), (unsigned long)err,
				 (unsigned long)err_want);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%s: got %s, want %s", debugstr_w(win), got ? got : "(null)", want);
	free(got);
}

/* want is relative to top */
static void expect_in(const WCHAR *win, const char *rel)
{
	char want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/%s", top, rel);
	expect(win, want, 0);
}

static void expect_full(const WCHAR *win, const WCHAR *want)
{
	DWORD err = 0;
	WCHAR *got = path_full(win, &err);

	if (!got)
		fail_msg("%s: error %lu", debugstr_w(win), (unsigned long)err);
	if (wstr_cmp(got, want))
		fail_msg("%s: got %s, want %s", debugstr_w(win), debugstr_w(got), debugstr_w(want));
	free(got);
}

static void expect_from(const char *unix_path, const WCHAR *want)
{
	WCHAR *got = path_from_unix(unix_path);

	if (!got || wstr_cmp(got, want))
		fail_msg("%s: got %s, want %s", unix_path, got ? debugstr_w(got) : "(null)", debugstr_w(want));
	free(got);
}

static void test_drives(void **state)
{
	WCHAR buf[32];

	assert_string_equal(drive_root('c'), cdir);
	assert_string_equal(drive_root('D'), ddir);
	assert_string_equal(drive_root('Z'), "/");
	assert_null(drive_root('E'));
	assert_null(drive_root('Q'));
	assert_int_equal(GetLogicalDrives(), (1u << 2) | (1u << 3) | (1u << 25));
	assert_int_equal(GetLogicalDriveStringsW(32, buf), 12);
	assert_memory_equal(buf, u"C:\\\0D:\\\0Z:\\\0", 13 * sizeof(WCHAR));
	assert_int_equal(GetLogicalDriveStringsW(12, buf), 13); /* too small: the size needed */
	assert_int_equal(GetDriveTypeW(u"D:\\"), DRIVE_FIXED);
	assert_int_equal(GetDriveTypeW(u"d:"), DRIVE_FIXED);
	assert_int_equal(GetDriveTypeW(u"E:\\"), DRIVE_NO_ROOT_DIR);
	assert_int_equal(GetDriveTypeW(u"C:\\Folder\\"), DRIVE_NO_ROOT_DIR);
	assert_int_equal(GetDriveTypeW(u"\\\\srv\\pub\\"), DRIVE_REMOTE);
	assert_int_equal(GetDriveTypeW(u"\\\\nobody\\pub\\"), DRIVE_NO_ROOT_DIR);
}

static void test_to_unix(void **state)
{
	expect_in(u"C:\\Folder\\File.TXT", "c/Folder/File.TXT");
	expect_in(u"c:/", "c/");
	expect_in(u"C:\\", "c/");
	expect_in(u"d:/new.txt", "d/new.txt");
	expect(u"z:\\usr\\bin", "/usr/bin", 0);
	expect(u"Q:\\x", NULL, ERROR_PATH_NOT_FOUND);
	expect(u"E:\\x", NULL, ERROR_PATH_NOT_FOUND);
	/* verbatim: nothing trimmed */
	expect_in(u"\\\\?\\D:\\lit.txt.", "d/lit.txt.");
	expect_in(u"\\??\\D:\\sub", "d/sub");
	expect(u"\\\\?\\unix\\usr\\lib", "/usr/lib", 0);
	expect(u"\\\\?\\GLOBALROOT\\x", NULL, ERROR_PATH_NOT_FOUND);
	/* \\.\ with a drive is a plain path */
	expect_in(u"\\\\.\\D:\\sub\\..\\a", "d/a");
	/* UNC */
	expect_in(u"\\\\srv\\pub\\f.txt", "share/f.txt");
	expect_in(u"\\\\SRV\\Pub\\f.txt", "share/f.txt");
	expect_in(u"\\\\?\\UNC\\srv\\pub\\f.txt", "share/f.txt");
	expect(u"\\\\other\\x\\y", NULL, ERROR_BAD_NETPATH);
	expect(u"\\\\srv", NULL, ERROR_BAD_NETPATH);
	/* the drive's root is a floor for ".." */
	expect_in(u"C:\\a\\..\\..\\..\\Folder", "c/Folder");
	/* what Windows strips */
	expect_in(u"C:\\Folder\\a.txt. . ", "c/Folder/a.txt");
	expect_in(u"C:\\Folder.\\x", "c/Folder/x");
	expect_in(u"C:\\Folder\\..\\Folder\\.\\x", "c/Folder/x");
	expect(u"", NULL, ERROR_PATH_NOT_FOUND);
}

static void test_devices(void **state)
{
	size_t off, len;

	expect(u"NUL", "/dev/null", 0);
	expect(u"nul.txt", "/dev/null", 0);
	expect(u"C:\\Folder\\Nul.tar.gz", "/dev/null", 0);
	expect(u"nul  .x", "/dev/null", 0);
	expect(u"nul:", "/dev/null", 0);
	expect(u"\\\\.\\nul", "/dev/null", 0);
	expect(u"\\\\.\\NUL", "/dev/null", 0);
	expect(u"com1", "/dev/null", 0); /* dosdevices maps it */
	expect(u"COM1.log", "/dev/null", 0);
	expect(u"LPT3", NULL, ERROR_FILE_NOT_FOUND);
	expect(u"aux", NULL, ERROR_FILE_NOT_FOUND);
	expect(u"\\\\.\\COM2", NULL, ERROR_FILE_NOT_FOUND);
	expect(u"CONOUT$", "/dev/tty", 0);
	expect(u"conin$", "/dev/tty", 0);
	expect(u"\\\\.\\CONIN$", "/dev/tty", 0);
	expect(u"con", "/dev/tty", 0);
	/* not devices */
	expect(u"C:\\Folder\\conout$.txt", "/dev/tty", 0);
	expect_in(u"C:\\nula", "c/nula");
	expect_in(u"C:\\com0", "c/com0");
	expect_in(u"C:\\lpt10", "c/lpt10");
	expect_in(u"C:\\xnul.txt", "c/xnul.txt");
	expect(u"\\\\.\\nul.txt", NULL, ERROR_FILE_NOT_FOUND);
	assert_true(path_dos_device(u"C:\\a\\PRN.txt", &off, &len));
	assert_int_equal(off, 5);
	assert_int_equal(len, 3);
	assert_false(path_dos_device(u"\\\\srv\\pub\\nul", &off, &len));
	assert_false(path_dos_device(u"C:\\nul\\x", &off, &len));
}

static void test_case_lookup(void **state)
{
	expect_in(u"C:\\FOLDER\\file.txt", "c/Folder/File.TXT");
	expect_in(u"c:\\folder\\FILE.txt", "c/Folder/File.TXT");
	/* a new file in an existing folder keeps its own case */
	expect_in(u"C:\\folder\\New.Txt", "c/Folder/New.Txt");
	expect_in(u"C:\\folder\\nodir\\New.Txt", "c/Folder/nodir/New.Txt");
	/* beyond ASCII, as Windows folds: "élan" finds "Élan" */
	expect_in(u"C:\\\x00e9LAN", "c/\xc3\x89lan");
	expect_in(u"\\\\?\\C:\\FOLDER", "c/Folder");
	expect_in(u"\\\\SRV\\PUB", "share");
	/* a relative Linux path starts in the current directory */
	{
		char *u;

		assert_int_equal(chdir(cdir), 0);
		u = path_fold_case(strdup("FOLDER/file.txt"), 0);
		assert_string_equal(u, "Folder/File.TXT");
		free(u);
		assert_int_equal(chdir(oldcwd), 0);
	}
}

static void test_relative(void **state)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/Folder", cdir);
	assert_int_equal(chdir(dir), 0);
	expect_full(u"x.txt", u"C:\\Folder\\x.txt");
	expect_full(u"..\\..\\y", u"C:\\y");
	expect_full(u"\\y", u"C:\\y");
	expect_full(u"/y", u"C:\\y");
	expect_full(u"C:", u"C:\\Folder");
	expect_full(u"C:z", u"C:\\Folder\\z");
	expect_full(u"D:z", u"D:\\z"); /* another drive: its root */
	expect_full(u"nul", u"\\\\.\\nul");
	expect_full(u"C:\\x\\COM1.txt", u"\\\\.\\COM1");
	expect_full(u"\\\\srv\\pub\\..\\..\\x", u"\\\\srv\\pub\\x");
	expect_full(u"\\\\?\\C:\\a\\..\\b.", u"\\\\?\\C:\\a\\..\\b.");
	expect_in(u"file.txt", "c/Folder/File.TXT");
	expect_in(u"\\Folder", "c/Folder");
	expect_in(u"D:sub", "d/sub");
	/* cmd.exe's "=D:" variables hold each drive's current directory */
	assert_true(SetEnvironmentVariableW(u"=D:", u"D:\\sub"));
	expect_full(u"D:z", u"D:\\sub\\z");
	expect_in(u"d:z", "d/sub/z");
	assert_true(SetEnvironmentVariableW(u"=D:", NULL));
	/* the Windows view of the current directory */
	{
		WCHAR buf[MAX_PATH];

		assert_int_equal(GetCurrentDirectoryW(MAX_PATH, buf), 9);
		assert_wstr_equal(buf, u"C:\\Folder");
		assert_true(SetCurrentDirectoryW(u"d:\\SUB"));
		GetCurrentDirectoryW(MAX_PATH, buf);
		assert_wstr_equal(buf, u"D:\\sub");
		assert_true(SetCurrentDirectoryW(u"\\\\SRV\\pub"));
		GetCurrentDirectoryW(MAX_PATH, buf);
		/* a mapped share is a folder of Z: for Linux */
		assert_int_equal(buf[0], 'Z');
	}
	assert_int_equal(chdir(oldcwd), 0);
}

static void test_from_unix(void **state)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/Folder/File.TXT", cdir);
	expect_from(p, u"C:\\Folder\\File.TXT");
	expect_from(cdir, u"C:\\");
	snprintf(p, sizeof(p), "%s/", ddir);
	expect_from(p, u"D:\\");
	expect_from("/usr/bin", u"Z:\\usr\\bin");
	expect_from("/", u"Z:\\");
	expect_from("rel/x", u"rel\\x");
	/* through a link into C:'s folder */
	snprintf(p, sizeof(p), "%s/lnk", top);
	assert_int_equal(symlink(cdir, p), 0);
	snprintf(p, sizeof(p), "%s/lnk/Folder", top);
	expect_from(p, u"C:\\Folder");
	/* a folder next to C:'s whose name starts the same is not in C: */
	snprintf(p, sizeof(p), "%sx/y", cdir);
	assert_int_equal(drive_of_unix(p, &(const char *){ NULL }), 'Z');
}

static void test_no_root_drive(void **state)
{
	char dos[PATH_MAX];

	/* no Z: -> Linux paths outside the drives have the \\?\unix form */
	snprintf(dos, sizeof(dos), "%s/dos/z:", top);
	assert_int_equal(unlink(dos), 0);
	drives_reload();
	expect_from("/usr/bin", u"\\\\?\\unix\\usr\\bin");
	expect(u"\\\\?\\unix\\usr\\bin", "/usr/bin", 0);
	/* no drive at all: C: and Z: are the Linux root */
	setenv("NDSHIM_DOSDEVICES", "/no/such/dosdevices", 1);
	drives_reload();
	assert_int_equal(GetLogicalDrives(), (1u << 2) | (1u << 25));
	expect_from("/usr/bin", u"C:\\usr\\bin");
	expect(u"z:\\etc", "/etc", 0);
	assert_int_equal(symlink("/", dos), 0);
	snprintf(dos, sizeof(dos), "%s/dos", top);
	setenv("NDSHIM_DOSDEVICES", dos, 1);
	drives_reload();
}

static void test_crt_paths(void **state)
{
	char want[PATH_MAX], *u;

	u = crt_unix_path("D:\\x.txt");
	snprintf(want, sizeof(want), "%s/x.txt", ddir);
	assert_string_equal(u, want);
	free(u);
	u = crt_unix_path("c:/folder/FILE.TXT");
	snprintf(want, sizeof(want), "%s/Folder/File.TXT", cdir);
	assert_string_equal(u, want);
	free(u);
	u = crt_unix_path("NUL");
	assert_string_equal(u, "/dev/null");
	free(u);
	u = crt_unix_path("C:\\\xc3\xa9lan"); /* the CRT's narrow strings are UTF-8 */
	snprintf(want, sizeof(want), "%s/\xc3\x89lan", cdir);
	assert_string_equal(u, want);
	free(u);
	*crt__errno() = 0;
	assert_null(crt_unix_path("Q:\\x.txt"));
	assert_int_equal(*crt__errno(), ENOENT);
	assert_int_equal(*crt___doserrno(), ERROR_PATH_NOT_FOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drives),
		cmocka_unit_test(test_to_unix),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_case_lookup),
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_from_unix),
		cmocka_unit_test(test_no_root_drive),
		cmocka_unit_test(test_crt_paths),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
