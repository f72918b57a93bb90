/* The import resolver: PE DLLs generated into a temporary folder, loaded
 * with module_load / module_load_exe, looked up by name and ordinal,
 * through forwarders (chains, loops, into builtins), builtin DLLs, trap
 * thunks, case-insensitive file names and NDSHIM_DLL_PATH. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "loader.h"
#include "module.h"
#include "pe_builder.h"
#include "process.h"

static char dir[] = "/tmp/ndshim-imports-XXXXXX";
static struct module *exe;
static struct pb_image exe_img; /* the layout of the exe's IAT */

typedef int(WINAPI *value_fn)(void);

static void write_dll(const char *file, uint64_t base, const struct pb_export *exports, unsigned int n)
{
	struct pb_spec spec = { .dll = 1, .image_base = base, .nr_exports = n };
	struct pb_image img;
	char path[256];

	memcpy(spec.exports, exports, n * sizeof(*exports));
	spec.export_name = file;
	assert_int_equal(pb_build(&spec, &img), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_int_equal(pb_write(img.data, img.size, path), 0);
	pb_free(&img);
}

static const struct pb_export values[] = {
	{ "Other", NULL, 7 }, /* ordinal 1 */
	{ "Value", NULL, 43 }, /* ordinal 2 */
};

/* The files, and the exe loaded the way ndrun loads it (not started). */
static int setup(void **state)
{
	static const struct pb_export fwd_a[] = {
		{ "ByOrdinal", "imp-values.#1", 0 },
		{ "Chain", "imp-fwd-b.Chain", 0 },
		{ "Direct", "imp-values.Value", 0 },
		{ "GetLastErr", "KERNEL32.GetLastError", 0 },
		{ "Loop", "imp-fwd-b.Loop", 0 },
		{ "Missing", "imp-values.NotThere", 0 },
	};
	static const struct pb_export fwd_b[] = {
		{ "Chain", "IMP-VALUES.Value", 0 },
		{ "Loop", "imp-fwd-a.Loop", 0 },
	};
	struct pb_spec spec = { .call_import = 2, .nr_imports = 4 };
	struct load_error err = { "", 0 };
	char path[256];
	char *argv[] = { "test.exe", NULL };

	if (!mkdtemp(dir))
		return -1;
	assert_int_equal(process_init("test.exe", 1, argv), 0);
	assert_non_null(loader_thread_init(NULL, NULL));

	/* Same base as the exe: must be relocated to work. */
	write_dll("imp-values.dll", PB_EXE_BASE, values, 2);
	write_dll("imp-fwd-a.dll", 0, fwd_a, 6);
	write_dll("imp-fwd-b.dll", 0x190000000ull, fwd_b, 2);
	write_dll("Mixed-Case.DLL", 0, values, 2);
	snprintf(path, sizeof(path), "%s/elsewhere", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	write_dll("elsewhere/imp-onpath.dll", 0, values, 2);
	/* a file with an API set's name: Windows never loads it for the set */
	write_dll("api-ms-win-core-file-l1-1-0.dll", 0, values, 2);

	spec.imports[0] = (struct pb_import){ "KERNEL32.dll", "GetLastError", 0 };
	spec.imports[1] = (struct pb_import){ "imp-values.dll", "Value", 0 };
	spec.imports[2] = (struct pb_import){ "imp-values.dll", NULL, 1 };
	spec.imports[3] = (struct pb_import){ "kernel32.dll", "NoSuchFunctionAnywhere", 0 };
	assert_int_equal(pb_build(&spec, &exe_img), 0);
	snprintf(path, sizeof(path), "%s/test.exe", dir);
	assert_int_equal(pb_write(exe_img.data, exe_img.size, path), 0);

	loader_lock();
	exe = module_load_exe(path, &err);
	loader_unlock();
	if (!exe)
		fail_msg("loading the exe: %s", err.msg);
	return 0;
}

static void remove_tree(void)
{
	static const char *const files[] = { "imp-values.dll", "imp-fwd-a.dll", "imp-fwd-b.dll", "Mixed-Case.DLL",
					     "elsewhere/imp-onpath.dll", "elsewhere", "test.exe",
					     "api-ms-win-core-file-l1-1-0.dll" };
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		remove(path);
	}
	rmdir(dir);
}

static int teardown(void **state)
{
	loader_lock();
	if (exe)
		module_release(exe);
	loader_unlock();
	pb_free(&exe_img);
	remove_tree();
	loader_thread_exit();
	return 0;
}

static struct module *load(const char *name)
{
	struct load_error err = { "", 0 };
	struct module *m;

	loader_lock();
	m = module_load(name, "test.exe", &err);
	loader_unlock();
	if (!m)
		fail_msg("%s: %s", name, err.msg);
	return m;
}

static void release(struct module *m)
{
	loader_lock();
	module_release(m);
	loader_unlock();
}

static void *find(struct module *m, const char *name, unsigned int ordinal)
{
	struct load_error err = { "", 0 };
	void *p;

	loader_lock();
	p = module_find_export(m, name, ordinal, &err);
	loader_unlock();
	return p;
}

static uint64_t iat(unsigned int group, unsigned int i)
{
	uint64_t v;

	memcpy(&v, exe->base + exe_img.iat_rva[group] + 8 * i, 8);
	return v;
}

static void test_exe_imports_bound(void **state)
{
	const struct builtin_dll *k32 = builtin_find("kernel32.dll");
	struct module *values_dll = module_find_by_name("imp-values.dll");
	void *thunk;

	assert_non_null(values_dll);
	assert_ptr_not_equal(values_dll->base, (void *)PB_EXE_BASE);
	/* kernel32: ExitProcess, GetLastError, the missing function */
	assert_int_equal(iat(0, 0), (uintptr_t)builtin_lookup_name(k32, "ExitProcess"));
	assert_int_equal(iat(0, 1), (uintptr_t)builtin_lookup_name(k32, "GetLastError"));
	assert_int_equal(iat(0, 3), 0);
	/* The missing function got a trap thunk outside every module (not called). */
	thunk = (void *)(uintptr_t)iat(0, 2);
	assert_non_null(thunk);
	assert_null(module_from_address(thunk));
	for (unsigned int i = 0; i < k32->count; i++)
		assert_ptr_not_equal(thunk, k32->exports[i].addr);
	/* imp-values.dll: Value by name, Other by ordinal 1 */
	assert_int_equal(iat(1, 0), (uintptr_t)find(values_dll, "Value", 0));
	assert_int_equal(iat(1, 1), (uintptr_t)find(values_dll, NULL, 1));
	assert_int_equal(((value_fn)(uintptr_t)iat(1, 0))(), 43);
	assert_int_equal(((value_fn)(uintptr_t)iat(1, 1))(), 7);
}

static void test_by_name_and_ordinal(void **state)
{
	struct module *m = load("imp-values.dll");
	HMODULE h = (HMODULE)m->base;
	void *value = find(m, "Value", 0);

	assert_non_null(value);
	assert_ptr_equal(loader_get_proc_address(h, "Value"), value);
	assert_ptr_equal(loader_get_proc_address(h, (const char *)(uintptr_t)2), value);
	assert_ptr_equal(find(m, NULL, 2), value);
	assert_int_equal(((value_fn)loader_get_proc_address(h, (const char *)(uintptr_t)1))(), 7);

	/* Names are exact; unknown names and ordinals give NULL. */
	SetLastError(0xdead);
	assert_null(loader_get_proc_address(h, "value"));
	assert_int_equal(GetLastError(), ERROR_PROC_NOT_FOUND);
	SetLastError(0xdead);
	assert_null(loader_get_proc_address(h, "NotThere"));
	assert_int_equal(GetLastError(), ERROR_PROC_NOT_FOUND);
	assert_null(loader_get_proc_address(h, (const char *)(uintptr_t)3));
	assert_null(loader_get_proc_address(h, (const char *)(uintptr_t)0));
	assert_null(find(m, NULL, 0xffff));
	release(m);
}

static void test_forwarders(void **state)
{
	struct module *a = load("imp-fwd-a.dll"), *values_dll = load("imp-values.dll");
	struct load_error err = { "", 0 };

	assert_ptr_equal(find(a, "Direct", 0), find(values_dll, "Value", 0));
	assert_ptr_equal(find(a, "ByOrdinal", 0), find(values_dll, "Other", 0));
	/* a → b → imp-values */
	assert_ptr_equal(find(a, "Chain", 0), find(values_dll, "Value", 0));
	assert_ptr_equal(loader_get_proc_address((HMODULE)a->base, "Chain"), find(values_dll, "Value", 0));
	/* into a builtin */
	assert_ptr_equal(find(a, "GetLastErr", 0), builtin_lookup_name(builtin_find("kernel32"), "GetLastError"));
	/* by ordinal: Chain is the second export */
	assert_ptr_equal(find(a, NULL, 2), find(values_dll, "Value", 0));

	/* Looking a forwarder up again takes no new reference on its target. */
	for (int i = 0; i < 50; i++)
		assert_ptr_equal(loader_get_proc_address((HMODULE)a->base, "Direct"), find(values_dll, "Value", 0));
	assert_int_equal(a->nr_deps, 3); /* imp-values, imp-fwd-b, kernel32 */

	/* a → b → a → ...: refused, not followed forever */
	loader_lock();
	assert_null(module_find_export(a, "Loop", 0, &err));
	loader_unlock();
	assert_int_equal(err.code, ERROR_PROC_NOT_FOUND);
	assert_non_null(strstr(err.msg, "forwarder"));
	assert_null(loader_get_proc_address((HMODULE)a->base, "Loop"));

	/* forwarded to a name the target lacks */
	loader_lock();
	assert_null(module_find_export(a, "Missing", 0, &err));
	loader_unlock();
	assert_non_null(strstr(err.msg, "NotThere"));
	release(values_dll);
	release(a);
}

static void test_builtins(void **state)
{
	struct module *k32 = load("KERNEL32");
	const void *gle = builtin_lookup_name(builtin_find("kernel32.dll"), "GetLastError");
	struct load_error err = { "", 0 };

	assert_non_null(k32->builtin);
	assert_non_null(gle);
	assert_ptr_equal(find(k32, "GetLastError", 0), gle);
	assert_ptr_equal(loader_get_module_handle(u"kernel32.dll"), (HMODULE)k32->base);
	assert_ptr_equal(loader_get_module_handle(u"KERNEL32"), (HMODULE)k32->base);
	assert_ptr_equal(loader_get_proc_address((HMODULE)k32->base, "GetLastError"), gle);
	assert_ptr_equal(load("kernel32.dll"), k32);

	/* A missing builtin function is NULL to GetProcAddress (runtimes
	 * probe for optional functions); only imports get trap thunks. */
	SetLastError(0);
	assert_null(loader_get_proc_address((HMODULE)k32->base, "NoSuchFunctionAnywhere"));
	assert_int_equal(GetLastError(), ERROR_PROC_NOT_FOUND);
	loader_lock();
	assert_null(module_find_export(k32, "NoSuchFunctionAnywhere", 0, &err));
	loader_unlock();
	assert_int_equal(err.code, ERROR_PROC_NOT_FOUND);
}

/* API-set names bind to their builtin host through winapi-shim/apisets.list,
 * for imports, LoadLibrary and GetModuleHandle alike. */
static void test_api_sets(void **state)
{
	struct module *k32 = load("kernel32.dll"), *synch = load("api-ms-win-core-synch-l1-2-0.dll");
	struct module *file = load("API-MS-WIN-CORE-FILE-L1-1-0.DLL"), *crt = load("api-ms-win-crt-stdio-l1-1-0.dll");
	struct load_error err = { "", 0 };

	assert_ptr_equal(synch, k32);
	/* the builtin host, not the same-named file beside the program */
	assert_ptr_equal(file, k32);
	assert_non_null(crt->builtin);
	assert_string_equal(crt->name, "ucrtbase.dll");
	assert_non_null(find(crt, "__stdio_common_vfprintf", 0));

	loader_lock();
	assert_null(module_load("api-ms-win-core-nosuch-l1-1-0.dll", "test.exe", &err));
	loader_unlock();
	assert_int_equal(err.code, ERROR_MOD_NOT_FOUND);
	assert_non_null(strstr(err.msg, "api-ms-win-core-nosuch-l1-1-0.dll"));
	assert_non_null(strstr(err.msg, "API set"));
	assert_non_null(strstr(err.msg, "test.exe"));
	/* another minor version is another contract */
	loader_lock();
	assert_null(module_load("api-ms-win-core-synch-l1-9-0.dll", NULL, &err));
	loader_unlock();
	assert_int_equal(err.code, ERROR_MOD_NOT_FOUND);

	assert_ptr_equal(loader_load_library(u"Api-Ms-Win-Core-Synch-L1-2-0", 0), (HMODULE)k32->base);
	assert_ptr_equal(loader_get_module_handle(u"api-ms-win-core-synch-l1-2-1.dll"), (HMODULE)k32->base);
	assert_ptr_equal(loader_get_module_handle(u"api-ms-win-crt-runtime-l1-1-0.dll"), (HMODULE)crt->base);
	SetLastError(0);
	assert_null(loader_load_library(u"ext-ms-win-nosuch-l1-1-0.dll", 0));
	assert_int_equal(GetLastError(), ERROR_MOD_NOT_FOUND);
	SetLastError(0);
	assert_null(loader_get_module_handle(u"ext-ms-win-nosuch-l1-1-0.dll"));
	assert_int_equal(GetLastError(), ERROR_MOD_NOT_FOUND);
}

static void test_case_insensitive_file_names(void **state)
{
	struct module *m = load("MIXED-case.dll"), *again = load("mixed-CASE"), *values_dll;

	assert_ptr_equal(m, again);
	assert_string_equal(m->name, "Mixed-Case.DLL");
	assert_int_equal(((value_fn)find(m, "Value", 0))(), 43);
	release(again);
	release(m);

	values_dll = load("IMP-VALUES.DLL");
	assert_ptr_equal(values_dll, module_find_by_name("imp-values.dll"));
	release(values_dll);
}

static void test_dll_path_search(void **state)
{
	struct load_error err = { "", 0 };
	char env[300];
	struct module *m;

	loader_lock();
	assert_null(module_load("imp-onpath.dll", "test.exe", &err));
	loader_unlock();
	assert_int_equal(err.code, ERROR_MOD_NOT_FOUND);
	assert_non_null(strstr(err.msg, "imp-onpath.dll"));
	assert_non_null(strstr(err.msg, "test.exe"));

	snprintf(env, sizeof(env), "/nonexistent:%s/elsewhere", dir);
	setenv("NDSHIM_DLL_PATH", env, 1);
	m = load("IMP-ONPATH");
	unsetenv("NDSHIM_DLL_PATH");
	assert_non_null(strstr(m->path, "/elsewhere/imp-onpath.dll"));
	assert_int_equal(((value_fn)find(m, "Value", 0))(), 43);
	release(m);
}

static void test_load_library(void **state)
{
	HMODULE h = loader_load_library(u"imp-fwd-b.dll", 0);

	assert_non_null(h);
	assert_ptr_equal(loader_get_module_handle(u"IMP-FWD-B.DLL"), h);
	assert_ptr_equal(loader_get_proc_address(h, "Chain"), find(module_find_by_name("imp-values.dll"), "Value", 0));
	assert_true(loader_free_library(h));

	SetLastError(0);
	assert_null(loader_load_library(u"no-such-module.dll", 0));
	assert_int_equal(GetLastError(), ERROR_MOD_NOT_FOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exe_imports_bound),
		cmocka_unit_test(test_by_name_and_ordinal),
		cmocka_unit_test(test_forwarders),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_api_sets),
		cmocka_unit_test(test_case_insensitive_file_names),
		cmocka_unit_test(test_dll_path_search),
		cmocka_unit_test(test_load_library),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
