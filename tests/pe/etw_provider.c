/* ETW providers with nobody listening: EventRegister hands out a handle
 * (distinct ones for two providers), the provider is not enabled,
 * EventWrite and EventWriteTransfer to a registered handle succeed and
 * go nowhere, EventUnregister works once. */
#include <windows.h>
#include <evntprov.h>

#include "test.h"

static const GUID prov1 = { 0x5b09c0bf, 0x453f, 0x43e6, { 0xb3, 0x44, 0x43, 0x51, 0x48, 0xa1, 0x44, 0x43 } };
static const GUID prov2 = { 0xe6d64ef7, 0xea35, 0x4d3c, { 0xa6, 0x57, 0x31, 0xc5, 0x31, 0x1d, 0x17, 0x59 } };
static int callbacks;

static void NTAPI enable_cb(LPCGUID id, ULONG is_enabled, UCHAR level, ULONGLONG any, ULONGLONG all,
			    PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	(void)id, (void)is_enabled, (void)level, (void)any, (void)all, (void)filter, (void)ctx;
	callbacks++;
}

int main(void)
{
	REGHANDLE h1 = 0, h2 = 0;
	EVENT_DESCRIPTOR d = { 100, 0, 16, 2, 0, 0, 0x8000000000000000ull };
	EVENT_DATA_DESCRIPTOR data[2];
	int v = 42;
	char msg[] = "an event nobody reads";

	ok(EventRegister(&prov1, enable_cb, NULL, &h1) == ERROR_SUCCESS && h1, "EventRegister\n");
	ok(EventRegister(&prov2, NULL, NULL, &h2) == ERROR_SUCCESS && h2, "second provider\n");
	/* Wine hands every provider the same handle. */
	ok_todo_wine(h2 != h1, "two providers share handle %#llx\n", (unsigned long long)h1);
	ok(!EventEnabled(h1, &d), "an event is enabled\n");
	ok(!EventProviderEnabled(h1, 2, 0x8000000000000000ull), "the provider is enabled\n");
	EventDataDescCreate(&data[0], &v, sizeof(v));
	EventDataDescCreate(&data[1], msg, sizeof(msg));
	ok(EventWrite(h1, &d, 2, data) == ERROR_SUCCESS, "EventWrite\n");
	ok(EventWrite(h2, &d, 0, NULL) == ERROR_SUCCESS, "EventWrite without data\n");
	ok(EventWriteTransfer(h1, &d, NULL, NULL, 2, data) == ERROR_SUCCESS, "EventWriteTransfer\n");
	ok(EventUnregister(h1) == ERROR_SUCCESS, "EventUnregister\n");
	ok(EventUnregister(h2) == ERROR_SUCCESS, "EventUnregister\n");
	ok(callbacks == 0, "the enable callback was called %d times\n", callbacks);
	return test_summary();
}
