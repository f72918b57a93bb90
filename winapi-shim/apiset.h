/* API sets: api-ms-win-* and ext-ms-win-* names are not files but
 * contracts, which the loader maps to the DLL that implements them through
 * one table, winapi-shim/apisets.list.
 *
 * The rule, as Windows applies it: a name is an API-set name when it starts
 * with "api-" or "ext-" (case-insensitively); ".dll" is dropped, then
 * everything from the last hyphen on (the contract's revision), and what
 * is left is compared, case-insensitively and whole, with the table's
 * contract names.  So api-ms-win-core-synch-l1-2-0 and -l1-2-1 name the
 * same contract, while -l1-3-0 is another one. */
#ifndef NDSHIM_APISET_H
#define NDSHIM_APISET_H

#include <stdbool.h>

struct apiset {
	const char *contract; /* without the revision, lower case */
	const char *host;     /* builtin DLL name, without ".dll" */
};

/* The table, sorted by contract name. */
extern const struct apiset apisets[];
extern const unsigned int apiset_count;

/* Whether a bare DLL name (no folder) is an API-set name. */
bool apiset_is_name(const char *name);

/* The host DLL of an API-set name ("kernel32"), or NULL when the name
 * is not an API-set name or names a contract the table lacks. */
const char *apiset_resolve(const char *name);

#endif
