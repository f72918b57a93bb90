/* A file's security as Windows describes it (GetNamedSecurityInfoW for
 * SE_FILE_OBJECT): the owner and the DACL, from the Linux owner and mode.
 *
 * The owner is the account SID of the file's Linux owner (security.c's
 * rule, so a file the program made is owned by its token's user).  The
 * DACL allows the owner what the owner's mode bits allow and Everyone
 * what the "other" bits allow (read: FILE_GENERIC_READ, write:
 * FILE_GENERIC_WRITE and DELETE, execute: FILE_GENERIC_EXECUTE; the owner
 * may always read and change the security, as a Linux owner may chmod).
 * The group's bits have no SID to go to and are not described.  The
 * security descriptor is one self-relative block the caller frees with
 * LocalFree, which the returned pointers point into.  The group and the
 * SACL, and objects other than files, are not implemented and stop the
 * program naming them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "advapi32/advapi32_private.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/path.h"
#include "core/unimpl.h"

#define WORLD_SID_SIZE (8 + 4)

static DWORD rights_of(mode_t mode, mode_t r, mode_t w, mode_t x)
{
	return ((mode & r) ? FILE_GENERIC_READ : 0) | ((mode & w) ? FILE_GENERIC_WRITE | DELETE : 0) |
	       ((mode & x) ? FILE_GENERIC_EXECUTE : 0);
}

/* An ACCESS_ALLOWED_ACE for sid at p; its size. */
static DWORD put_ace(BYTE *p, DWORD mask, const SID *sid)
{
	ACCESS_ALLOWED_ACE *ace = (ACCESS_ALLOWED_ACE *)p;
	DWORD len = GetLengthSid((PSID)sid);

	ace->Header.AceType = ACCESS_ALLOWED_ACE_TYPE;
	ace->Header.AceFlags = 0;
	ace->Header.AceSize = (WORD)(offsetof(ACCESS_ALLOWED_ACE, SidStart) + len);
	ace->Mask = mask;
	memcpy(&ace->SidStart, sid, len);
	return ace->Header.AceSize;
}

/* The self-relative descriptor of st: owner (when asked) and DACL (when
 * asked), LocalAlloc'ed; NULL when out of memory. */
static SECURITY_DESCRIPTOR_RELATIVE *describe(const struct stat *st, SECURITY_INFORMATION info)
{
	DWORD owner[USER_SID_SIZE / sizeof(DWORD)], world[WORLD_SID_SIZE / sizeof(DWORD)];
	DWORD owner_rights = rights_of(st->st_mode, S_IRUSR, S_IWUSR, S_IXUSR) | READ_CONTROL | WRITE_DAC;
	DWORD world_rights = rights_of(st->st_mode, S_IROTH, S_IWOTH, S_IXOTH);
	size_t ace_base = offsetof(ACCESS_ALLOWED_ACE, SidStart), size = sizeof(SECURITY_DESCRIPTOR_RELATIVE);
	SECURITY_DESCRIPTOR_RELATIVE *sd;
	SID *w = (SID *)world;
	BYTE *p;

	account_sid((SID *)owner, (unsigned int)st->st_uid);
	w->Revision = SID_REVISION;
	w->SubAuthorityCount = 1;
	memset(&w->IdentifierAuthority, 0, sizeof(w->IdentifierAuthority));
	w->IdentifierAuthority.Value[5] = 1; /* S-1-1-0, Everyone */
	w->SubAuthority[0] = 0;
	if (info & OWNER_SECURITY_INFORMATION)
		size += USER_SID_SIZE;
	if (info & DACL_SECURITY_INFORMATION)
		size += sizeof(ACL) + ace_base + USER_SID_SIZE + (world_rights ? ace_base + WORLD_SID_SIZE : 0);
	if (!(sd = LocalAlloc(LMEM_FIXED | LMEM_ZEROINIT, size)))
		return NULL;
	sd->Revision = SECURITY_DESCRIPTOR_REVISION;
	sd->Control = SE_SELF_RELATIVE;
	p = (BYTE *)(sd + 1);
	if (info & OWNER_SECURITY_INFORMATION) {
		sd->Owner = (DWORD)(p - (BYTE *)sd);
		memcpy(p, owner, USER_SID_SIZE);
		p += USER_SID_SIZE;
	}
	if (info & DACL_SECURITY_INFORMATION) {
		ACL *acl = (ACL *)p;

		sd->Control |= SE_DACL_PRESENT;
		sd->Dacl = (DWORD)(p - (BYTE *)sd);
		acl->AclRevision = ACL_REVISION;
		p += sizeof(ACL);
		p += put_ace(p, owner_rights, (SID *)owner);
		acl->AceCount = 1;
		if (world_rights) {
			p += put_ace(p, world_rights, w);
			acl->AceCount++;
		}
		acl->AclSize = (WORD)(p - (BYTE *)acl);
	}
	return sd;
}

DWORD WINAPI GetNamedSecurityInfoW(LPWSTR name, SE_OBJECT_TYPE type, SECURITY_INFORMATION info, PSID *owner,
				   PSID *group, PACL *dacl, PACL *sacl, PSECURITY_DESCRIPTOR *out)
{
	SECURITY_DESCRIPTOR_RELATIVE *sd;
	struct stat st;
	DWORD err;
	char *u;

	TRACE(misc, "%s type %d info %#x\n", debugstr_w(name), type, (unsigned)info);
	if (type != SE_FILE_OBJECT)
		unimplemented_case("advapi32.GetNamedSecurityInfoW", "object type %d", type);
	if (info & ~(OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION))
		unimplemented_case("advapi32.GetNamedSecurityInfoW", "security information %#lx",
				   (unsigned long)info);
	if (!name || !out)
		return ERROR_INVALID_PARAMETER;
	if (!(u = path_to_unix(name, &err)))
		return err;
	if (stat(u, &st)) {
		err = win32_error_from_errno(errno);
		free(u);
		return err;
	}
	free(u);
	if (!(sd = describe(&st, info)))
		return ERROR_NOT_ENOUGH_MEMORY;
	if (owner)
		*owner = sd->Owner ? (BYTE *)sd + sd->Owner : NULL;
	if (group)
		*group = NULL;
	if (dacl)
		*dacl = sd->Dacl ? (PACL)((BYTE *)sd + sd->Dacl) : NULL;
	if (sacl)
		*sacl = NULL;
	*out = sd;
	return ERROR_SUCCESS;
}
