/* Structured exception handling: what the rest of ndrun calls.
 *
 * The loader registers every mapped PE image so the unwinder can find its
 * .pdata; the thread code gives each thread that runs PE code an alternate
 * signal stack so hardware faults in PE code become Windows exceptions.
 * All of these are sysv (plain Linux C). */
#ifndef NDSHIM_SEH_H
#define NDSHIM_SEH_H

#include <stdbool.h>
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

/* A builtin handed a pointer Windows would fault on (a NULL out-pointer
 * it must write, say) makes its PE caller see what it sees on Windows:
 * EXCEPTION_ACCESS_VIOLATION for addr, raised as the builtin returns, in
 * the caller's context just after the call, so a handler can unwind or
 * continue there.  The builtin then returns normally (its return value
 * is lost).  Only for builtins PE code calls directly: the macro
 * redirects the calling function's own return. */
void seh_fault_on_return(void **ret_slot, void *ret, const void *addr, int write);
/* The same for any exception code: a builtin whose Windows counterpart
 * raises (rpcrt4's failed calls) has its PE caller see the exception
 * raised, noncontinuable and without parameters, as it returns. */
void seh_raise_on_return(void **ret_slot, void *ret, unsigned int code);
/* Copy len bytes from a pointer PE code passed: false, with nothing
 * faulting, when they are not all readable. */
bool seh_copy_from_user(void *dst, const void *src, size_t len);
/* The same the other way: false when dst is not all writable. */
bool seh_copy_to_user(void *dst, const void *src, size_t len);

/* Runs fn(arg), which reads memory a damaged program may have made
 * unreadable (its unwind tables, its code bytes): false, with fn cut
 * short, when such a read faulted.  fn must not call PE code, take
 * locks or allocate. */
bool seh_run_probed(void (*fn)(void *), void *arg);

/* For the fault handler: a fault in ndrun's code while seh_copy_from_user
 * copies resumes there (it returns false); otherwise returns. */
void seh_probe_recover(int sig);

#define SEH_RAISE_ON_RETURN(code) \
	seh_raise_on_return((void **)__builtin_frame_address(0) + 1, __builtin_return_address(0), (code))

#define SEH_RAISE_AV_ON_RETURN(addr, write)                                                             \
	seh_fault_on_return((void **)__builtin_frame_address(0) + 1, __builtin_return_address(0), (addr), \
			    (write))

/* For vcruntime's C++ frame handlers, inside the callback of a
 * STATUS_UNWIND_CONSOLIDATE unwind: calls the catch block funclet with the
 * establisher frame of its function and returns what it returns (where
 * execution continues).  An exception raised in the block is dispatched
 * on through the frames the unwind resumes in. */
unsigned long long seh_call_catch_block(void *funclet, unsigned long long frame);

#endif
