/* System DLLs ndrun has no builtin for: a stand-in with no exports for
 * each DLL of winapi-shim/sysdlls.list, so that a program importing, say,
 * gdi32 or avicap32 functions it never calls still loads (each import
 * binds to the named trap), while a DLL that is not Windows' own must
 * still be found as a file. */
#include <string.h>
#include <strings.h>

#include "builtin.h"

#define SYSDLL(name) name,
const char *const system_dll_names[] = {
#include "sysdlls.list"
};
#undef SYSDLL
const unsigned int system_dll_count = sizeof(system_dll_names) / sizeof(system_dll_names[0]);

/* The stand-ins: a name and an empty export table each, built once from
 * the same list (the loader keeps pointers to them for good). */
#define SYSDLL(file) { .name = file, .stand_in = true },
static const struct builtin_dll stand_ins[] = {
#include "sysdlls.list"
};
#undef SYSDLL

/* name: a bare file name, ".dll" optional (as builtin_find takes it). */
static int find_index(const char *name)
{
	size_t len = strlen(name);
	unsigned int lo = 0, hi = system_dll_count;
	char want[64];

	if (!strchr(name, '.')) {
		if (len + 4 >= sizeof(want))
			return -1;
		memcpy(want, name, len);
		memcpy(want + len, ".dll", 5);
	} else {
		if (len >= sizeof(want))
			return -1;
		memcpy(want, name, len + 1);
	}
	/* The list is lower case, so strcasecmp's order is its order. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcasecmp(want, system_dll_names[mid]);

		if (!c)
			return (int)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

bool builtin_is_system_dll(const char *name)
{
	return find_index(name) >= 0;
}

const struct builtin_dll *builtin_find_system(const char *name)
{
	const struct builtin_dll *b = builtin_find(name);
	int i;

	if (b)
		return b;
	i = find_index(name);
	return i < 0 ? NULL : &stand_ins[i];
}
