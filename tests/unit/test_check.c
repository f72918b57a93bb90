/* ndrun --check: generated programs and DLLs in a temporary folder, each
 * lacking one kind of thing (a DLL, a builtin's function, a PE DLL's
 * ordinal, a forwarder's target, a delay-load import), checked with
 * check_main; its report (stdout) and exit status are compared. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "check.h"
#include "exit_codes.h"
#include "pe_builder.h"

static char dir[] = "/tmp/ndshim-check-XXXXXX";
static char report[16384];

static void write_image(const char *file, const struct pb_spec *spec, void (*patch)(struct pb_image *))
{
	struct pb_image img;
	char path[256];

	assert_int_equal(pb_build(spec, &img), 0);
	if (patch)
		patch(&img);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_int_equal(pb_write(img.data, img.size, path), 0);
	pb_free(&img);
}

static void write_dll(const char *file, const struct pb_export *exports, unsigned int n)
{
	struct pb_spec spec = { .dll = 1, .nr_exports = n, .export_name = file };

	memcpy(spec.exports, exports, n * sizeof(*exports));
	write_image(file, &spec, NULL);
}

/* An exe importing imports[0..n) after kernel32!ExitProcess. */
static void write_exe(const char *file, const struct pb_import *imports, unsigned int n,
		      void (*patch)(struct pb_image *))
{
	struct pb_spec spec = { .nr_imports = n };

	if (n)
		memcpy(spec.imports, imports, n * sizeof(*imports));
	write_image(file, &spec, patch);
}

/* check_main on dir/files..., its stdout in report[]. */
static int run_check(const char *f0, const char *f1)
{
	char p0[256], p1[256], out[256];
	char *files[] = { p0, p1 };
	int saved, fd, rc;
	ssize_t n;

	snprintf(p0, sizeof(p0), "%s/%s", dir, f0);
	snprintf(p1, sizeof(p1), "%s/%s", dir, f1 ? f1 : "");
	snprintf(out, sizeof(out), "%s/report.txt", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	close(fd);
	rc = check_main(f1 ? 2 : 1, files);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fd = open(out, O_RDONLY);
	n = read(fd, report, sizeof(report) - 1);
	close(fd);
	report[n > 0 ? n : 0] = 0;
	return rc;
}

/* The report's last line. */
static const char *last_line(void)
{
	size_t len = strlen(report);
	const char *p;

	while (len && report[len - 1] == '\n')
		report[--len] = 0;
	p = strrchr(report, '\n');
	return p ? p + 1 : report;
}

static void expect(const char *needle)
{
	if (!strstr(report, needle))
		fail_msg("report lacks \"%s\":\n%s", needle, report);
}

static const struct pb_export values[] = {
	{ "Other", NULL, 7 }, /* ordinal 1 */
	{ "Value", NULL, 43 }, /* ordinal 2 */
};

static int setup(void **state)
{
	static const struct pb_export fwd[] = {
		{ "FwdGood", "KERNEL32.GetLastError", 0 },
		{ "FwdNoDll", "ck-absent.Thing", 0 },
		{ "FwdNoFunc", "KERNEL32.CkNotInKernel32", 0 },
		{ "FwdOrdinal", "ck-values.#2", 0 },
	};
	char path[256];

	if (!mkdtemp(dir))
		return -1;
	write_dll("ck-values.dll", values, 2);
	write_dll("ck-fwd.dll", fwd, 4);
	snprintf(path, sizeof(path), "%s/elsewhere", dir);
	mkdir(path, 0755);
	write_dll("elsewhere/ck-onpath.dll", values, 2);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_nothing_missing(void **state)
{
	static const struct pb_import imp[] = {
		{ "KERNEL32.dll", "GetLastError", 0 },
		{ "ck-values.dll", "Value", 0 },
		{ "ck-values.dll", NULL, 1 },
		{ "ck-fwd.dll", "FwdGood", 0 },
		{ "CK-FWD.DLL", "FwdOrdinal", 0 },
	};

	write_exe("clean.exe", imp, 5, NULL);
	assert_int_equal(run_check("clean.exe", NULL), 0);
	assert_string_equal(last_line(), "0 missing");
	expect("kernel32.dll");
	expect("builtin");
	expect("/ck-values.dll");
}

/* A builtin's missing function binds to a trap: the program loads. */
static void test_builtin_function_missing(void **state)
{
	static const struct pb_import imp[] = {
		{ "KERNEL32.dll", "CkNoSuchFunction", 0 },
		{ "kernel32", "CkAnotherOne", 0 },
		{ "kernel32.dll", "GetLastError", 0 },
		{ "KERNEL32.dll", NULL, 4242 },
	};

	write_exe("trap.exe", imp, 4, NULL);
	assert_int_equal(run_check("trap.exe", NULL), NDRUN_EXIT_CHECK_MISSING);
	expect("kernel32.dll (builtin, calls trap, imported by trap.exe): 3 missing\n"
	       "  #4242\n  CkAnotherOne\n  CkNoSuchFunction\n");
	assert_string_equal(last_line(), "3 missing");
}

static void test_dll_missing(void **state)
{
	static const struct pb_import imp[] = {
		{ "ck-absent.dll", "One", 0 },
		{ "ck-absent.dll", NULL, 3 },
	};

	write_exe("nodll.exe", imp, 2, NULL);
	assert_int_equal(run_check("nodll.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	expect("ck-absent.dll (DLL not found, imported by nodll.exe): 2 missing\n  #3\n  One\n");
	/* The verdict comes last, in the loader's words. */
	expect("\n2 missing\n");
	assert_string_equal(last_line(), "will not load: ck-absent.dll not found (imported by nodll.exe)");
}

/* A PE DLL without the ordinal: Windows refuses the load. */
static void test_pe_ordinal_missing(void **state)
{
	static const struct pb_import imp[] = {
		{ "ck-values.dll", NULL, 2 },
		{ "ck-values.dll", NULL, 9 },
	};

	write_exe("noord.exe", imp, 2, NULL);
	assert_int_equal(run_check("noord.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	expect("ck-values.dll (PE DLL, load fails, imported by noord.exe): 1 missing\n  #9\n");
	expect("\n1 missing\n");
	assert_string_equal(last_line(), "will not load: ck-values.dll has no export with ordinal 9 (imported by noord.exe)");
}

/* Forwarders are followed to the end of the chain, which is what the
 * report names; a DLL given on the command line has all of its
 * forwarders checked, imported or not. */
static void test_forwarders(void **state)
{
	static const struct pb_import imp[] = {
		{ "ck-fwd.dll", "FwdNoFunc", 0 },
	};

	write_exe("fwd.exe", imp, 1, NULL);
	assert_int_equal(run_check("fwd.exe", NULL), NDRUN_EXIT_CHECK_MISSING);
	expect("kernel32.dll (builtin, calls trap, imported by fwd.exe): 1 missing\n"
	       "  CkNotInKernel32 (forwarded from ck-fwd.dll)\n");
	assert_string_equal(last_line(), "1 missing");

	/* Not imported by anyone: nothing fails to load because of it. */
	assert_int_equal(run_check("fwd.exe", "ck-fwd.dll"), NDRUN_EXIT_CHECK_MISSING);
	expect("ck-absent.dll (DLL not found, imported by ck-fwd.dll): 1 missing\n"
	       "  Thing (forwarded from ck-fwd.dll)\n");
	assert_string_equal(last_line(), "2 missing");
}

/* Delay-load descriptors in the builder's scratch space: one for a DLL
 * that does not exist, one for a function kernel32 lacks. */
#define DL_DESC PB_SCRATCH_RVA
#define DL_NAMES (PB_SCRATCH_RVA + 0x60)
#define DL_INT (PB_SCRATCH_RVA + 0xa0)
#define DL_HINTS (PB_SCRATCH_RVA + 0xc0)

static void add_delay_imports(struct pb_image *img)
{
	IMAGE_DELAYLOAD_DESCRIPTOR *d = pb_at(img, DL_DESC);
	uint64_t *names = pb_at(img, DL_INT);

	strcpy(pb_at(img, DL_NAMES), "ck-delayed.dll");
	strcpy(pb_at(img, DL_NAMES + 0x20), "KERNEL32.dll");
	strcpy(pb_at(img, DL_HINTS + 2), "DelayedThing");
	strcpy(pb_at(img, DL_HINTS + 0x22), "CkDelayedMissing");
	names[0] = DL_HINTS;
	names[1] = 0;
	names[2] = DL_HINTS + 0x20;
	names[3] = 0;
	for (int i = 0; i < 2; i++) {
		d[i].Attributes.AllAttributes = 1;
		d[i].DllNameRVA = DL_NAMES + 0x20 * i;
		d[i].ModuleHandleRVA = PB_DATA_RVA + 0xf00 + 8 * i;
		d[i].ImportAddressTableRVA = PB_DATA_RVA + 0xf10 + 0x10 * i;
		d[i].ImportNameTableRVA = DL_INT + 0x10 * i;
	}
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT)->VirtualAddress = DL_DESC;
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT)->Size = 3 * sizeof(*d);
}

static void test_delay_imports(void **state)
{
	write_exe("delay.exe", NULL, 0, add_delay_imports);
	assert_int_equal(run_check("delay.exe", NULL), NDRUN_EXIT_CHECK_MISSING);
	expect("delay-load imports (resolved at the first call):\n"
	       "  ck-delayed.dll (DLL not found, imported by delay.exe): 1 missing\n    DelayedThing\n"
	       "  kernel32.dll (builtin, calls trap, imported by delay.exe): 1 missing\n    CkDelayedMissing\n");
	assert_string_equal(last_line(), "2 missing (2 of them delay-loaded)");
}

/* NDSHIM_DLL_PATH is searched after the program's folder, as in loading. */
static void test_dll_path(void **state)
{
	static const struct pb_import imp[] = {
		{ "CK-ONPATH.dll", "Value", 0 },
	};
	char path[256];

	write_exe("onpath.exe", imp, 1, NULL);
	unsetenv("NDSHIM_DLL_PATH");
	assert_int_equal(run_check("onpath.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	expect("CK-ONPATH.dll (DLL not found");
	snprintf(path, sizeof(path), "/nonexistent:%s/elsewhere", dir);
	setenv("NDSHIM_DLL_PATH", path, 1);
	assert_int_equal(run_check("onpath.exe", NULL), 0);
	expect("/elsewhere/ck-onpath.dll");
	unsetenv("NDSHIM_DLL_PATH");
}

/* API-set names resolve to their host builtin, as in loading. */
static void test_api_sets(void **state)
{
	static const struct pb_import imp[] = {
		{ "api-ms-win-core-synch-l1-2-0.dll", "WakeByAddressAll", 0 },
		{ "API-MS-WIN-CORE-SYNCH-L1-2-1.DLL", "CkNotInKernel32", 0 },
		{ "api-ms-win-ck-nosuch-l1-1-0.dll", "Anything", 0 },
	};

	write_exe("apiset.exe", imp, 3, NULL);
	assert_int_equal(run_check("apiset.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	expect("api-ms-win-core-synch-l1-2-0.dll builtin kernel32.dll (API set)\n");
	expect("api-ms-win-ck-nosuch-l1-1-0.dll (DLL not found, imported by apiset.exe): 1 missing\n  Anything\n");
	expect("kernel32.dll (builtin, calls trap, imported by apiset.exe): 1 missing\n  CkNotInKernel32\n");
	expect("\n2 missing\n");
	assert_string_equal(last_line(), "will not load: api-ms-win-ck-nosuch-l1-1-0.dll not found: ndrun implements no "
					 "API set of that name (imported by apiset.exe)");
}

/* Windows' own DLLs load whether ndrun implements them or not: one it has
 * no builtin for is a stand-in whose every import traps; a DLL that is not
 * Windows' own still must be found. */
static void test_system_dlls(void **state)
{
	static const struct pb_import imp[] = {
		{ "AVICAP32.dll", "capCreateCaptureWindowW", 0 },
		{ "avicap32.dll", NULL, 7 },
		{ "kernelbase.dll", "CloseHandle", 0 },
	};
	static const struct pb_import priv[] = {
		{ "avicap33.dll", "capCreateCaptureWindowW", 0 },
	};

	write_exe("sysdll.exe", imp, 3, NULL);
	assert_int_equal(run_check("sysdll.exe", NULL), NDRUN_EXIT_CHECK_MISSING);
	expect("avicap32.dll                     system DLL ndrun lacks (stand-in without exports)\n");
	expect("kernelbase.dll                   builtin\n");
	expect("avicap32.dll (system DLL ndrun lacks, calls trap, imported by sysdll.exe): 2 missing\n"
	       "  #7\n  capCreateCaptureWindowW\n");
	assert_string_equal(last_line(), "2 missing");

	write_exe("private.exe", priv, 1, NULL);
	assert_int_equal(run_check("private.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	assert_string_equal(last_line(), "will not load: avicap33.dll not found (imported by private.exe)");
}

static void test_bad_file(void **state)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/notpe.exe", dir);
	assert_int_equal(pb_write("hello", 5, path), 0);
	assert_int_equal(run_check("notpe.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	assert_non_null(strstr(last_line(), "will not load: "));
	assert_non_null(strstr(last_line(), "notpe.exe: not a PE file (no MZ header)"));
	assert_int_equal(run_check("does-not-exist.exe", NULL), NDRUN_EXIT_BAD_IMAGE);
	assert_non_null(strstr(last_line(), "does-not-exist.exe: No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_missing),
		cmocka_unit_test(test_builtin_function_missing),
		cmocka_unit_test(test_dll_missing),
		cmocka_unit_test(test_system_dlls),
		cmocka_unit_test(test_pe_ordinal_missing),
		cmocka_unit_test(test_forwarders),
		cmocka_unit_test(test_delay_imports),
		cmocka_unit_test(test_dll_path),
		cmocka_unit_test(test_api_sets),
		cmocka_unit_test(test_bad_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
