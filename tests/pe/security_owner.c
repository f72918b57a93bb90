/* Well-known SIDs, token membership and a file's owner and DACL, as
 * libgit2 checks that a repository belongs to the user (git-cliff does).
 *
 * Windows rules checked (Microsoft's CreateWellKnownSid, IsWellKnownSid,
 * CopySid, CheckTokenMembership and GetNamedSecurityInfoW docs):
 *  - CreateWellKnownSid gives the documented SIDs (S-1-1-0, S-1-5-18,
 *    S-1-5-32-544), says the size it needs when the buffer is short, and
 *    IsWellKnownSid recognises what it made and nothing else;
 *  - CopySid copies, and fails with ERROR_INSUFFICIENT_BUFFER when short
 *    (Wine 8 sets no error: ok_todo_wine);
 *  - the process's token (NULL: the caller's) holds its user (Wine 8
 *    checks only the groups: ok_todo_wine) and Everyone, not LocalSystem, and BUILTIN\Administrators exactly when
 *    it is elevated (an unelevated administrator's is deny-only);
 *  - GetNamedSecurityInfoW on a file the program created: ERROR_SUCCESS,
 *    the owner is the token's user, the DACL (when asked for) allows that
 *    user to read and write it, the descriptor is freed with LocalFree;
 *    a missing file: ERROR_FILE_NOT_FOUND. */
#include <aclapi.h>
#include <sddl.h>

#include "test.h"

static void check_well_known(WELL_KNOWN_SID_TYPE type, const char *want)
{
	DWORD buf[SECURITY_MAX_SID_SIZE / sizeof(DWORD) + 1], size = 4;
	char *s = NULL;
	BOOL r;

	SetLastError(0xdeadbeef);
	r = CreateWellKnownSid(type, NULL, buf, &size);
	ok(!r && GetLastError() == ERROR_INSUFFICIENT_BUFFER && size > 4 && size <= sizeof(buf),
	   "type %d, short buffer: %d, error %lu, size %lu\n", type, r, GetLastError(), size);
	size = sizeof(buf);
	ok(CreateWellKnownSid(type, NULL, buf, &size), "type %d: error %lu\n", type, GetLastError());
	ok(size == GetLengthSid(buf), "type %d: size %lu, length %lu\n", type, size, GetLengthSid(buf));
	ok(ConvertSidToStringSidA(buf, &s) && s && !strcmp(s, want), "type %d: %s, not %s\n", type, s ? s : "?",
	   want);
	LocalFree(s);
	ok(IsWellKnownSid(buf, type), "IsWellKnownSid(%s, %d)\n", want, type);
	ok(!IsWellKnownSid(buf, type == WinWorldSid ? WinLocalSystemSid : WinWorldSid), "%s is two SIDs\n", want);
}

static BOOL member(PSID sid)
{
	BOOL is = -1;

	ok(CheckTokenMembership(NULL, sid, &is), "CheckTokenMembership: %lu\n", GetLastError());
	return is;
}

static PSID well_known(WELL_KNOWN_SID_TYPE type, DWORD *buf, DWORD size)
{
	CreateWellKnownSid(type, NULL, buf, &size);
	return buf;
}

int main(void)
{
	DWORD sidbuf[SECURITY_MAX_SID_SIZE / sizeof(DWORD) + 1], copy[SECURITY_MAX_SID_SIZE / sizeof(DWORD) + 1];
	BYTE userbuf[256];
	TOKEN_USER *tu = (TOKEN_USER *)userbuf;
	TOKEN_ELEVATION elev = { 0 };
	WCHAR dir[MAX_PATH], file[MAX_PATH], missing[MAX_PATH];
	PSECURITY_DESCRIPTOR sd = NULL;
	PSID owner = NULL;
	PACL dacl = NULL;
	HANDLE token, h;
	DWORD len, err;

	check_well_known(WinWorldSid, "S-1-1-0");
	check_well_known(WinLocalSystemSid, "S-1-5-18");
	check_well_known(WinBuiltinAdministratorsSid, "S-1-5-32-544");

	well_known(WinBuiltinUsersSid, sidbuf, sizeof(sidbuf));
	SetLastError(0xdeadbeef);
	ok(!CopySid(8, copy, sidbuf), "CopySid into 8 bytes succeeded\n");
	/* RtlCopySid's STATUS_BUFFER_TOO_SMALL; Wine 8 leaves the last error
	 * as it was (seen under wine64) */
	ok_todo_wine(GetLastError() == ERROR_INSUFFICIENT_BUFFER, "CopySid short: error %lu\n", GetLastError());
	ok(CopySid(sizeof(copy), copy, sidbuf) && EqualSid(copy, sidbuf), "CopySid\n");

	ok(OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token), "OpenProcessToken: %lu\n", GetLastError());
	ok(GetTokenInformation(token, TokenUser, tu, sizeof(userbuf), &len), "TokenUser: %lu\n", GetLastError());
	ok(GetTokenInformation(token, TokenElevation, &elev, sizeof(elev), &len), "TokenElevation: %lu\n",
	   GetLastError());
	CloseHandle(token);
	/* the user's SID is among the token's enabled SIDs; Wine 8 looks at
	 * the groups only (seen under wine64) */
	ok_todo_wine(member(tu->User.Sid) == TRUE, "not a member of its own user\n");
	ok(member(well_known(WinWorldSid, sidbuf, sizeof(sidbuf))) == TRUE, "not in Everyone\n");
	ok(member(well_known(WinLocalSystemSid, sidbuf, sizeof(sidbuf))) == FALSE, "LocalSystem\n");
	ok(member(well_known(WinBuiltinAdministratorsSid, sidbuf, sizeof(sidbuf))) == !!elev.TokenIsElevated,
	   "Administrators membership is not the elevation (%lu)\n", elev.TokenIsElevated);

	GetTempPathW(MAX_PATH, dir);
	lstrcpyW(file, dir);
	lstrcatW(file, L"ndshim_security_owner.tmp");
	lstrcpyW(missing, dir);
	lstrcatW(missing, L"ndshim_no_such_file.tmp");
	h = CreateFileW(file, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFileW: %lu\n", GetLastError());
	CloseHandle(h);

	err = GetNamedSecurityInfoW(file, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
				    &owner, NULL, &dacl, NULL, &sd);
	ok(err == ERROR_SUCCESS && sd && owner && dacl, "GetNamedSecurityInfoW: %lu\n", err);
	if (err == ERROR_SUCCESS && owner && dacl) {
		BYTE *ace = (BYTE *)(dacl + 1);
		ACCESS_MASK allowed = 0;

		ok(IsValidSid(owner) && EqualSid(owner, tu->User.Sid), "the owner is not the token's user\n");
		ok(dacl->AclRevision >= ACL_REVISION && dacl->AceCount >= 1, "DACL revision %u, %u ACEs\n",
		   dacl->AclRevision, dacl->AceCount);
		for (WORD i = 0; i < dacl->AceCount; i++, ace += ((ACE_HEADER *)ace)->AceSize) {
			ACCESS_ALLOWED_ACE *a = (ACCESS_ALLOWED_ACE *)ace;

			if (a->Header.AceType == ACCESS_ALLOWED_ACE_TYPE && EqualSid(&a->SidStart, tu->User.Sid))
				allowed |= a->Mask;
		}
		ok((allowed & (FILE_GENERIC_READ | FILE_GENERIC_WRITE)) == (FILE_GENERIC_READ | FILE_GENERIC_WRITE) ||
			   (allowed & GENERIC_ALL) || (allowed & FILE_ALL_ACCESS) == FILE_ALL_ACCESS,
		   "the owner may not read and write: %#lx\n", allowed);
	}
	ok(LocalFree(sd) == NULL, "LocalFree of the descriptor\n");

	sd = NULL;
	err = GetNamedSecurityInfoW(missing, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL, NULL, NULL,
				    &sd);
	ok(err == ERROR_FILE_NOT_FOUND, "a missing file: %lu\n", err);
	DeleteFileW(file);
	return test_summary();
}
