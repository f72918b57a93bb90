/* The path API set (api-ms-win-core-path-l1-1-0, imported at load time as
 * programs import it): PathCchCombine(Ex), PathCchAppend,
 * PathCchCanonicalize(Ex) with long paths, PathAllocCombine/Canonicalize,
 * PathCchAdd/RemoveBackslash(Ex), PathCchFind/Add/Rename/RemoveExtension,
 * PathCchRemoveFileSpec, PathCchIsRoot, PathCchSkipRoot,
 * PathCchStripToRoot, PathCchStripPrefix, PathIsUNCEx; results, S_FALSE
 * and the errors.  PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH (the docs: the
 * "\\?\" form whatever the length, trailing dots and spaces kept): a
 * drive path gains the prefix, one that has it keeps it, and the flag
 * with PATHCCH_ALLOW_LONG_PATHS is E_INVALIDARG (as Wine's tests, which
 * run on Windows too, expect). */
#include <windows.h>
#include <pathcch.h>

#ifndef PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH
#define PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH 0x10 /* Microsoft's pathcch.h */
#endif
#ifndef PATHCCH_NONE
#define PATHCCH_NONE 0 /* Microsoft's pathcch.h; mingw-w64's lacks it */
#endif

#include "test.h"

#define INSUFFICIENT HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER)

#define CHECK_COMBINE(p1, p2, want)                                                                     \
	do {                                                                                             \
		WCHAR b_[MAX_PATH];                                                                      \
		HRESULT h_ = PathCchCombine(b_, MAX_PATH, p1, p2);                                       \
		ok(h_ == S_OK && !wcscmp(b_, want), "PathCchCombine(%ls, %ls) %#lx [%ls], expected [%ls]\n", \
		   p1 ? p1 : L"NULL", p2 ? p2 : L"NULL", h_, b_, want);                                 \
	} while (0)

static void test_combine(void)
{
	WCHAR buf[MAX_PATH], *alloc, *longp;
	HRESULT hr;

	CHECK_COMBINE(L"C:\\a\\b", L"c", L"C:\\a\\b\\c");
	CHECK_COMBINE(L"C:\\a\\", L"..\\x", L"C:\\x");
	CHECK_COMBINE(L"C:\\a", L"\\x", L"C:\\x");
	CHECK_COMBINE(L"C:\\a", L"D:\\y", L"D:\\y");
	CHECK_COMBINE(L"C:\\a\\.\\b\\..\\c", NULL, L"C:\\a\\c");
	/* A drive path short enough loses its extended prefix. */
	CHECK_COMBINE(L"\\\\?\\C:\\a", L"..\\..\\b", L"C:\\b");
	hr = PathCchCombine(buf, MAX_PATH, NULL, NULL);
	ok(hr == E_INVALIDARG, "both NULL: %#lx\n", hr);
	hr = PathCchCombine(buf, 5, L"C:\\abc", L"def");
	ok(hr == INSUFFICIENT, "5 characters: %#lx\n", hr);

	lstrcpyW(buf, L"C:\\a");
	hr = PathCchAppend(buf, MAX_PATH, L"\\b");
	ok(hr == S_OK && !wcscmp(buf, L"C:\\a\\b"), "PathCchAppend %#lx [%ls]\n", hr, buf);

	hr = PathCchCanonicalize(buf, MAX_PATH, L"C:\\a\\..\\..\\b\\.\\c");
	ok(hr == S_OK && !wcscmp(buf, L"C:\\b\\c"), "PathCchCanonicalize %#lx [%ls]\n", hr, buf);
	hr = PathCchCanonicalize(buf, MAX_PATH, L"");
	ok(hr == S_OK && !wcscmp(buf, L"\\"), "empty: %#lx [%ls]\n", hr, buf);

	/* A path longer than MAX_PATH needs PATHCCH_ALLOW_LONG_PATHS. */
	longp = malloc(400 * sizeof(WCHAR));
	lstrcpyW(longp, L"C:\\");
	for (int i = 0; i < 30; i++)
		lstrcatW(longp, L"directory\\");
	WCHAR *big = malloc(PATHCCH_MAX_CCH * sizeof(WCHAR));
	hr = PathCchCanonicalizeEx(big, PATHCCH_MAX_CCH, longp, PATHCCH_NONE);
	ok(hr == HRESULT_FROM_WIN32(ERROR_FILENAME_EXCED_RANGE), "long path without the flag: %#lx\n", hr);
	/* With the flag, such a path gets the extended prefix. */
	hr = PathCchCanonicalizeEx(big, PATHCCH_MAX_CCH, longp, PATHCCH_ALLOW_LONG_PATHS);
	ok(hr == S_OK && !wcsncmp(big, L"\\\\?\\", 4) && !wcscmp(big + 4, longp), "long path with the flag: %#lx\n", hr);
	free(big);
	free(longp);

	hr = PathCchCanonicalizeEx(buf, MAX_PATH, L"C:\\a\\.\\b\\..\\c", PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH);
	ok(hr == S_OK && !wcscmp(buf, L"\\\\?\\C:\\a\\c"), "extended form: %#lx [%ls]\n", hr, buf);
	hr = PathCchCanonicalizeEx(buf, MAX_PATH, L"\\\\?\\C:\\a", PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH);
	ok(hr == S_OK && !wcscmp(buf, L"\\\\?\\C:\\a"), "extended form kept: %#lx [%ls]\n", hr, buf);
	hr = PathCchCanonicalizeEx(buf, MAX_PATH, L"C:\\", PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH);
	ok(hr == S_OK && !wcscmp(buf, L"\\\\?\\C:\\"), "extended root: %#lx [%ls]\n", hr, buf);
	hr = PathCchCanonicalizeEx(buf, MAX_PATH, L"C:\\a.\\b ", PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH);
	ok(hr == S_OK && !wcscmp(buf, L"\\\\?\\C:\\a.\\b "), "dots and spaces kept: %#lx [%ls]\n", hr, buf);
	hr = PathCchCanonicalizeEx(buf, MAX_PATH, L"C:\\a",
				   PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH | PATHCCH_ALLOW_LONG_PATHS);
	ok(hr == E_INVALIDARG, "with PATHCCH_ALLOW_LONG_PATHS: %#lx\n", hr);
	hr = PathAllocCanonicalize(L"C:\\x\\..\\y", PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH, &alloc);
	ok(hr == S_OK && alloc && !wcscmp(alloc, L"\\\\?\\C:\\y"), "PathAllocCanonicalize, extended: %#lx [%ls]\n", hr,
	   alloc ? alloc : L"(null)");
	LocalFree(alloc);
	hr = PathAllocCombine(L"C:\\a", L"b", PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH, &alloc);
	ok(hr == S_OK && alloc && !wcscmp(alloc, L"\\\\?\\C:\\a\\b"), "PathAllocCombine, extended: %#lx [%ls]\n", hr,
	   alloc ? alloc : L"(null)");
	LocalFree(alloc);

	hr = PathAllocCombine(L"C:\\a", L"b\\..\\c", PATHCCH_NONE, &alloc);
	ok(hr == S_OK && alloc && !wcscmp(alloc, L"C:\\a\\c"), "PathAllocCombine %#lx\n", hr);
	LocalFree(alloc);
	hr = PathAllocCanonicalize(L"C:\\x\\..\\y", PATHCCH_NONE, &alloc);
	ok(hr == S_OK && alloc && !wcscmp(alloc, L"C:\\y"), "PathAllocCanonicalize %#lx\n", hr);
	LocalFree(alloc);
}

static void test_parts(void)
{
	WCHAR buf[MAX_PATH], *end = NULL;
	const WCHAR *ext, *root;
	SIZE_T left = 0;
	HRESULT hr;

	lstrcpyW(buf, L"C:\\a");
	hr = PathCchAddBackslashEx(buf, MAX_PATH, &end, &left);
	ok(hr == S_OK && !wcscmp(buf, L"C:\\a\\") && end == buf + 5 && left == MAX_PATH - 5,
	   "PathCchAddBackslashEx %#lx\n", hr);
	ok(PathCchAddBackslash(buf, MAX_PATH) == S_FALSE, "already there\n");
	ok(PathCchAddBackslash(buf, 6) == S_FALSE, "already there, full buffer\n");
	lstrcpyW(buf, L"C:\\ab");
	ok(PathCchAddBackslash(buf, 6) == INSUFFICIENT, "no room\n");
	lstrcpyW(buf, L"C:\\a\\");
	ok(PathCchRemoveBackslash(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"C:\\a"), "PathCchRemoveBackslash\n");
	ok(PathCchRemoveBackslash(buf, MAX_PATH) == S_FALSE, "nothing to remove\n");
	lstrcpyW(buf, L"C:\\");
	ok(PathCchRemoveBackslash(buf, MAX_PATH) == S_FALSE && !wcscmp(buf, L"C:\\"), "a root keeps it\n");

	lstrcpyW(buf, L"C:\\dir.d\\file.tar.gz");
	ok(PathCchFindExtension(buf, MAX_PATH, &ext) == S_OK && !wcscmp(ext, L".gz"), "PathCchFindExtension\n");
	ok(PathCchRemoveExtension(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"C:\\dir.d\\file.tar"),
	   "PathCchRemoveExtension [%ls]\n", buf);
	ok(PathCchRenameExtension(buf, MAX_PATH, L"zip") == S_OK && !wcscmp(buf, L"C:\\dir.d\\file.zip"),
	   "PathCchRenameExtension [%ls]\n", buf);
	ok(PathCchAddExtension(buf, MAX_PATH, L".txt") == S_FALSE, "PathCchAddExtension with one already\n");
	lstrcpyW(buf, L"C:\\noext");
	ok(PathCchFindExtension(buf, MAX_PATH, &ext) == S_OK && !*ext, "no extension\n");
	ok(PathCchRemoveExtension(buf, MAX_PATH) == S_FALSE, "nothing to remove\n");
	ok(PathCchAddExtension(buf, MAX_PATH, L".txt") == S_OK && !wcscmp(buf, L"C:\\noext.txt"),
	   "PathCchAddExtension [%ls]\n", buf);
	ok(PathCchAddExtension(buf, MAX_PATH, L"a b") == E_INVALIDARG, "an extension with a space\n");

	lstrcpyW(buf, L"C:\\a\\b");
	ok(PathCchRemoveFileSpec(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"C:\\a"), "PathCchRemoveFileSpec\n");
	ok(PathCchRemoveFileSpec(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"C:\\"), "to the root [%ls]\n", buf);
	ok(PathCchRemoveFileSpec(buf, MAX_PATH) == S_FALSE && !wcscmp(buf, L"C:\\"), "the root stays\n");

	ok(PathCchIsRoot(L"C:\\") && PathCchIsRoot(L"\\") && PathCchIsRoot(L"\\\\?\\C:\\"), "roots\n");
	ok(!PathCchIsRoot(L"C:\\a") && !PathCchIsRoot(L"a") && !PathCchIsRoot(NULL), "not roots\n");
	ok(PathCchSkipRoot(L"C:\\a\\b", &root) == S_OK && !wcscmp(root, L"a\\b"), "PathCchSkipRoot\n");
	ok(PathCchSkipRoot(L"\\\\server\\share\\x", &root) == S_OK && !wcscmp(root, L"x"), "UNC SkipRoot\n");
	ok(PathCchSkipRoot(L"rel\\x", &root) == E_INVALIDARG, "relative SkipRoot\n");
	lstrcpyW(buf, L"C:\\a\\b");
	ok(PathCchStripToRoot(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"C:\\"), "PathCchStripToRoot\n");
	ok(PathCchStripToRoot(buf, MAX_PATH) == S_FALSE, "already a root\n");

	lstrcpyW(buf, L"\\\\?\\C:\\x");
	ok(PathCchStripPrefix(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"C:\\x"), "PathCchStripPrefix\n");
	ok(PathCchStripPrefix(buf, MAX_PATH) == S_FALSE, "no prefix\n");
	lstrcpyW(buf, L"\\\\?\\UNC\\srv\\share");
	ok(PathCchStripPrefix(buf, MAX_PATH) == S_OK && !wcscmp(buf, L"\\\\srv\\share"), "UNC prefix [%ls]\n", buf);

	ok(PathIsUNCEx(L"\\\\srv\\share", &root) && !wcscmp(root, L"srv\\share"), "PathIsUNCEx\n");
	ok(!PathIsUNCEx(L"C:\\x", &root) && root == NULL, "not UNC\n");
}

int main(void)
{
	test_combine();
	test_parts();
	return test_summary();
}
