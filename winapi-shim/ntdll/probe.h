/* Stores through a pointer PE code passed, inline, for hot builtins.
 *
 * seh_copy_to_user (seh.h) sets up a sigsetjmp per call, about 90
 * instructions for an 8-byte copy.  A user_put instead names, in a
 * thread variable, where to resume should its one store fault; the
 * fault handler (signal.c, seh_probe_fixup) resumes there instead of
 * crashing, and user_put returns false.  So a good pointer costs a
 * compare, the store and two thread-variable writes, and a bad one gets
 * what seh_copy_to_user reports: the first 64 KiB (never mapped, on
 * Windows as here) and any address the store faults on.  No system or
 * library call is made, so an ms_abi builtin that inlines it saves no
 * extra registers.
 *
 * The handler goes by the thread variable, not by the faulting
 * instruction's address, which valgrind reports one instruction early
 * at times. */
#ifndef NDSHIM_PROBE_H
#define NDSHIM_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <ucontext.h>

#include "core/virtual.h"

/* Where the store in progress resumes if it faults; NULL outside one. */
extern __thread void *seh_probe_resume;

/* From the fault handler: true, with uc resuming there, when the fault
 * is a user_put's store. */
bool seh_probe_fixup(ucontext_t *uc);

/* No output operands: an asm goto with outputs makes gcc 12 split the
 * edge to the label and leave the lea naming a label that no longer
 * exists.  The slot is written through its address instead. */
#define USER_PUT(insn, dst, v)                                                                  \
	do {                                                                                    \
		if ((uintptr_t)(dst) < VIRTUAL_MIN_ADDRESS)                                     \
			return false;                                                           \
		asm goto("leaq %l[fault](%%rip), %%rax\n\t"                                     \
			 "movq %%rax, (%0)\n\t" insn " %2, (%1)\n\t"                            \
			 "movq $0, (%0)"                                                        \
			 :                                                                      \
			 : "r"(&seh_probe_resume), "r"(dst), "r"(v)                             \
			 : "rax", "memory"                                                      \
			 : fault);                                                              \
		return true;                                                                    \
fault:                                                                                          \
		return false;                                                                   \
	} while (0)

static inline __attribute__((always_inline)) bool user_put64(void *dst, uint64_t v)
{
	USER_PUT("movq", dst, v);
}

static inline __attribute__((always_inline)) bool user_put32(void *dst, uint32_t v)
{
	USER_PUT("movl", dst, v);
}

#endif
