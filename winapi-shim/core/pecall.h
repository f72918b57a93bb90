/* Calling the program's code from a builtin.
 *
 * Every function pointer a program hands a builtin -- atexit/_onexit
 * handlers, qsort/bsearch comparators, thread and fiber starts, FLS and
 * TLS callbacks, APCs, timer, wait and thread-pool callbacks, completion
 * routines, EnumXxx callbacks, console control handlers, the C runtime's
 * init tables, signal and invalid-parameter handlers -- is called
 * through the loader's one call stub, loader_call_pe_args
 * (pe-loader/callpe.S), never straight from C.  On Windows these calls
 * are made from PE code, so whatever the callback does is the program's;
 * from the stub it is here too: a jump to a bad address (a damaged
 * program's handler pointing into data) has the stub's return address
 * on top of the stack, which the fault handler recognises (signal.c),
 * and a fault inside a builtin used as the callback unwinds to the stub
 * (hostfault.c).  The stub also restores the registers a damaged
 * callback clobbered.  Called directly, the same jump would leave a
 * builtin's return address there and be reported as ndrun's internal
 * error.
 *
 * PE_CALLn(fn, a, ...) calls fn with n arguments, each converted to an
 * integer register's width (pointers, integers, handles: every
 * callback's argument is one), and gives fn's rax as a uintptr_t: cast
 * it to the callback's return type. */
#ifndef NDSHIM_CORE_PECALL_H
#define NDSHIM_CORE_PECALL_H

#include <stdint.h>

#include "loader.h"

#define PE_A(x) ((uintptr_t)(x))
#define PE_FN(fn) ((void *)(uintptr_t)(fn))
#define PE_CALL_WITH(fn, ...) loader_call_pe_args(PE_FN(fn), (const uintptr_t[PE_CALL_MAX_ARGS]){ __VA_ARGS__ })

#define PE_CALL0(fn) PE_CALL_WITH(fn, 0)
#define PE_CALL1(fn, a) PE_CALL_WITH(fn, PE_A(a))
#define PE_CALL2(fn, a, b) PE_CALL_WITH(fn, PE_A(a), PE_A(b))
#define PE_CALL3(fn, a, b, c) PE_CALL_WITH(fn, PE_A(a), PE_A(b), PE_A(c))
#define PE_CALL4(fn, a, b, c, d) PE_CALL_WITH(fn, PE_A(a), PE_A(b), PE_A(c), PE_A(d))
#define PE_CALL5(fn, a, b, c, d, e) PE_CALL_WITH(fn, PE_A(a), PE_A(b), PE_A(c), PE_A(d), PE_A(e))
#define PE_CALL6(fn, a, b, c, d, e, f) PE_CALL_WITH(fn, PE_A(a), PE_A(b), PE_A(c), PE_A(d), PE_A(e), PE_A(f))
#define PE_CALL9(fn, a, b, c, d, e, f, g, h, i)                                                              \
	PE_CALL_WITH(fn, PE_A(a), PE_A(b), PE_A(c), PE_A(d), PE_A(e), PE_A(f), PE_A(g), PE_A(h), PE_A(i))

#endif
