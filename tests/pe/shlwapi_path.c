/* shlwapi's path and string helpers: PathCombine, PathAppend,
 * PathCanonicalize, PathRemoveFileSpec, PathFindFileName/Extension,
 * PathIsRelative/Root, PathAdd/RemoveBackslash, PathRemoveExtension,
 * PathStripPath, PathFileExists, PathIsDirectory (W and A), and StrStrI,
 * StrCmpI, StrCmpNI, StrChr, StrRChr, StrDup, StrToInt. */
#include <windows.h>
#include <shlwapi.h>

#include "test.h"

#define CHECK_COMBINE(dir, file, want)                                                                        \
	do {                                                                                                   \
		WCHAR b_[MAX_PATH] = L"junk";                                                                  \
		WCHAR *r_ = PathCombineW(b_, dir, file);                                                       \
		ok(r_ == b_ && !wcscmp(b_, want), "PathCombine(%ls, %ls) [%ls], expected [%ls]\n", dir ? dir : L"NULL", \
		   file ? file : L"NULL", r_ ? b_ : L"NULL", want);                                          \
	} while (0)

#define CHECK_CANON(in, want)                                                                             \
	do {                                                                                               \
		WCHAR b_[MAX_PATH];                                                                        \
		ok(PathCanonicalizeW(b_, in) && !wcscmp(b_, want), "PathCanonicalize(%ls) [%ls], expected [%ls]\n", in, \
		   b_, want);                                                                              \
	} while (0)

#define CHECK_SPEC(in, ret, want)                                                                          \
	do {                                                                                                \
		WCHAR b_[MAX_PATH];                                                                         \
		BOOL r_;                                                                                    \
		lstrcpyW(b_, in);                                                                           \
		r_ = PathRemoveFileSpecW(b_);                                                               \
		ok(r_ == (ret) && !wcscmp(b_, want), "PathRemoveFileSpec(%ls) %d [%ls], expected %d [%ls]\n", in, r_, \
		   b_, ret, want);                                                                          \
	} while (0)

static void test_paths(void)
{
	WCHAR buf[MAX_PATH], self[MAX_PATH], dir[MAX_PATH];
	char bufa[MAX_PATH];

	CHECK_COMBINE(L"C:\\a\\b", L"c", L"C:\\a\\b\\c");
	CHECK_COMBINE(L"C:\\a\\b\\", L"c.txt", L"C:\\a\\b\\c.txt");
	CHECK_COMBINE(L"C:\\a", L"..\\x", L"C:\\x");
	CHECK_COMBINE(L"C:\\a", L"\\x", L"C:\\x");
	CHECK_COMBINE(L"C:\\a", L"D:\\y", L"D:\\y");
	CHECK_COMBINE(L"C:\\a\\.\\b\\..\\c", NULL, L"C:\\a\\c");
	CHECK_COMBINE(NULL, L"rel\\x", L"rel\\x");
	CHECK_COMBINE(L"rel", L"x", L"rel\\x");
	ok(PathCombineW(buf, NULL, NULL) == NULL, "PathCombine(NULL, NULL)\n");

	CHECK_CANON(L"C:\\a\\.\\b\\..\\c", L"C:\\a\\c");
	CHECK_CANON(L"C:\\..", L"C:\\");
	CHECK_CANON(L"C:\\a\\b\\..\\..\\..", L"C:\\");
	CHECK_CANON(L"C:\\a\\", L"C:\\a\\");
	CHECK_CANON(L"", L"\\");

	lstrcpyW(buf, L"C:\\a");
	ok(PathAppendW(buf, L"\\b") && !wcscmp(buf, L"C:\\a\\b"), "PathAppend [%ls]\n", buf);
	ok(PathAppendW(buf, L"..\\c") && !wcscmp(buf, L"C:\\a\\c"), "PathAppend .. [%ls]\n", buf);

	CHECK_SPEC(L"C:\\a\\b", TRUE, L"C:\\a");
	CHECK_SPEC(L"C:\\a", TRUE, L"C:\\");
	CHECK_SPEC(L"C:\\", FALSE, L"C:\\");
	CHECK_SPEC(L"a\\b", TRUE, L"a");
	CHECK_SPEC(L"a", TRUE, L"");
	CHECK_SPEC(L"\\a", TRUE, L"\\");

	ok(!wcscmp(PathFindFileNameW(L"C:\\a\\b.txt"), L"b.txt"), "PathFindFileName file\n");
	ok(!wcscmp(PathFindFileNameW(L"C:\\a\\"), L"a\\"), "PathFindFileName dir [%ls]\n", PathFindFileNameW(L"C:\\a\\"));
	ok(!wcscmp(PathFindFileNameW(L"b"), L"b"), "PathFindFileName bare\n");
	ok(!wcscmp(PathFindFileNameW(L"C:x"), L"x"), "PathFindFileName C:x\n");
	ok(!wcscmp(PathFindExtensionW(L"x.tar.gz"), L".gz"), "extension .gz\n");
	ok(!*PathFindExtensionW(L"a.b\\c"), "extension of a folder\n");
	ok(!*PathFindExtensionW(L"noext"), "no extension\n");
	ok(!*PathFindExtensionW(L"a. b"), "a space after the dot\n");

	ok(PathIsRelativeW(L"a\\b") && PathIsRelativeW(L""), "relative\n");
	ok(!PathIsRelativeW(L"\\a") && !PathIsRelativeW(L"C:\\a") && !PathIsRelativeW(L"C:a"), "absolute\n");
	ok(PathIsRootW(L"C:\\") && PathIsRootW(L"\\") && PathIsRootW(L"\\\\server\\share"), "roots\n");
	ok(!PathIsRootW(L"C:\\a") && !PathIsRootW(L"\\\\server\\share\\x") && !PathIsRootW(L"a"), "not roots\n");

	lstrcpyW(buf, L"C:\\a");
	ok(PathAddBackslashW(buf) == buf + 5 && !wcscmp(buf, L"C:\\a\\"), "PathAddBackslash\n");
	ok(PathAddBackslashW(buf) == buf + 5, "PathAddBackslash twice\n");
	ok(PathRemoveBackslashW(buf) == buf + 4 && !wcscmp(buf, L"C:\\a"), "PathRemoveBackslash\n");
	lstrcpyW(buf, L"C:\\");
	PathRemoveBackslashW(buf);
	ok(!wcscmp(buf, L"C:\\"), "the root keeps its backslash: [%ls]\n", buf);
	lstrcpyW(buf, L"C:\\a\\b.txt");
	PathRemoveExtensionW(buf);
	ok(!wcscmp(buf, L"C:\\a\\b"), "PathRemoveExtension [%ls]\n", buf);
	PathStripPathW(buf);
	ok(!wcscmp(buf, L"b"), "PathStripPath [%ls]\n", buf);

	GetModuleFileNameW(NULL, self, MAX_PATH);
	ok(PathFileExistsW(self), "PathFileExists(self)\n");
	ok(!PathIsDirectoryW(self), "the program is not a folder\n");
	ok(!PathFileExistsW(L"C:\\no\\such\\file"), "a missing file exists\n");
	GetTempPathW(MAX_PATH, dir);
	ok(PathIsDirectoryW(dir), "PathIsDirectory(%ls)\n", dir);

	/* ANSI. */
	ok(PathCombineA(bufa, "C:\\a", "..\\b.c") && !strcmp(bufa, "C:\\b.c"), "PathCombineA [%s]\n", bufa);
	ok(!strcmp(PathFindExtensionA(bufa), ".c"), "PathFindExtensionA\n");
	ok(!strcmp(PathFindFileNameA(bufa), "b.c"), "PathFindFileNameA\n");
	ok(PathRemoveFileSpecA(bufa) && !strcmp(bufa, "C:\\"), "PathRemoveFileSpecA [%s]\n", bufa);
	ok(PathAppendA(bufa, "x") && !strcmp(bufa, "C:\\x"), "PathAppendA [%s]\n", bufa);
	ok(PathIsRelativeA("x") && !PathIsRelativeA("\\x"), "PathIsRelativeA\n");
	GetModuleFileNameA(NULL, bufa, MAX_PATH);
	ok(PathFileExistsA(bufa), "PathFileExistsA\n");
}

static void test_strings(void)
{
	const WCHAR *s = L"Hello World";
	WCHAR *d;

	ok(StrStrIW(s, L"WORLD") == s + 6, "StrStrIW\n");
	ok(StrStrIW(s, L"planet") == NULL, "StrStrIW missing\n");
	ok(StrStrW(s, L"World") == s + 6 && StrStrW(s, L"WORLD") == NULL, "StrStrW\n");
	ok(StrStrIA("Hello World", "wOrLd") != NULL, "StrStrIA\n");
	ok(StrCmpIW(L"abc", L"ABC") == 0 && StrCmpIW(L"abc", L"abd") < 0, "StrCmpIW\n");
	ok(StrCmpNIW(L"abcX", L"ABCY", 3) == 0 && StrCmpNIW(L"abcX", L"ABCY", 4) < 0, "StrCmpNIW\n");
	ok(StrCmpNIA("abcX", "ABCY", 3) == 0, "StrCmpNIA\n");
	ok(StrCmpW(L"a", L"b") < 0 && StrCmpW(L"b", L"b") == 0, "StrCmpW\n");
	ok(StrChrW(s, 'o') == s + 4, "StrChrW\n");
	ok(StrRChrW(s, NULL, 'o') == s + 7, "StrRChrW\n");
	ok(StrRChrW(s, s + 7, 'o') == s + 4, "StrRChrW with an end\n");
	ok(StrChrA("abc", 'c') != NULL && StrChrA("abc", 'z') == NULL, "StrChrA\n");
	d = StrDupW(s);
	ok(d && d != s && !wcscmp(d, s), "StrDupW\n");
	LocalFree(d);
	ok(StrToIntW(L"-42x") == -42 && StrToIntA("17") == 17 && StrToIntA("x") == 0, "StrToInt\n");
}

int main(void)
{
	test_paths();
	test_strings();
	return test_summary();
}
