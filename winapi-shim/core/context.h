/* A Windows CONTEXT to and from a Linux signal frame's ucontext: what the
 * fault handler gives the exception dispatcher, and what
 * Get/SetThreadContext read and write on a parked thread. */
#ifndef NDSHIM_CONTEXT_H
#define NDSHIM_CONTEXT_H

#include <ucontext.h>
#include <windef.h>
#include <winbase.h>

/* Fills the parts of ctx that flags (CONTEXT_CONTROL, _INTEGER,
 * _SEGMENTS, _FLOATING_POINT, _DEBUG_REGISTERS) ask for; the rest of ctx
 * is left alone. */
void context_from_ucontext(const ucontext_t *uc, CONTEXT *ctx, DWORD flags);

/* Writes the parts of ctx its ContextFlags name into uc, for the kernel
 * to resume from.  Selectors and debug registers cannot be changed and
 * are ignored, as are the privileged EFLAGS bits and MXCSR bits the CPU
 * does not support (the kernel would refuse the frame). */
void context_to_ucontext(const CONTEXT *ctx, ucontext_t *uc);

/* Copies the parts flags name from src to dst (as above). */
void context_copy_parts(CONTEXT *dst, const CONTEXT *src, DWORD flags);

#endif
