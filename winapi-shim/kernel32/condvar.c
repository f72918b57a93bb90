/* Condition variables: the low 32 bits of the word are a wake sequence.
 * A sleeper reads it before releasing its lock, so a wake between the
 * release and the futex wait changes it and the wait returns at once.
 * Spurious wakeups are allowed by the Windows contract. */
#include <stdint.h>

#include "core/futex.h"
#include "kernel32/kernel32_private.h"

static uint32_t *seq_word(PCONDITION_VARIABLE cv)
{
	return (uint32_t *)&cv->Ptr;
}

VOID WINAPI InitializeConditionVariable(PCONDITION_VARIABLE cv)
{
	cv->Ptr = NULL;
}

VOID WINAPI WakeConditionVariable(PCONDITION_VARIABLE cv)
{
	__atomic_add_fetch(seq_word(cv), 1, __ATOMIC_RELEASE);
	futex_wake(seq_word(cv), 1);
}

VOID WINAPI WakeAllConditionVariable(PCONDITION_VARIABLE cv)
{
	__atomic_add_fetch(seq_word(cv), 1, __ATOMIC_RELEASE);
	futex_wake_all(seq_word(cv));
}

/* Sleeps on seq until woken or timeout; FALSE + ERROR_TIMEOUT on timeout. */
static BOOL sleep_seq(PCONDITION_VARIABLE cv, uint32_t seq, const struct timespec *deadline)
{
	if (futex_wait(seq_word(cv), seq, deadline) == ETIMEDOUT) {
		SetLastError(ERROR_TIMEOUT);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI SleepConditionVariableCS(PCONDITION_VARIABLE cv, PCRITICAL_SECTION cs, DWORD timeout)
{
	uint32_t seq = __atomic_load_n(seq_word(cv), __ATOMIC_ACQUIRE);
	struct timespec deadline;
	BOOL ret;

	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);
	LeaveCriticalSection(cs);
	ret = sleep_seq(cv, seq, timeout == INFINITE ? NULL : &deadline);
	EnterCriticalSection(cs);
	return ret;
}

BOOL WINAPI SleepConditionVariableSRW(PCONDITION_VARIABLE cv, PSRWLOCK lock, DWORD timeout, ULONG flags)
{
	uint32_t seq = __atomic_load_n(seq_word(cv), __ATOMIC_ACQUIRE);
	bool shared = flags & CONDITION_VARIABLE_LOCKMODE_SHARED;
	struct timespec deadline;
	BOOL ret;

	if (flags & ~CONDITION_VARIABLE_LOCKMODE_SHARED) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);
	if (shared)
		ReleaseSRWLockShared(lock);
	else
		ReleaseSRWLockExclusive(lock);
	ret = sleep_seq(cv, seq, timeout == INFINITE ? NULL : &deadline);
	if (shared)
		AcquireSRWLockShared(lock);
	else
		AcquireSRWLockExclusive(lock);
	return ret;
}
