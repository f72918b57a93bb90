/* COM initialisation (objbase.h): each thread's apartment and how many
 * times it entered it.
 *
 * The first CoInitializeEx of a thread picks its model (single- or
 * multi-threaded apartment) and answers S_OK; later calls with the same
 * model answer S_FALSE and count, so that CoUninitialize must be called
 * as often; a call asking for the other model answers RPC_E_CHANGED_MODE
 * and does not count (the docs of CoInitializeEx).  Nothing is marshalled
 * between apartments here: the state only decides what those calls and
 * activation answer. */
#include "core/debug.h"
#include "combase/combase_private.h"

static __thread unsigned int apt_count; /* CoInitialize(Ex) calls not yet undone */
static __thread DWORD apt_model;        /* COINIT_APARTMENTTHREADED or COINIT_MULTITHREADED */

BOOL com_thread_initialised(void)
{
	return apt_count != 0;
}

HRESULT WINAPI CoInitializeEx(LPVOID reserved, DWORD flags)
{
	DWORD model = flags & COINIT_APARTMENTTHREADED;

	/* The reserved pointer and the hint flags (COINIT_DISABLE_OLE1DDE,
	 * COINIT_SPEED_OVER_MEMORY) change nothing here. */
	if (apt_count && apt_model != model) {
		TRACE(misc, "thread is in a %s apartment\n", apt_model ? "single-threaded" : "multi-threaded");
		return RPC_E_CHANGED_MODE;
	}
	apt_model = model;
	return apt_count++ ? S_FALSE : S_OK;
}

HRESULT WINAPI CoInitialize(LPVOID reserved)
{
	return CoInitializeEx(NULL, COINIT_APARTMENTTHREADED);
}

void WINAPI CoUninitialize(void)
{
	if (apt_count)
		apt_count--;
}

/* OLE's own initialisation is COM's in a single-threaded apartment (there
 * is no clipboard, drag and drop or OLE1 here to set up), counted apart:
 * the thread's first OleInitialize answers S_OK even inside an apartment
 * CoInitialize made, later ones S_FALSE. */
static __thread unsigned int ole_count;

HRESULT WINAPI OleInitialize(LPVOID reserved)
{
	HRESULT hr = CoInitializeEx(NULL, COINIT_APARTMENTTHREADED);

	if (FAILED(hr))
		return hr;
	return ole_count++ ? S_FALSE : S_OK;
}

void WINAPI OleUninitialize(void)
{
	if (ole_count) {
		ole_count--;
		CoUninitialize();
	}
}
