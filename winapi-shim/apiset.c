#include <string.h>
#include <strings.h>

#include "apiset.h"

#define APISET(contract, host) { contract, host },
const struct apiset apisets[] = {
#include "apisets.list"
};
#undef APISET
const unsigned int apiset_count = sizeof(apisets) / sizeof(apisets[0]);

bool apiset_is_name(const char *name)
{
	return !strncasecmp(name, "api-", 4) || !strncasecmp(name, "ext-", 4);
}

const char *apiset_resolve(const char *name)
{
	size_t len = strlen(name);
	unsigned int lo = 0, hi = apiset_count;

	if (!apiset_is_name(name))
		return NULL;
	if (len > 4 && !strcasecmp(name + len - 4, ".dll"))
		len -= 4;
	while (len > 4 && name[len - 1] != '-')
		len--;
	if (len <= 4)
		return NULL; /* no revision to drop: not a contract name */
	len--;
	/* The table is lower case, so strncasecmp's order is its order. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const char *c = apisets[mid].contract;
		int r = strncasecmp(name, c, len);
		if (!r && !c[len])
			return apisets[mid].host;
		if (!r)
			r = -1; /* name is a proper prefix of c: it sorts first */
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
