/* shlwapi's UrlIsW (URLIS_URL, URLIS_FILEURL, URLIS_OPAQUE) and
 * PathCreateFromUrlW: file URLs with three slashes, a drive after two,
 * localhost, a server (UNC), percent escapes, the size protocol,
 * and URLs that are not file URLs. */
#include <windows.h>
#include <shlwapi.h>

#include "test.h"

#define CHECK_PATH(url, want)                                                                              \
	do {                                                                                                \
		WCHAR b_[MAX_PATH];                                                                         \
		DWORD n_ = MAX_PATH;                                                                        \
		HRESULT h_ = PathCreateFromUrlW(url, b_, &n_, 0);                                           \
		ok(h_ == S_OK && !wcscmp(b_, want) && n_ == (DWORD)lstrlenW(want), "%ls: %#lx [%ls] %lu, expected [%ls]\n", \
		   url, h_, h_ == S_OK ? b_ : L"", n_, want);                                               \
	} while (0)

int main(void)
{
	WCHAR buf[8];
	DWORD n;
	HRESULT hr;

	ok(UrlIsW(L"http://example.com/x", URLIS_URL), "http URL\n");
	ok(UrlIsW(L"file:///C:/x", URLIS_URL), "file URL is a URL\n");
	ok(!UrlIsW(L"C:\\dir\\x", URLIS_URL), "a path is not a URL\n");
	ok(UrlIsW(L"file:///C:/x", URLIS_FILEURL) && UrlIsW(L"FILE://server/x", URLIS_FILEURL), "file URLs\n");
	ok(!UrlIsW(L"http://example.com/x", URLIS_FILEURL), "http is not a file URL\n");
	ok(UrlIsW(L"mailto:someone@example.com", URLIS_OPAQUE), "mailto is opaque\n");
	ok(!UrlIsW(L"http://example.com/x", URLIS_OPAQUE), "http is not opaque\n");

	CHECK_PATH(L"file:///C:/dir/file.txt", L"C:\\dir\\file.txt");
	CHECK_PATH(L"file://C:/dir/file.txt", L"C:\\dir\\file.txt");
	CHECK_PATH(L"file://localhost/C:/x", L"C:\\x");
	CHECK_PATH(L"file:///C:/a%20b/c%41", L"C:\\a b\\cA");
	/* One character per escaped byte (no UTF-8 decoding). */
	CHECK_PATH(L"file:///C:/caf%C3%A9", L"C:\\caf\x00c3\x00a9");
	CHECK_PATH(L"file://server/share/x", L"\\\\server\\share\\x");

	n = 8;
	hr = PathCreateFromUrlW(L"file:///C:/a/long/name", buf, &n, 0);
	ok(hr == E_POINTER && n == 15, "8 characters: %#lx, size %lu\n", hr, n);
	n = MAX_PATH;
	WCHAR big[MAX_PATH];
	hr = PathCreateFromUrlW(L"http://example.com/x", big, &n, 0);
	ok(hr == E_INVALIDARG, "an http URL: %#lx\n", hr);
	return test_summary();
}
