/* vcruntime140.dll as MSVC programs import it (import library from
 * dlls/vcruntime140.def): the string functions, std::exception's message
 * helpers, type_info comparison and hashing, the per-thread exception
 * state, and _CxxThrowException's SEH exception (seen by a vectored
 * handler; catching is tested by the MSVC-ABI programs in tests/pe/msvc/). */
#define __USE_MINGW_ANSI_STDIO 0

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

struct exception_data {
	const char *what;
	char do_free;
};

struct type_info_data {
	const char *undecorated_name;
	char decorated_name[32];
};

__declspec(dllimport) void __cdecl __std_exception_copy(const struct exception_data *from, struct exception_data *to);
__declspec(dllimport) void __cdecl __std_exception_destroy(struct exception_data *data);
__declspec(dllimport) int __cdecl __std_type_info_compare(const struct type_info_data *a,
							  const struct type_info_data *b);
__declspec(dllimport) size_t __cdecl __std_type_info_hash(const struct type_info_data *data);
__declspec(dllimport) void **__cdecl __current_exception(void);
__declspec(dllimport) void **__cdecl __current_exception_context(void);
__declspec(dllimport) int __cdecl __uncaught_exceptions(void);
__declspec(dllimport) void __cdecl _CxxThrowException(void *object, void *throw_info) __attribute__((noreturn));

static void test_strings(void)
{
	char buf[16] = "hello world";
	wchar_t w[] = L"wide string";

	/* These names come from vcruntime140.dll in this program. */
	ok(memchr(buf, 'w', 11) == buf + 6, "memchr\n");
	ok(memcmp("abc", "abd", 3) < 0, "memcmp\n");
	memmove(buf + 1, buf, 5);
	ok(!memcmp(buf, "hhello", 6), "memmove [%s]\n", buf);
	memset(buf, 'z', 3);
	ok(!memcmp(buf, "zzzllo", 6), "memset [%s]\n", buf);
	ok(strchr("a/b/c", '/') && !strcmp(strrchr("a/b/c", '/'), "/c"), "strchr/strrchr\n");
	ok(strstr("needle in haystack", "hay") != NULL, "strstr\n");
	ok(wcschr(w, L's') == w + 5 && wcsrchr(w, L'i') == w + 8 && wcsstr(w, L"str") == w + 5, "wcs*\n");
}

static void test_exception_data(void)
{
	struct exception_data from = { "owned message", 1 }, to = { NULL, 0 }, lit = { "literal", 0 };

	/* Rule: an owned message is copied, a borrowed one shared. */
	__std_exception_copy(&from, &to);
	ok(to.what && to.what != from.what && !strcmp(to.what, "owned message") && to.do_free, "owned copy\n");
	__std_exception_destroy(&to);
	ok(to.what == NULL && !to.do_free, "destroy left %p %d\n", (void *)to.what, to.do_free);
	__std_exception_copy(&lit, &to);
	ok(to.what == lit.what && !to.do_free, "borrowed copy\n");
	__std_exception_destroy(&to);
	ok(to.what == NULL, "destroy of a borrowed message\n");
}

static void test_type_info(void)
{
	struct type_info_data a = { NULL, ".?AVfoo@@" }, b = { NULL, ".?AVfoo@@" }, c = { NULL, ".?AVbar@@" };

	/* Rule: type_infos compare by decorated name, so copies in two
	 * modules are equal; equal types hash alike. */
	ok(__std_type_info_compare(&a, &b) == 0, "equal names differ\n");
	ok(__std_type_info_compare(&a, &c) != 0, "different names equal\n");
	ok((__std_type_info_compare(&a, &c) > 0) == (strcmp("?AVfoo@@", "?AVbar@@") > 0), "order\n");
	ok(__std_type_info_hash(&a) == __std_type_info_hash(&b), "hashes of equal types differ\n");
	ok(__std_type_info_hash(&a) != __std_type_info_hash(&c), "hashes collide\n");
}

static int thrown_object = 42;
static char throw_info[32];
static EXCEPTION_RECORD seen;
static HMODULE seen_module;

static LONG CALLBACK on_exception(EXCEPTION_POINTERS *ep)
{
	if (ep->ExceptionRecord->ExceptionCode != 0xe06d7363)
		return EXCEPTION_CONTINUE_SEARCH;
	seen = *ep->ExceptionRecord;
	/* the thread ends here: nothing can catch the throw */
	ExitThread(9);
}

static DWORD WINAPI thrower(void *arg)
{
	(void)arg;
	_CxxThrowException(&thrown_object, throw_info);
}

static void test_throw(void)
{
	void *handler = AddVectoredExceptionHandler(1, on_exception);
	DWORD code = 0;
	HANDLE t;

	seen_module = GetModuleHandleA(NULL);
	t = CreateThread(NULL, 0, thrower, NULL, 0, NULL);
	ok(t && WaitForSingleObject(t, 10000) == WAIT_OBJECT_0, "thread did not end\n");
	ok(GetExitCodeThread(t, &code) && code == 9, "exit code %lu\n", code);
	CloseHandle(t);
	RemoveVectoredExceptionHandler(handler);
	/* Rule: a C++ throw is exception 0xe06d7363, non-continuable, with
	 * the magic number, the object, the ThrowInfo and the image base of
	 * the module holding the ThrowInfo (x64 RVAs are relative to it). */
	ok(seen.ExceptionCode == 0xe06d7363, "code %#lx\n", seen.ExceptionCode);
	ok(seen.ExceptionFlags & EXCEPTION_NONCONTINUABLE, "flags %#lx\n", seen.ExceptionFlags);
	ok(seen.NumberParameters == 4, "%lu parameters\n", seen.NumberParameters);
	ok(seen.ExceptionInformation[0] == 0x19930520, "magic %#llx\n",
	   (unsigned long long)seen.ExceptionInformation[0]);
	ok(seen.ExceptionInformation[1] == (ULONG_PTR)&thrown_object, "object\n");
	ok(seen.ExceptionInformation[2] == (ULONG_PTR)throw_info, "ThrowInfo\n");
	ok(seen.ExceptionInformation[3] == (ULONG_PTR)seen_module, "image base %#llx, want %p\n",
	   (unsigned long long)seen.ExceptionInformation[3], (void *)seen_module);
}

int main(void)
{
	test_strings();
	test_exception_data();
	test_type_info();
	/* no exception in flight */
	ok(__uncaught_exceptions() == 0, "uncaught %d\n", __uncaught_exceptions());
	ok(__current_exception() && *__current_exception() == NULL, "current exception\n");
	ok(__current_exception_context() && *__current_exception_context() == NULL, "current context\n");
	test_throw();
	return test_summary();
}
