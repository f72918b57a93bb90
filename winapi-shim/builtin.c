#include <string.h>
#include <strings.h>

#include "builtin.h"

/* The registry: one line per builtin DLL. */
extern const struct builtin_dll builtin_advapi32, builtin_bcrypt, builtin_bcryptprimitives, builtin_combase,
	builtin_crypt32, builtin_dbghelp, builtin_iphlpapi, builtin_kernel32, builtin_kernelbase, builtin_msvcrt,
	builtin_mswsock, builtin_ndshim, builtin_netapi32, builtin_ntdll, builtin_ole32, builtin_oleaut32,
	builtin_pdh, builtin_powrprof, builtin_psapi, builtin_secur32, builtin_shell32, builtin_shlwapi,
	builtin_ucrtbase, builtin_user32, builtin_userenv, builtin_vcruntime140, builtin_vcruntime140_1,
	builtin_version, builtin_winmm, builtin_ws2_32, builtin_wsock32;

const struct builtin_dll *const builtin_dlls[] = {
	&builtin_advapi32,
	&builtin_bcrypt,
	&builtin_bcryptprimitives,
	&builtin_combase,
	&builtin_crypt32,
	&builtin_dbghelp,
	&builtin_iphlpapi,
	&builtin_kernel32,
	&builtin_kernelbase,
	&builtin_msvcrt,
	&builtin_mswsock,
	&builtin_ndshim,
	&builtin_netapi32,
	&builtin_ntdll,
	&builtin_ole32,
	&builtin_oleaut32,
	&builtin_pdh,
	&builtin_powrprof,
	&builtin_psapi,
	&builtin_secur32,
	&builtin_shell32,
	&builtin_shlwapi,
	&builtin_ucrtbase,
	&builtin_user32,
	&builtin_userenv,
	&builtin_vcruntime140,
	&builtin_vcruntime140_1,
	&builtin_version,
	&builtin_winmm,
	&builtin_ws2_32,
	&builtin_wsock32,
};
const unsigned int builtin_dll_count = sizeof(builtin_dlls) / sizeof(builtin_dlls[0]);

const struct builtin_dll *builtin_find(const char *name)
{
	size_t len = strlen(name);

	if (len > 4 && !strcasecmp(name + len - 4, ".dll"))
		len -= 4;
	for (unsigned int i = 0; i < builtin_dll_count; i++) {
		const char *b = builtin_dlls[i]->name;
		if (strlen(b) == len + 4 && !strncasecmp(b, name, len))
			return builtin_dlls[i];
	}
	return NULL;
}

const void *builtin_lookup_name(const struct builtin_dll *dll, const char *name)
{
	unsigned int lo = 0, hi = dll->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcmp(name, dll->exports[mid].name);
		if (!c)
			return dll->exports[mid].addr;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return dll->also ? builtin_lookup_name(dll->also, name) : NULL;
}

const void *builtin_lookup_ordinal(const struct builtin_dll *dll, unsigned int ordinal)
{
	for (unsigned int i = 0; i < dll->count; i++)
		if (ordinal && dll->exports[i].ordinal == ordinal)
			return dll->exports[i].addr;
	return NULL;
}
