/* Thread local storage slots: 64 in TEB.TlsSlots, 1024 more in
 * TEB.TlsExpansionSlots (allocated by a thread's first set there). */
#include <pthread.h>
#include <stdlib.h>

#include "core/debug.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

#define TLS_SLOTS 64
#define TLS_EXPANSION_SLOTS 1024
#define TLS_TOTAL (TLS_SLOTS + TLS_EXPANSION_SLOTS)

/* Under the thread list lock, which also keeps TEBs alive while TlsFree
 * clears a slot in each. */
static unsigned char slot_used[TLS_TOTAL];

DWORD WINAPI TlsAlloc(void)
{
	DWORD i;

	thread_list_lock();
	for (i = 0; i < TLS_TOTAL && slot_used[i]; i++)
		;
	if (i < TLS_TOTAL)
		slot_used[i] = 1;
	thread_list_unlock();
	if (i == TLS_TOTAL) {
		SetLastError(ERROR_NO_MORE_ITEMS);
		return TLS_OUT_OF_INDEXES;
	}
	/* A fresh index reads as NULL in every thread: TlsFree cleared it. */
	TRACE(tls, "-> %u\n", i);
	return i;
}

static void clear_slot(TEB *teb, void *ctx)
{
	DWORD i = (DWORD)(ULONG_PTR)ctx;

	if (i < TLS_SLOTS)
		teb->TlsSlots[i] = NULL;
	else if (teb->TlsExpansionSlots)
		teb->TlsExpansionSlots[i - TLS_SLOTS] = NULL;
}

BOOL WINAPI TlsFree(DWORD i)
{
	TRACE(tls, "%u\n", i);
	thread_list_lock();
	if (i >= TLS_TOTAL || !slot_used[i]) {
		thread_list_unlock();
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	slot_used[i] = 0;
	thread_for_each_teb(clear_slot, (void *)(ULONG_PTR)i);
	thread_list_unlock();
	return TRUE;
}

LPVOID WINAPI TlsGetValue(DWORD i)
{
	TEB *teb = loader_current_teb();
	void *v = NULL;

	if (i >= TLS_TOTAL || !teb) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (i < TLS_SLOTS)
		v = teb->TlsSlots[i];
	else if (teb->TlsExpansionSlots)
		v = teb->TlsExpansionSlots[i - TLS_SLOTS];
	/* Callers tell a stored NULL from failure by the last error. */
	SetLastError(ERROR_SUCCESS);
	return v;
}

BOOL WINAPI TlsSetValue(DWORD i, LPVOID value)
{
	TEB *teb = loader_current_teb();

	if (i >= TLS_TOTAL || !teb) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (i < TLS_SLOTS) {
		teb->TlsSlots[i] = value;
		return TRUE;
	}
	if (!teb->TlsExpansionSlots) {
		void **slots = calloc(TLS_EXPANSION_SLOTS, sizeof(void *));

		if (!slots) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return FALSE;
		}
		/* TlsFree may be walking this TEB. */
		thread_list_lock();
		teb->TlsExpansionSlots = slots;
		thread_list_unlock();
	}
	teb->TlsExpansionSlots[i - TLS_SLOTS] = value;
	return TRUE;
}
