/* Well-known SIDs and the token's groups: CreateWellKnownSid,
 * IsWellKnownSid, CopySid, CheckTokenMembership.
 *
 * The well-known SIDs are those of Microsoft's WELL_KNOWN_SID_TYPE list
 * that need no domain; the ones that do (WinAccount*, ...) are not
 * implemented and stop the program naming them.  The process's token
 * (security.c) holds the user's account SID, Everyone, Local,
 * Interactive, Authenticated Users and BUILTIN\Users, and
 * BUILTIN\Administrators when it is elevated (ndrun runs as root): an
 * administrator's unelevated token has that group deny-only, so it is
 * not a member there either. */
#include <string.h>
#include <unistd.h>

#include "advapi32/advapi32_private.h"
#include "core/debug.h"
#include "core/unimpl.h"

static const struct well_known {
	WELL_KNOWN_SID_TYPE type;
	BYTE authority;
	BYTE count;
	DWORD sub[2];
} well_known[] = {
	{ WinNullSid, 0, 1, { 0 } },
	{ WinWorldSid, 1, 1, { 0 } },
	{ WinLocalSid, 2, 1, { 0 } },
	{ WinCreatorOwnerSid, 3, 1, { 0 } },
	{ WinCreatorGroupSid, 3, 1, { 1 } },
	{ WinNtAuthoritySid, 5, 0, { 0 } },
	{ WinDialupSid, 5, 1, { 1 } },
	{ WinNetworkSid, 5, 1, { 2 } },
	{ WinBatchSid, 5, 1, { 3 } },
	{ WinInteractiveSid, 5, 1, { 4 } },
	{ WinServiceSid, 5, 1, { 6 } },
	{ WinAnonymousSid, 5, 1, { 7 } },
	{ WinSelfSid, 5, 1, { 10 } },
	{ WinAuthenticatedUserSid, 5, 1, { 11 } },
	{ WinRestrictedCodeSid, 5, 1, { 12 } },
	{ WinLocalSystemSid, 5, 1, { 18 } },
	{ WinLocalServiceSid, 5, 1, { 19 } },
	{ WinNetworkServiceSid, 5, 1, { 20 } },
	{ WinBuiltinDomainSid, 5, 1, { 32 } },
	{ WinBuiltinAdministratorsSid, 5, 2, { 32, 544 } },
	{ WinBuiltinUsersSid, 5, 2, { 32, 545 } },
	{ WinBuiltinGuestsSid, 5, 2, { 32, 546 } },
	{ WinBuiltinPowerUsersSid, 5, 2, { 32, 547 } },
};

static const struct well_known *find_well_known(WELL_KNOWN_SID_TYPE type)
{
	for (size_t i = 0; i < sizeof(well_known) / sizeof(well_known[0]); i++)
		if (well_known[i].type == type)
			return &well_known[i];
	return NULL;
}

static void make_sid(SID *sid, const struct well_known *w)
{
	memset(&sid->IdentifierAuthority, 0, sizeof(sid->IdentifierAuthority));
	sid->Revision = SID_REVISION;
	sid->SubAuthorityCount = w->count;
	sid->IdentifierAuthority.Value[5] = w->authority;
	for (int i = 0; i < w->count; i++)
		sid->SubAuthority[i] = w->sub[i];
}

BOOL WINAPI CreateWellKnownSid(WELL_KNOWN_SID_TYPE type, PSID domain, PSID out, DWORD *size)
{
	const struct well_known *w = find_well_known(type);
	DWORD need;

	TRACE(misc, "type %d\n", type);
	if (!w)
		unimplemented_case("advapi32.CreateWellKnownSid", "type %d", type);
	(void)domain; /* none of the types implemented takes one */
	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	need = 8 + 4 * w->count;
	if (!out || *size < need) {
		*size = need;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	make_sid(out, w);
	*size = need;
	return TRUE;
}

BOOL WINAPI IsWellKnownSid(PSID sid, WELL_KNOWN_SID_TYPE type)
{
	const struct well_known *w = find_well_known(type);
	DWORD buf[SECURITY_MAX_SID_SIZE / sizeof(DWORD) + 1];

	if (!w || !IsValidSid(sid))
		return FALSE;
	make_sid((SID *)buf, w);
	return EqualSid(sid, buf);
}

BOOL WINAPI CopySid(DWORD size, PSID dst, PSID src)
{
	DWORD need;

	if (!IsValidSid(src)) {
		SetLastError(ERROR_INVALID_SID);
		return FALSE;
	}
	need = GetLengthSid(src);
	if (size < need) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memcpy(dst, src, need);
	return TRUE;
}

BOOL WINAPI CheckTokenMembership(HANDLE token, PSID sid, PBOOL is_member)
{
	static const WELL_KNOWN_SID_TYPE groups[] = { WinWorldSid, WinLocalSid, WinInteractiveSid,
						      WinAuthenticatedUserSid, WinBuiltinUsersSid };
	DWORD user[USER_SID_SIZE / sizeof(DWORD)];

	if (!is_member || !IsValidSid(sid)) {
		SetLastError(!is_member ? ERROR_INVALID_PARAMETER : ERROR_INVALID_SID);
		return FALSE;
	}
	/* NULL: the calling thread's token, which is the process's here (no
	 * thread impersonates) */
	if (token && !token_check(token, TOKEN_QUERY))
		return FALSE;
	account_sid((SID *)user, (unsigned int)getuid());
	*is_member = EqualSid(sid, user);
	for (size_t i = 0; !*is_member && i < sizeof(groups) / sizeof(groups[0]); i++)
		*is_member = IsWellKnownSid(sid, groups[i]);
	if (!*is_member && getuid() == 0)
		*is_member = IsWellKnownSid(sid, WinBuiltinAdministratorsSid);
	SetLastError(ERROR_SUCCESS);
	return TRUE;
}
