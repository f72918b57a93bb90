/* Interlocked singly linked lists (SLIST_HEADER, x64 16-byte layout).
 * On x64 these are kernel32's only Interlocked* exports; the rest are
 * compiler intrinsics.  Low qword: Depth (16) | Sequence (48); high
 * qword: HeaderType (1) | Init (1) | Reserved (2) | NextEntry >> 4 (60),
 * so the first entry's address is the high qword with the 4 flag bits
 * cleared.  Updates are cmpxchg16b on both; the sequence defeats ABA. */
#include <stdint.h>

#include "kernel32/kernel32_private.h"

_Static_assert(sizeof(SLIST_HEADER) == 16, "SLIST_HEADER is 16 bytes on x64");

#define FLAGS 0xfull
#define HEADER_TYPE_16 0x1ull

struct pair {
	uint64_t lo, hi;
};

static bool cas16(PSLIST_HEADER head, struct pair *old, struct pair new)
{
	bool ok;

	__asm__ __volatile__("lock cmpxchg16b %1"
			     : "=@ccz"(ok), "+m"(*(volatile SLIST_HEADER *)head), "+a"(old->lo), "+d"(old->hi)
			     : "b"(new.lo), "c"(new.hi)
			     : "memory");
	return ok;
}

static struct pair load(PSLIST_HEADER head)
{
	struct pair p;

	p.lo = __atomic_load_n(&head->Alignment, __ATOMIC_ACQUIRE);
	p.hi = __atomic_load_n(&head->Region, __ATOMIC_ACQUIRE);
	return p;
}

static uint64_t bump(uint64_t lo, int depth_delta)
{
	uint64_t depth = (lo + depth_delta) & 0xffff;
	uint64_t seq = ((lo >> 16) + 1) & 0xffffffffffffull;

	return depth | seq << 16;
}

VOID WINAPI InitializeSListHead(PSLIST_HEADER head)
{
	head->Alignment = 0;
	head->Region = HEADER_TYPE_16;
}

PSLIST_ENTRY WINAPI InterlockedPushListSListEx(PSLIST_HEADER head, PSLIST_ENTRY first,
					       PSLIST_ENTRY last, ULONG count)
{
	struct pair old = load(head), new;

	do {
		last->Next = (PSLIST_ENTRY)(old.hi & ~FLAGS);
		new.lo = bump(old.lo, (int)count);
		new.hi = (old.hi & FLAGS) | (uint64_t)(uintptr_t)first;
	} while (!cas16(head, &old, new));
	return (PSLIST_ENTRY)(old.hi & ~FLAGS);
}

PSLIST_ENTRY WINAPI InterlockedPushEntrySList(PSLIST_HEADER head, PSLIST_ENTRY entry)
{
	return InterlockedPushListSListEx(head, entry, entry, 1);
}

PSLIST_ENTRY WINAPI InterlockedPopEntrySList(PSLIST_HEADER head)
{
	struct pair old = load(head), new;
	PSLIST_ENTRY first;

	do {
		first = (PSLIST_ENTRY)(old.hi & ~FLAGS);
		if (!first)
			return NULL;
		/* first may be popped and reused meanwhile; the sequence
		 * makes our cmpxchg fail then. */
		new.lo = bump(old.lo, -1);
		new.hi = (old.hi & FLAGS) | (uint64_t)(uintptr_t)__atomic_load_n(&first->Next, __ATOMIC_RELAXED);
	} while (!cas16(head, &old, new));
	return first;
}

PSLIST_ENTRY WINAPI InterlockedFlushSList(PSLIST_HEADER head)
{
	struct pair old = load(head), new;

	do {
		if (!(old.hi & ~FLAGS))
			return NULL;
		new.lo = bump(old.lo & ~0xffffull, 0);
		new.hi = old.hi & FLAGS;
	} while (!cas16(head, &old, new));
	return (PSLIST_ENTRY)(old.hi & ~FLAGS);
}

USHORT WINAPI QueryDepthSList(PSLIST_HEADER head)
{
	return (USHORT)(__atomic_load_n(&head->Alignment, __ATOMIC_RELAXED) & 0xffff);
}
