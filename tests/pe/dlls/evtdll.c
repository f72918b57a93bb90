/* A DLL that records its DllMain and TLS-callback notifications, loaded at
 * run time by dll_load.exe.  Its .def exports by ordinal, without a name and
 * through a forwarder to fwddll.dll. */
#include <windows.h>

#include "evtdll.h"

static struct dll_event_log own_log;
static struct dll_event_log *volatile log_ptr = &own_log;

static void record(int source, DWORD reason, void *reserved)
{
	struct dll_event_log *log = log_ptr;
	LONG i = InterlockedIncrement(&log->count) - 1;

	if (i < MAX_DLL_EVENTS) {
		log->ev[i].source = source;
		log->ev[i].reason = reason;
		log->ev[i].thread = GetCurrentThreadId();
		log->ev[i].reserved_is_null = reserved == NULL;
	}
}

void evtdll_attach_log(struct dll_event_log *log);
void evtdll_attach_log(struct dll_event_log *log)
{
	LONG i, n = own_log.count;

	for (i = 0; i < n && i < MAX_DLL_EVENTS; i++)
		log->ev[i] = own_log.ev[i];
	log->count = n;
	log_ptr = log;
}

int ord_func(void);
int ord_func(void)
{
	return 5;
}

int noname_func(void);
int noname_func(void)
{
	return 7;
}

static void NTAPI tls_callback(PVOID module, DWORD reason, PVOID reserved)
{
	(void)module;
	record(EVT_TLS_CALLBACK, reason, reserved);
}

/* The TLS directory's callback array runs from .CRT$XLA to .CRT$XLZ; XLB
 * puts this one before mingw's own (XLC, XLD). */
__attribute__((section(".CRT$XLB"), used))
const PIMAGE_TLS_CALLBACK evtdll_tls_callback = tls_callback;

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved);
BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	record(EVT_DLLMAIN, reason, reserved);
	return TRUE;
}
