/* Structured exception handling: what the rest of ndrun calls.
 *
 * The loader registers every mapped PE image so the unwinder can find its
 * .pdata; the thread code gives each thread that runs PE code an alternate
 * signal stack so hardware faults in PE code become Windows exceptions.
 * All of these are sysv (plain Linux C). */
#ifndef NDSHIM_SEH_H
#define NDSHIM_SEH_H

#include <stddef.h>

/* Once at startup, on the main thread, before any PE code runs: installs
 * the fault handlers (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP) and calls
 * seh_thread_init() for the calling thread. */
void seh_init(void);

/* On every other thread that will run PE code, before it does: gives the
 * thread an alternate signal stack.  seh_thread_exit() frees it. */
void seh_thread_init(void);
void seh_thread_exit(void);

/* After mapping a PE image (headers included, at base, size bytes): reads
 * its exception directory (.pdata) from the mapped headers.  name is the
 * module's file name, used in crash reports; it is copied.  An image with
 * no or a malformed exception directory is still registered, so faults in
 * it are dispatched and its leaf frames unwind. */
void seh_register_image(void *base, size_t size, const char *name);
void seh_unregister_image(void *base);

/* For vcruntime's C++ frame handlers, inside the callback of a
 * STATUS_UNWIND_CONSOLIDATE unwind: calls the catch block funclet with the
 * establisher frame of its function and returns what it returns (where
 * execution continues).  An exception raised in the block is dispatched
 * on through the frames the unwind resumes in. */
unsigned long long seh_call_catch_block(void *funclet, unsigned long long frame);

#endif
