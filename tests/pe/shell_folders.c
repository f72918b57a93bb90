/* shell32's known folders agree with the environment the program gets
 * (USERPROFILE, APPDATA, LOCALAPPDATA, ProgramData), through
 * SHGetKnownFolderPath, SHGetFolderPathW/A and SHGetSpecialFolderPathW;
 * folders under the profile (Documents, Desktop), the Windows and
 * system folders, KF_FLAG_CREATE, and unknown folder ids. */
#include <windows.h>
#include <shlobj.h>
#include <knownfolders.h>

#include "test.h"

static void same_as_env(const KNOWNFOLDERID *id, int csidl, const WCHAR *var)
{
	WCHAR env[MAX_PATH], path[MAX_PATH], special[MAX_PATH];
	char patha[MAX_PATH];
	WCHAR *known = NULL;
	HRESULT hr;

	if (!GetEnvironmentVariableW(var, env, MAX_PATH)) {
		ok(0, "%ls is not in the environment\n", var);
		return;
	}
	hr = SHGetKnownFolderPath(id, 0, NULL, &known);
	ok(hr == S_OK && known && !lstrcmpiW(known, env), "%ls: known folder %#lx [%ls], environment [%ls]\n", var,
	   hr, known ? known : L"", env);
	CoTaskMemFree(known);
	hr = SHGetFolderPathW(NULL, csidl, NULL, SHGFP_TYPE_CURRENT, path);
	ok(hr == S_OK && !lstrcmpiW(path, env), "%ls: CSIDL %#x %#lx [%ls]\n", var, csidl, hr, path);
	ok(SHGetSpecialFolderPathW(NULL, special, csidl, FALSE) && !lstrcmpiW(special, env),
	   "%ls: SHGetSpecialFolderPathW [%ls]\n", var, special);
	hr = SHGetFolderPathA(NULL, csidl, NULL, SHGFP_TYPE_CURRENT, patha);
	WCHAR w[MAX_PATH];
	MultiByteToWideChar(CP_ACP, 0, patha, -1, w, MAX_PATH);
	ok(hr == S_OK && !lstrcmpiW(w, env), "%ls: SHGetFolderPathA %#lx [%s]\n", var, hr, patha);
}

/* A folder under the profile: its path there, with or without creating
 * it (DONT_VERIFY gives the path of a folder that may not exist).  One
 * this test created is removed again. */
static void under_profile(const KNOWNFOLDERID *id, const WCHAR *sub)
{
	WCHAR profile[MAX_PATH], want[MAX_PATH];
	WCHAR *known = NULL;
	HRESULT hr;
	BOOL existed;

	GetEnvironmentVariableW(L"USERPROFILE", profile, MAX_PATH);
	wsprintfW(want, L"%s\\%s", profile, sub);
	existed = GetFileAttributesW(want) != INVALID_FILE_ATTRIBUTES;
	hr = SHGetKnownFolderPath(id, KF_FLAG_DONT_VERIFY, NULL, &known);
	ok(hr == S_OK && known && !lstrcmpiW(known, want), "%ls: %#lx [%ls]\n", sub, hr, known ? known : L"");
	CoTaskMemFree(known);
	known = NULL;
	hr = SHGetKnownFolderPath(id, KF_FLAG_CREATE, NULL, &known);
	ok(hr == S_OK && known && (GetFileAttributesW(known) & FILE_ATTRIBUTE_DIRECTORY) &&
		   GetFileAttributesW(known) != INVALID_FILE_ATTRIBUTES,
	   "%ls created: %#lx [%ls]\n", sub, hr, known ? known : L"");
	CoTaskMemFree(known);
	if (!existed)
		RemoveDirectoryW(want);
}

int main(void)
{
	static const GUID nobody = { 0x12345678, 0x1111, 0x2222, { 3, 3, 3, 3, 3, 3, 3, 3 } };
	WCHAR path[MAX_PATH], sys[MAX_PATH];
	WCHAR *known;
	HRESULT hr;

	/* The folders the environment names exist (tests.list points them
	 * at a folder of the test's own under ndrun). */
	if (GetEnvironmentVariableW(L"USERPROFILE", path, MAX_PATH))
		CreateDirectoryW(path, NULL);
	same_as_env(&FOLDERID_Profile, CSIDL_PROFILE, L"USERPROFILE");
	same_as_env(&FOLDERID_RoamingAppData, CSIDL_APPDATA, L"APPDATA");
	same_as_env(&FOLDERID_LocalAppData, CSIDL_LOCAL_APPDATA, L"LOCALAPPDATA");
	same_as_env(&FOLDERID_ProgramData, CSIDL_COMMON_APPDATA, L"ProgramData");
	under_profile(&FOLDERID_Documents, L"Documents");
	under_profile(&FOLDERID_Desktop, L"Desktop");

	GetSystemDirectoryW(sys, MAX_PATH);
	hr = SHGetFolderPathW(NULL, CSIDL_SYSTEM | CSIDL_FLAG_DONT_VERIFY, NULL, SHGFP_TYPE_CURRENT, path);
	ok(hr == S_OK && !lstrcmpiW(path, sys), "CSIDL_SYSTEM %#lx [%ls], GetSystemDirectory [%ls]\n", hr, path, sys);
	known = NULL;
	hr = SHGetKnownFolderPath(&FOLDERID_Windows, KF_FLAG_DONT_VERIFY, NULL, &known);
	GetWindowsDirectoryW(sys, MAX_PATH);
	ok(hr == S_OK && known && !lstrcmpiW(known, sys), "FOLDERID_Windows %#lx\n", hr);
	CoTaskMemFree(known);

	known = (WCHAR *)1;
	hr = SHGetKnownFolderPath(&nobody, 0, NULL, &known);
	ok(FAILED(hr) && known == NULL, "an unknown folder id: %#lx %p\n", hr, known);
	hr = SHGetFolderPathW(NULL, 0xff, NULL, SHGFP_TYPE_CURRENT, path);
	ok(hr == E_INVALIDARG, "an unknown CSIDL: %#lx\n", hr);
	return test_summary();
}
