/* Known folders (SHGetKnownFolderPath) and their older CSIDL names
 * (SHGetFolderPath, SHGetSpecialFolderPath).
 *
 * Each folder is read from the Windows environment ndrun gives the
 * program (USERPROFILE, APPDATA, LOCALAPPDATA, ProgramData, PUBLIC,
 * ProgramFiles...), so that a folder and its variable always agree, as
 * they do on Windows; a folder without a variable of its own lies under
 * one that has one (Documents under USERPROFILE), and the Windows and
 * system folders are kernel32's.  A variable the environment lacks makes
 * its folders fail with HRESULT_FROM_WIN32(ERROR_ENVVAR_NOT_FOUND).
 *
 * As documented, the folder must exist unless the caller asks not to
 * verify it (KF_FLAG_DONT_VERIFY, CSIDL_FLAG_DONT_VERIFY) or to create it
 * (KF_FLAG_CREATE, CSIDL_FLAG_CREATE). */
#include <string.h>

#include "core/debug.h"
#include "core/wstr.h"
#include "shell32/shell32_private.h"

enum base { NONE, PROFILE, APPDATA, LOCALAPPDATA, PUBLIC };

struct folder {
	GUID id;
	int csidl;	 /* -1: none */
	const char *env; /* the variable holding it, or NULL */
	enum base base;	 /* without the variable: under this folder... */
	const char *sub; /* ...at this path */
	enum base self;	 /* which base it is itself */
};

/* The GUIDs are FOLDERID_* of knownfolders.h, the numbers CSIDL_* of
 * shlobj.h. */
static const struct folder folders[] = {
	{ { 0x5e6c858f, 0x0e22, 0x4760, { 0x9a, 0xfe, 0xea, 0x33, 0x17, 0xb6, 0x71, 0x73 } }, 0x28, "USERPROFILE", NONE, NULL, PROFILE },
	{ { 0x3eb685db, 0x65f9, 0x4cf6, { 0xa0, 0x3a, 0xe3, 0xef, 0x65, 0x72, 0x9f, 0x3d } }, 0x1a, "APPDATA", PROFILE, "AppData\\Roaming", APPDATA },
	{ { 0xf1b32785, 0x6fba, 0x4fcf, { 0x9d, 0x55, 0x7b, 0x8e, 0x7f, 0x15, 0x70, 0x91 } }, 0x1c, "LOCALAPPDATA", PROFILE, "AppData\\Local", LOCALAPPDATA },
	{ { 0xa520a1a4, 0x1780, 0x4ff6, { 0xbd, 0x18, 0x16, 0x73, 0x43, 0xc5, 0xaf, 0x16 } }, -1, NULL, PROFILE, "AppData\\LocalLow", NONE },
	{ { 0x62ab5d82, 0xfdc1, 0x4dc3, { 0xa9, 0xdd, 0x07, 0x0d, 0x1d, 0x49, 0x5d, 0x97 } }, 0x23, "ProgramData", NONE, NULL, NONE },
	{ { 0xdfdf76a2, 0xc82a, 0x4d63, { 0x90, 0x6a, 0x56, 0x44, 0xac, 0x45, 0x73, 0x85 } }, -1, "PUBLIC", NONE, NULL, PUBLIC },
	{ { 0x905e63b6, 0xc1bf, 0x494e, { 0xb2, 0x9c, 0x65, 0xb7, 0x32, 0xd3, 0xd2, 0x1a } }, 0x26, "ProgramFiles", NONE, NULL, NONE },
	{ { 0x7c5a40ef, 0xa0fb, 0x4bfc, { 0x87, 0x4a, 0xc0, 0xf2, 0xe0, 0xb9, 0xfa, 0x8e } }, 0x2a, "ProgramFiles(x86)", NONE, NULL, NONE },
	{ { 0xf7f1ed05, 0x9f6d, 0x47a2, { 0xaa, 0xae, 0x29, 0xd3, 0x17, 0xc6, 0xf0, 0x66 } }, 0x2b, "CommonProgramFiles", NONE, NULL, NONE },
	{ { 0xb4bfcc3a, 0xdb2c, 0x424c, { 0xb0, 0x29, 0x7f, 0xe9, 0x9a, 0x87, 0xc6, 0x41 } }, 0x10, NULL, PROFILE, "Desktop", NONE },
	{ { 0xfdd39ad0, 0x238f, 0x46af, { 0xad, 0xb4, 0x6c, 0x85, 0x48, 0x03, 0x69, 0xc7 } }, 0x05, NULL, PROFILE, "Documents", NONE },
	{ { 0x374de290, 0x123f, 0x4565, { 0x91, 0x64, 0x39, 0xc4, 0x92, 0x5e, 0x46, 0x7b } }, -1, NULL, PROFILE, "Downloads", NONE },
	{ { 0x4bd8d571, 0x6d19, 0x48d3, { 0xbe, 0x97, 0x42, 0x22, 0x20, 0x08, 0x0e, 0x43 } }, 0x0d, NULL, PROFILE, "Music", NONE },
	{ { 0x33e28130, 0x4e1e, 0x4676, { 0x83, 0x5a, 0x98, 0x39, 0x5c, 0x3b, 0xc3, 0xbb } }, 0x27, NULL, PROFILE, "Pictures", NONE },
	{ { 0x18989b1d, 0x99b5, 0x455b, { 0x84, 0x1c, 0xab, 0x7c, 0x74, 0xe4, 0xdd, 0xfc } }, 0x0e, NULL, PROFILE, "Videos", NONE },
	{ { 0xf38bf404, 0x1d43, 0x42f2, { 0x93, 0x05, 0x67, 0xde, 0x0b, 0x28, 0xfc, 0x23 } }, 0x24, NULL, NONE, NULL, NONE },
	{ { 0x1ac14e77, 0x02e7, 0x4e5d, { 0xb7, 0x44, 0x2e, 0xb1, 0xae, 0x51, 0x98, 0xb7 } }, 0x25, NULL, NONE, NULL, NONE },
};
#define CSIDL_DESKTOP_ITSELF 0x00 /* the desktop is its folder here */
#define FOLDER_WINDOWS 15
#define FOLDER_SYSTEM 16

static WCHAR *ascii_to_w(const char *s, WCHAR *buf)
{
	size_t i;

	for (i = 0; s[i]; i++)
		buf[i] = (WCHAR)s[i];
	buf[i] = 0;
	return buf;
}

static HRESULT folder_path(const struct folder *f, WCHAR *out, size_t size);

static const struct folder *folder_of_base(enum base b)
{
	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++)
		if (folders[i].self == b)
			return &folders[i];
	return NULL;
}

/* The folder's path into out (size WCHARs). */
static HRESULT folder_path(const struct folder *f, WCHAR *out, size_t size)
{
	WCHAR name[32], sub[32];
	DWORD len;

	if (f == &folders[FOLDER_WINDOWS] || f == &folders[FOLDER_SYSTEM]) {
		len = f == &folders[FOLDER_WINDOWS] ? GetWindowsDirectoryW(out, size) : GetSystemDirectoryW(out, size);
		return len && len < size ? S_OK : E_FAIL;
	}
	if (f->env) {
		len = GetEnvironmentVariableW(ascii_to_w(f->env, name), out, size);
		if (len && len < size)
			return S_OK;
		if (len)
			return HRESULT_FROM_WIN32(ERROR_FILENAME_EXCED_RANGE);
		if (f->base == NONE) {
			TRACE(misc, "%s is not in the environment\n", f->env);
			return HRESULT_FROM_WIN32(ERROR_ENVVAR_NOT_FOUND);
		}
	}
	HRESULT hr = folder_path(folder_of_base(f->base), out, size);
	if (FAILED(hr))
		return hr;
	len = wstr_len(out);
	ascii_to_w(f->sub, sub);
	if (len + 1 + wstr_len(sub) + 1 > size)
		return HRESULT_FROM_WIN32(ERROR_FILENAME_EXCED_RANGE);
	if (len && out[len - 1] != '\\')
		out[len++] = '\\';
	memcpy(out + len, sub, (wstr_len(sub) + 1) * sizeof(WCHAR));
	return S_OK;
}

/* Creates path and the folders above it that are missing. */
static BOOL create_folders(WCHAR *path)
{
	size_t len = wstr_len(path);

	if (GetFileAttributesW(path) != INVALID_FILE_ATTRIBUTES)
		return TRUE;
	for (size_t i = 3; i < len; i++) {
		if (path[i] != '\\')
			continue;
		path[i] = 0;
		if (GetFileAttributesW(path) == INVALID_FILE_ATTRIBUTES)
			CreateDirectoryW(path, NULL);
		path[i] = '\\';
	}
	return CreateDirectoryW(path, NULL) || GetLastError() == ERROR_ALREADY_EXISTS;
}

/* The folder's path checked (verify) or created (create) as asked. */
static HRESULT get_folder(const struct folder *f, BOOL verify, BOOL create, WCHAR *out, size_t size)
{
	HRESULT hr = folder_path(f, out, size);
	DWORD attr;

	if (FAILED(hr))
		return hr;
	if (create) {
		if (!create_folders(out))
			return HRESULT_FROM_WIN32(GetLastError());
	} else if (verify) {
		attr = GetFileAttributesW(out);
		if (attr == INVALID_FILE_ATTRIBUTES || !(attr & FILE_ATTRIBUTE_DIRECTORY))
			return HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND);
	}
	return S_OK;
}

static const struct folder *find_id(REFKNOWNFOLDERID id)
{
	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++)
		if (IsEqualGUID(id, &folders[i].id))
			return &folders[i];
	return NULL;
}

static const struct folder *find_csidl(int csidl)
{
	if (csidl == CSIDL_DESKTOP_ITSELF)
		csidl = 0x10;
	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++)
		if (folders[i].csidl == csidl)
			return &folders[i];
	return NULL;
}

HRESULT WINAPI SHGetKnownFolderPath(REFKNOWNFOLDERID id, DWORD flags, HANDLE token, PWSTR *out)
{
	const struct folder *f;
	WCHAR path[MAX_PATH];
	HRESULT hr;

	if (!out)
		return E_INVALIDARG;
	*out = NULL;
	if (!id || !(f = find_id(id)))
		return E_INVALIDARG;
	hr = get_folder(f, !(flags & KF_FLAG_DONT_VERIFY), !!(flags & KF_FLAG_CREATE), path, MAX_PATH);
	if (FAILED(hr))
		return hr;
	*out = CoTaskMemAlloc((wstr_len(path) + 1) * sizeof(WCHAR));
	if (!*out)
		return E_OUTOFMEMORY;
	memcpy(*out, path, (wstr_len(path) + 1) * sizeof(WCHAR));
	return S_OK;
}

/* path: MAX_PATH WCHARs.  SHGFP_TYPE_DEFAULT asks for the folder's
 * default place rather than where it was moved: they are the same here. */
HRESULT WINAPI SHGetFolderPathW(HWND hwnd, int csidl, HANDLE token, DWORD type, LPWSTR path)
{
	const struct folder *f = find_csidl(csidl & ~CSIDL_FLAG_MASK);
	HRESULT hr;

	if (!path)
		return E_INVALIDARG;
	*path = 0;
	if (!f)
		return E_INVALIDARG;
	hr = get_folder(f, !(csidl & CSIDL_FLAG_DONT_VERIFY), !!(csidl & CSIDL_FLAG_CREATE), path, MAX_PATH);
	if (FAILED(hr))
		*path = 0;
	return hr;
}

HRESULT WINAPI SHGetFolderPathA(HWND hwnd, int csidl, HANDLE token, DWORD type, LPSTR path)
{
	WCHAR w[MAX_PATH];
	HRESULT hr;

	if (!path)
		return E_INVALIDARG;
	*path = 0;
	hr = SHGetFolderPathW(hwnd, csidl, token, type, w);
	if (FAILED(hr))
		return hr;
	if (!WideCharToMultiByte(CP_ACP, 0, w, -1, path, MAX_PATH, NULL, NULL)) {
		*path = 0;
		return HRESULT_FROM_WIN32(ERROR_FILENAME_EXCED_RANGE);
	}
	return hr;
}

BOOL WINAPI SHGetSpecialFolderPathW(HWND hwnd, LPWSTR path, int csidl, BOOL create)
{
	return SHGetFolderPathW(hwnd, csidl | (create ? CSIDL_FLAG_CREATE : 0), NULL, SHGFP_TYPE_CURRENT, path) == S_OK;
}

BOOL WINAPI SHGetSpecialFolderPathA(HWND hwnd, LPSTR path, int csidl, BOOL create)
{
	return SHGetFolderPathA(hwnd, csidl | (create ? CSIDL_FLAG_CREATE : 0), NULL, SHGFP_TYPE_CURRENT, path) == S_OK;
}
