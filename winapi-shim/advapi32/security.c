/* The user and token queries console programs make: GetUserName,
 * OpenProcessToken/OpenThreadToken, GetTokenInformation (TokenUser,
 * TokenElevation, TokenElevationType), and the SID helpers around them.
 *
 * The user is the Linux user (getpwuid's name).  Its SID is an account
 * SID of this machine: S-1-5-21-A-B-C-R, A-B-C the first twelve bytes of
 * /etc/machine-id (zeros without one) and R = 1000 + uid, so it is the
 * same in every run; a file's owner is the account SID of its Linux owner
 * the same way (filesec.c).  A token is elevated when the process runs as
 * root. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advapi32/advapi32_private.h"
#include "core/codepage.h"
#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/thread.h"
#include "core/wstr.h"

struct token {
	struct object obj;
};

static void token_destroy(struct object *obj)
{
	free(container_of(obj, struct token, obj));
}

static const struct object_ops token_ops = {
	.type_name = "token",
	.destroy = token_destroy,
};

/* The account SID of Linux user uid (the user's own: uid = getuid()). */
void account_sid(SID *sid, unsigned int uid)
{
	static const SID_IDENTIFIER_AUTHORITY nt = { SECURITY_NT_AUTHORITY };
	DWORD machine[3] = { 0, 0, 0 };
	char hex[33] = "";
	FILE *f = fopen("/etc/machine-id", "re");

	if (f) {
		if (fscanf(f, "%32s", hex) == 1 && strlen(hex) >= 24)
			for (int i = 0; i < 3; i++) {
				char part[9];

				memcpy(part, hex + 8 * i, 8);
				part[8] = 0;
				machine[i] = (DWORD)strtoul(part, NULL, 16);
			}
		fclose(f);
	}
	sid->Revision = SID_REVISION;
	sid->SubAuthorityCount = 5;
	sid->IdentifierAuthority = nt;
	sid->SubAuthority[0] = SECURITY_NT_NON_UNIQUE;
	for (int i = 0; i < 3; i++)
		sid->SubAuthority[1 + i] = machine[i];
	sid->SubAuthority[4] = 1000 + (DWORD)uid;
}

static void user_sid(SID *sid)
{
	account_sid(sid, (unsigned int)getuid());
}

static HANDLE new_token(DWORD access)
{
	struct token *t = malloc(sizeof(*t));
	HANDLE h;

	if (!t) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&t->obj, &token_ops);
	h = handle_create(&t->obj, access, 0);
	object_unref(&t->obj);
	return h;
}

BOOL WINAPI OpenProcessToken(HANDLE process, DWORD access, PHANDLE token)
{
	struct object *obj = handle_get(process, &process_ops);

	if (!obj)
		return FALSE;
	object_unref(obj);
	if (!token) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*token = new_token(access);
	return *token != NULL;
}

/* No thread impersonates anyone: there is no thread token. */
BOOL WINAPI OpenThreadToken(HANDLE thread, DWORD access, BOOL as_self, PHANDLE token)
{
	struct object *obj = handle_get(thread, &thread_ops);

	if (!obj)
		return FALSE;
	object_unref(obj);
	SetLastError(ERROR_NO_TOKEN);
	return FALSE;
}

BOOL token_check(HANDLE token, DWORD access)
{
	struct object *obj = handle_get_access(token, &token_ops, access);

	if (!obj)
		return FALSE;
	object_unref(obj);
	return TRUE;
}

BOOL WINAPI GetTokenInformation(HANDLE token, TOKEN_INFORMATION_CLASS cls, LPVOID info, DWORD size,
				PDWORD ret_len)
{
	struct object *obj = handle_get_access(token, &token_ops, TOKEN_QUERY);
	DWORD need;

	TRACE(misc, "%p, class %d, size %u\n", token, cls, size);
	if (!obj)
		return FALSE;
	object_unref(obj);
	switch (cls) {
	case TokenUser:
		need = sizeof(TOKEN_USER) + USER_SID_SIZE;
		break;
	case TokenElevation:
		need = sizeof(TOKEN_ELEVATION);
		break;
	case TokenElevationType:
		need = sizeof(TOKEN_ELEVATION_TYPE);
		break;
	default:
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (ret_len)
		*ret_len = need;
	if (size < need || !info) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	switch (cls) {
	case TokenUser: {
		TOKEN_USER *tu = info;
		SID *sid = (SID *)(tu + 1);

		user_sid(sid);
		tu->User.Sid = sid;
		tu->User.Attributes = 0;
		break;
	}
	case TokenElevation:
		((TOKEN_ELEVATION *)info)->TokenIsElevated = getuid() == 0;
		break;
	default:
		/* No split tokens (UAC): the token is what it is. */
		*(TOKEN_ELEVATION_TYPE *)info = TokenElevationTypeDefault;
		break;
	}
	return TRUE;
}

BOOL WINAPI IsValidSid(PSID psid)
{
	SID *sid = psid;

	return sid && sid->Revision == SID_REVISION && sid->SubAuthorityCount <= SID_MAX_SUB_AUTHORITIES;
}

DWORD WINAPI GetLengthSid(PSID psid)
{
	return 8 + 4 * ((SID *)psid)->SubAuthorityCount;
}

BOOL WINAPI EqualSid(PSID a, PSID b)
{
	if (!IsValidSid(a) || !IsValidSid(b)) {
		SetLastError(ERROR_INVALID_SID);
		return FALSE;
	}
	SetLastError(ERROR_SUCCESS);
	return GetLengthSid(a) == GetLengthSid(b) && !memcmp(a, b, GetLengthSid(a));
}

/* "S-1-5-21-...": the authority in decimal when it fits 32 bits, else
 * in hex, as Windows writes it. */
static char *sid_string(const SID *sid)
{
	const BYTE *v = sid->IdentifierAuthority.Value;
	char *s = malloc(16 + 11 + 11 * SID_MAX_SUB_AUTHORITIES), *p = s;

	if (!s)
		return NULL;
	if (v[0] || v[1])
		p += sprintf(p, "S-%u-0x%02x%02x%02x%02x%02x%02x", sid->Revision, v[0], v[1], v[2], v[3], v[4],
			     v[5]);
	else
		p += sprintf(p, "S-%u-%u", sid->Revision,
			     (unsigned int)v[2] << 24 | v[3] << 16 | v[4] << 8 | v[5]);
	for (int i = 0; i < sid->SubAuthorityCount; i++)
		p += sprintf(p, "-%u", (unsigned int)sid->SubAuthority[i]);
	return s;
}

/* The string is LocalAlloc'ed: the caller frees it with LocalFree. */
BOOL WINAPI ConvertSidToStringSidW(PSID psid, LPWSTR *out)
{
	char *s;
	size_t n;

	if (!out || !IsValidSid(psid)) {
		SetLastError(!out ? ERROR_INVALID_PARAMETER : ERROR_INVALID_SID);
		return FALSE;
	}
	s = sid_string(psid);
	if (!s || !(*out = LocalAlloc(LMEM_FIXED, ((n = strlen(s)) + 1) * sizeof(WCHAR)))) {
		free(s);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	for (size_t i = 0; i <= n; i++)
		(*out)[i] = (unsigned char)s[i];
	free(s);
	return TRUE;
}

BOOL WINAPI ConvertSidToStringSidA(PSID psid, LPSTR *out)
{
	char *s;

	if (!out || !IsValidSid(psid)) {
		SetLastError(!out ? ERROR_INVALID_PARAMETER : ERROR_INVALID_SID);
		return FALSE;
	}
	s = sid_string(psid);
	if (!s || !(*out = LocalAlloc(LMEM_FIXED, strlen(s) + 1))) {
		free(s);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	strcpy(*out, s);
	free(s);
	return TRUE;
}

/* The Linux user's name (getpwuid, else $USER). */
static WCHAR *user_name(void)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	const char *name = NULL;

	if (!getpwuid_r(getuid(), &pw, buf, sizeof(buf), &res) && res)
		name = res->pw_name;
	if (!name)
		name = getenv("USER");
	return utf8_to_utf16_dup(name && *name ? name : "user");
}

/* size: in characters, the terminator included, in and out. */
BOOL WINAPI GetUserNameW(LPWSTR buf, LPDWORD size)
{
	WCHAR *name = user_name();
	DWORD n;

	if (!name) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	if (!size) {
		free(name);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	n = (DWORD)wstr_len(name) + 1;
	if (!buf || *size < n) {
		*size = n;
		free(name);
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memcpy(buf, name, n * sizeof(WCHAR));
	*size = n;
	free(name);
	return TRUE;
}

BOOL WINAPI GetUserNameA(LPSTR buf, LPDWORD size)
{
	WCHAR *name = user_name();
	char *a = name ? utf16_to_cp_dup(cp_ansi(), name) : NULL;
	DWORD n;

	free(name);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	if (!size) {
		free(a);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	n = (DWORD)strlen(a) + 1;
	if (!buf || *size < n) {
		*size = n;
		free(a);
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memcpy(buf, a, n);
	*size = n;
	free(a);
	return TRUE;
}
