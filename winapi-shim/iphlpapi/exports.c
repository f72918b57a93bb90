/* iphlpapi.dll: the export table built from iphlpapi.spec. */
#include "iphlpapi/iphlpapi_private.h"
#define BUILTIN_NAME iphlpapi
#define BUILTIN_SPEC "iphlpapi/iphlpapi.spec"
#include "builtin_table.h"
