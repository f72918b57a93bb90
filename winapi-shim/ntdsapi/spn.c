/* DsMakeSpnA/W: "ServiceClass/InstanceName[:InstancePort][/ServiceName]".
 * Without an instance name the service name is the instance and the last
 * part is left out; the port is written when it is not 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/wstr.h"
#include "ntdsapi/ntdsapi_private.h"

DWORD WINAPI DsMakeSpnW(LPCWSTR cls, LPCWSTR service, LPCWSTR instance, USHORT port, LPCWSTR referrer,
			DWORD *length, LPWSTR spn)
{
	WCHAR portstr[8] = { 0 };
	const WCHAR *inst = instance ? instance : service;
	size_t n;
	WCHAR *p;

	if (!cls || !*cls || !service || !*service || !length || (*length && !spn))
		return ERROR_INVALID_PARAMETER;
	if (port) {
		char a[8];
		int k = snprintf(a, sizeof(a), ":%u", port);

		for (int i = 0; i <= k; i++)
			portstr[i] = (WCHAR)a[i];
	}
	n = wstr_len(cls) + 1 + wstr_len(inst) + wstr_len(portstr) + (instance ? 1 + wstr_len(service) : 0);
	if (*length < n + 1) {
		*length = (DWORD)(n + 1);
		return ERROR_BUFFER_OVERFLOW;
	}
	p = spn;
	memcpy(p, cls, wstr_len(cls) * sizeof(WCHAR));
	p += wstr_len(cls);
	*p++ = '/';
	memcpy(p, inst, wstr_len(inst) * sizeof(WCHAR));
	p += wstr_len(inst);
	memcpy(p, portstr, wstr_len(portstr) * sizeof(WCHAR));
	p += wstr_len(portstr);
	if (instance) {
		*p++ = '/';
		memcpy(p, service, wstr_len(service) * sizeof(WCHAR));
		p += wstr_len(service);
	}
	*p = 0;
	*length = (DWORD)(n + 1);
	return ERROR_SUCCESS;
}
