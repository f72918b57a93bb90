/* The version resource of a builtin DLL, which has no file to read it
 * from (programs ask kernel32.dll's version to learn Windows'): made up
 * at run time with the Windows version ndrun reports (RtlGetVersion) as
 * file and product version, the DLL's names, and "ndshim" as the
 * product, in US English / Unicode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "version/version_private.h"

#include <winternl.h>


struct buf {
	BYTE *p;
	size_t len, cap;
};

static size_t put(struct buf *b, const void *data, size_t n)
{
	size_t at = b->len;

	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2;
		BYTE *p = realloc(b->p, cap);
		if (!p)
			return (size_t)-1;
		b->p = p;
		b->cap = cap;
	}
	if (data)
		memcpy(b->p + b->len, data, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
	return at;
}

static void align4(struct buf *b)
{
	while (b->len % 4)
		put(b, NULL, 1);
}

/* Opens a node: its header, key and value; returns its offset, to be
 * closed with node_end once its children are written. */
static size_t node_begin(struct buf *b, const char *key, WORD type, const void *value, WORD vlen)
{
	size_t at;
	WORD hdr[3] = { 0, vlen, type };
	size_t vbytes = type == 1 ? (size_t)vlen * 2 : vlen;

	align4(b);
	at = put(b, hdr, sizeof(hdr));
	for (size_t i = 0; i <= strlen(key); i++) {
		WCHAR c = (unsigned char)key[i];
		put(b, &c, 2);
	}
	align4(b);
	if (vbytes)
		put(b, value, vbytes);
	return at;
}

static void node_end(struct buf *b, size_t at)
{
	WORD len = (WORD)(b->len - at);

	memcpy(b->p + at, &len, 2);
}

static void string_node(struct buf *b, const char *key, const char *value)
{
	WCHAR w[128];
	size_t n = strlen(value), at;

	for (size_t i = 0; i <= n && i < 127; i++)
		w[i] = (unsigned char)value[i];
	w[127] = 0;
	at = node_begin(b, key, 1, w, (WORD)(n + 1));
	node_end(b, at);
}

BYTE *version_builtin_resource(const char *dll, size_t *len)
{
	RTL_OSVERSIONINFOEXW v;
	VS_FIXEDFILEINFO ffi;
	struct buf b = { NULL, 0, 0 };
	char version[64], internal[64], desc[96];
	DWORD translation = MAKELONG(0x0409, 1200);
	size_t root, sfi, table, vfi, t;
	const char *dot;

	memset(&v, 0, sizeof(v));
	v.dwOSVersionInfoSize = sizeof(v);
	RtlGetVersion(&v);
	memset(&ffi, 0, sizeof(ffi));
	ffi.dwSignature = VS_FFI_SIGNATURE;
	ffi.dwStrucVersion = VS_FFI_STRUCVERSION;
	ffi.dwFileVersionMS = ffi.dwProductVersionMS = MAKELONG(v.dwMinorVersion, v.dwMajorVersion);
	ffi.dwFileVersionLS = ffi.dwProductVersionLS = MAKELONG(0, v.dwBuildNumber);
	ffi.dwFileFlagsMask = VS_FFI_FILEFLAGSMASK;
	ffi.dwFileOS = VOS_NT_WINDOWS32;
	ffi.dwFileType = VFT_DLL;
	snprintf(version, sizeof(version), "%lu.%lu.%lu.0", (unsigned long)v.dwMajorVersion,
		 (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
	dot = strrchr(dll, '.');
	snprintf(internal, sizeof(internal), "%.*s", dot ? (int)(dot - dll) : (int)strlen(dll), dll);
	snprintf(desc, sizeof(desc), "%s (ndrun builtin)", dll);

	root = node_begin(&b, "VS_VERSION_INFO", 0, &ffi, sizeof(ffi));
	sfi = node_begin(&b, "StringFileInfo", 1, NULL, 0);
	table = node_begin(&b, "040904B0", 1, NULL, 0);
	string_node(&b, "FileDescription", desc);
	string_node(&b, "FileVersion", version);
	string_node(&b, "InternalName", internal);
	string_node(&b, "OriginalFilename", dll);
	string_node(&b, "ProductName", "ndshim");
	string_node(&b, "ProductVersion", version);
	node_end(&b, table);
	node_end(&b, sfi);
	vfi = node_begin(&b, "VarFileInfo", 1, NULL, 0);
	t = node_begin(&b, "Translation", 0, &translation, sizeof(translation));
	node_end(&b, t);
	node_end(&b, vfi);
	node_end(&b, root);
	if (!b.p || b.len > 0xffff) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

/* The builtin DLL a name means: a bare DLL name, or one in the system
 * folder (where GetModuleFileName places the builtins). */
const char *version_builtin_name(const WCHAR *name)
{
	static const char sysdir[] = "c:\\windows\\system32\\";
	char a[MAX_PATH];
	const struct builtin_dll *dll;
	size_t i;

	for (i = 0; name[i] && i < MAX_PATH - 1; i++) {
		if (name[i] > 0x7f)
			return NULL;
		a[i] = (char)(name[i] == '/' ? '\\' : name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
	}
	a[i] = 0;
	const char *base = a;
	if (!strncmp(a, sysdir, sizeof(sysdir) - 1))
		base = a + sizeof(sysdir) - 1;
	if (strchr(base, '\\') || strchr(base, ':'))
		return NULL;
	dll = builtin_find(base);
	return dll ? dll->name : NULL;
}
