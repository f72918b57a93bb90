/* One-time initialisation on INIT_ONCE's pointer-sized word:
 *   0            not started
 *   1            in progress (the futex word, low half, is 1)
 *   ctx | 2      done; ctx has its low INIT_ONCE_CTX_RESERVED_BITS clear */
#include <stdint.h>

#include "core/futex.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"

#define ONCE_BUSY 1
#define ONCE_DONE 2
#define ONCE_MASK ((ULONG_PTR)3)

static ULONG_PTR *state(PINIT_ONCE once)
{
	return (ULONG_PTR *)&once->Ptr;
}

static void publish(PINIT_ONCE once, ULONG_PTR v)
{
	__atomic_store_n(state(once), v, __ATOMIC_RELEASE);
	futex_wake_all(state(once));
}

VOID WINAPI InitOnceInitialize(PINIT_ONCE once)
{
	once->Ptr = NULL;
}

/* TRUE with *pending when the caller must initialise, TRUE without it
 * when done (ctx set), FALSE when check_only and not done. */
static BOOL begin(PINIT_ONCE once, bool check_only, BOOL *pending, void **ctx)
{
	for (;;) {
		ULONG_PTR v = __atomic_load_n(state(once), __ATOMIC_ACQUIRE);

		if ((v & ONCE_MASK) == ONCE_DONE) {
			*pending = FALSE;
			if (ctx)
				*ctx = (void *)(v & ~ONCE_MASK);
			return TRUE;
		}
		if (check_only) {
			SetLastError(ERROR_GEN_FAILURE);
			return FALSE;
		}
		if (v == 0) {
			if (__atomic_compare_exchange_n(state(once), &v, ONCE_BUSY, false, __ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED)) {
				*pending = TRUE;
				return TRUE;
			}
			continue;
		}
		futex_wait(state(once), ONCE_BUSY, NULL);
	}
}

BOOL WINAPI InitOnceBeginInitialize(PINIT_ONCE once, DWORD flags, PBOOL pending, PVOID *ctx)
{
	if (flags & ~INIT_ONCE_CHECK_ONLY) {
		/* INIT_ONCE_ASYNC (parallel initialisers) is not supported. */
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return begin(once, flags & INIT_ONCE_CHECK_ONLY, pending, ctx);
}

BOOL WINAPI InitOnceComplete(PINIT_ONCE once, DWORD flags, PVOID ctx)
{
	if ((flags & ~INIT_ONCE_INIT_FAILED) || ((ULONG_PTR)ctx & ONCE_MASK) ||
	    ((flags & INIT_ONCE_INIT_FAILED) && ctx)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (__atomic_load_n(state(once), __ATOMIC_RELAXED) != ONCE_BUSY) {
		SetLastError(ERROR_GEN_FAILURE);
		return FALSE;
	}
	publish(once, (flags & INIT_ONCE_INIT_FAILED) ? 0 : (ULONG_PTR)ctx | ONCE_DONE);
	return TRUE;
}

BOOL WINAPI InitOnceExecuteOnce(PINIT_ONCE once, PINIT_ONCE_FN fn, PVOID param, PVOID *ctx)
{
	BOOL pending;
	void *c = NULL;

	if (!begin(once, false, &pending, ctx))
		return FALSE;
	if (!pending)
		return TRUE;
	if (!(BOOL)PE_CALL3(fn, once, param, &c)) {
		publish(once, 0);
		return FALSE;
	}
	publish(once, ((ULONG_PTR)c & ~ONCE_MASK) | ONCE_DONE);
	if (ctx)
		*ctx = (void *)((ULONG_PTR)c & ~ONCE_MASK);
	return TRUE;
}
