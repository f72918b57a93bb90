/* Event Tracing for Windows, the provider side.  ndrun has no trace
 * sessions, so no consumer ever enables a provider: registration works
 * and hands out a handle, the enable callback is never called, the
 * provider is never enabled, and an event written to a registered
 * handle goes nowhere, successfully, as on Windows when nobody listens. */
#include <pthread.h>
#include <stdlib.h>

#include "advapi32/advapi32_private.h"

/* Registered handles: a bit set, enough for every provider of a process. */
#define MAX_PROVIDERS 1024
static unsigned char registered[MAX_PROVIDERS / 8];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static BOOL valid(REGHANDLE h)
{
	BOOL ok;

	if (!h || h > MAX_PROVIDERS)
		return FALSE;
	pthread_mutex_lock(&lock);
	ok = registered[(h - 1) / 8] & (1u << ((h - 1) % 8));
	pthread_mutex_unlock(&lock);
	return ok;
}

ULONG WINAPI EventRegister(LPCGUID provider, PENABLECALLBACK callback, PVOID context, PREGHANDLE handle)
{
	if (!provider || !handle)
		return ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&lock);
	for (REGHANDLE i = 0; i < MAX_PROVIDERS; i++) {
		if (!(registered[i / 8] & (1u << (i % 8)))) {
			registered[i / 8] |= 1u << (i % 8);
			pthread_mutex_unlock(&lock);
			*handle = i + 1;
			return ERROR_SUCCESS;
		}
	}
	pthread_mutex_unlock(&lock);
	*handle = 0;
	return ERROR_NO_SYSTEM_RESOURCES;
}

ULONG WINAPI EventUnregister(REGHANDLE handle)
{
	if (!valid(handle))
		return ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&lock);
	registered[(handle - 1) / 8] &= ~(1u << ((handle - 1) % 8));
	pthread_mutex_unlock(&lock);
	return ERROR_SUCCESS;
}

BOOLEAN WINAPI EventEnabled(REGHANDLE handle, PCEVENT_DESCRIPTOR descriptor)
{
	return FALSE;
}

BOOLEAN WINAPI EventProviderEnabled(REGHANDLE handle, UCHAR level, ULONGLONG keyword)
{
	return FALSE;
}

ULONG WINAPI EventWriteTransfer(REGHANDLE handle, PCEVENT_DESCRIPTOR descriptor, LPCGUID activity,
				LPCGUID related, ULONG count, PEVENT_DATA_DESCRIPTOR data)
{
	if (!valid(handle))
		return ERROR_INVALID_HANDLE;
	if (!descriptor || (count && !data))
		return ERROR_INVALID_PARAMETER;
	return ERROR_SUCCESS;
}

ULONG WINAPI EventWrite(REGHANDLE handle, PCEVENT_DESCRIPTOR descriptor, ULONG count, PEVENT_DATA_DESCRIPTOR data)
{
	return EventWriteTransfer(handle, descriptor, NULL, NULL, count, data);
}
