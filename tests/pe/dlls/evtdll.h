/* What evtdll.dll records and how dll_load.exe reads it. */
#ifndef NDSHIM_PE_EVTDLL_H
#define NDSHIM_PE_EVTDLL_H

#include <windows.h>

#define EVT_TLS_CALLBACK 'T'
#define EVT_DLLMAIN      'M'

struct dll_event {
	int source;           /* EVT_TLS_CALLBACK or EVT_DLLMAIN */
	DWORD reason;         /* DLL_PROCESS_ATTACH ... */
	DWORD thread;         /* GetCurrentThreadId() of the notified thread */
	int reserved_is_null; /* lpvReserved == NULL */
};

#define MAX_DLL_EVENTS 64

struct dll_event_log {
	volatile LONG count;
	struct dll_event ev[MAX_DLL_EVENTS];
};

/* Copy the events recorded so far into LOG (which belongs to the caller)
 * and record every later one there too, PROCESS_DETACH included. */
typedef void (*evtdll_attach_log_fn)(struct dll_event_log *log);

#endif
