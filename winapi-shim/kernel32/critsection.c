/* Critical sections on the Windows layout (RTL_CRITICAL_SECTION, 40
 * bytes), so programs that peek at the fields or initialise statically
 * ({ -1 DebugInfo, -1 LockCount, 0...}) keep working.
 *
 * LockCount is -1 when free and counts owner + recursions + waiters
 * beyond that.  A thread whose increment finds it held queues itself
 * (implicitly, by its count) and sleeps on the low 32 bits of
 * LockSemaphore, a count of hand-offs: the releasing owner that sees
 * LockCount still >= 0 posts one, and exactly one sleeper takes it and
 * becomes the owner.  OwningThread holds the owner's thread id. */
#include <stdint.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"

_Static_assert(sizeof(RTL_CRITICAL_SECTION) == 40, "CRITICAL_SECTION is 40 bytes on x64");
_Static_assert(offsetof(RTL_CRITICAL_SECTION, LockSemaphore) == 24, "layout");

#define SPIN_MASK 0x00ffffff

static uint32_t *handoff_word(CRITICAL_SECTION *cs)
{
	/* Little-endian: the low half of the pointer-sized field. */
	return (uint32_t *)&cs->LockSemaphore;
}

static HANDLE me(void)
{
	return (HANDLE)(ULONG_PTR)thread_current_id();
}

static HANDLE owner(CRITICAL_SECTION *cs)
{
	return __atomic_load_n(&cs->OwningThread, __ATOMIC_RELAXED);
}

static void take(CRITICAL_SECTION *cs)
{
	__atomic_store_n(&cs->OwningThread, me(), __ATOMIC_RELAXED);
	cs->RecursionCount = 1;
}

static bool try_free(CRITICAL_SECTION *cs)
{
	LONG expected = -1;

	return __atomic_compare_exchange_n(&cs->LockCount, &expected, 0, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static void wait_handoff(CRITICAL_SECTION *cs)
{
	uint32_t *word = handoff_word(cs);

	for (;;) {
		uint32_t v = __atomic_load_n(word, __ATOMIC_RELAXED);

		if (v) {
			if (__atomic_compare_exchange_n(word, &v, v - 1, false, __ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED))
				return;
		} else {
			futex_wait(word, 0, NULL);
		}
	}
}

static void init(CRITICAL_SECTION *cs, DWORD spin)
{
	cs->DebugInfo = NULL;
	cs->LockCount = -1;
	cs->RecursionCount = 0;
	cs->OwningThread = NULL;
	cs->LockSemaphore = NULL;
	cs->SpinCount = spin & SPIN_MASK;
}

void WINAPI InitializeCriticalSection(CRITICAL_SECTION *cs)
{
	init(cs, 0);
}

BOOL WINAPI InitializeCriticalSectionAndSpinCount(CRITICAL_SECTION *cs, DWORD spin)
{
	init(cs, spin);
	return TRUE;
}

BOOL WINAPI InitializeCriticalSectionEx(CRITICAL_SECTION *cs, DWORD spin, DWORD flags)
{
	if (flags & ~RTL_CRITICAL_SECTION_ALL_FLAG_BITS) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	init(cs, spin);
	return TRUE;
}

void WINAPI DeleteCriticalSection(CRITICAL_SECTION *cs)
{
	cs->DebugInfo = NULL;
	cs->LockSemaphore = NULL;
	cs->OwningThread = NULL;
	cs->RecursionCount = 0;
}

void WINAPI EnterCriticalSection(CRITICAL_SECTION *cs)
{
	for (ULONG_PTR spin = cs->SpinCount & SPIN_MASK; spin; spin--) {
		if (try_free(cs)) {
			take(cs);
			return;
		}
		__builtin_ia32_pause();
	}
	if (__atomic_add_fetch(&cs->LockCount, 1, __ATOMIC_ACQUIRE) != 0) {
		if (owner(cs) == me()) {
			cs->RecursionCount++;
			return;
		}
		wait_handoff(cs);
	}
	take(cs);
}

BOOL WINAPI TryEnterCriticalSection(CRITICAL_SECTION *cs)
{
	if (try_free(cs)) {
		take(cs);
		return TRUE;
	}
	if (owner(cs) == me()) {
		__atomic_add_fetch(&cs->LockCount, 1, __ATOMIC_RELAXED);
		cs->RecursionCount++;
		return TRUE;
	}
	return FALSE;
}

void WINAPI LeaveCriticalSection(CRITICAL_SECTION *cs)
{
	if (--cs->RecursionCount > 0) {
		__atomic_sub_fetch(&cs->LockCount, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&cs->OwningThread, NULL, __ATOMIC_RELAXED);
	if (__atomic_sub_fetch(&cs->LockCount, 1, __ATOMIC_RELEASE) >= 0) {
		/* Someone is (or is about to be) waiting: hand over. */
		__atomic_add_fetch(handoff_word(cs), 1, __ATOMIC_RELEASE);
		futex_wake(handoff_word(cs), 1);
	}
}
