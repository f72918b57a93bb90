/* +relay: log every call from PE code into a builtin function, with its
 * arguments, and every return, with the result (like WINEDEBUG=+relay).
 *
 * The cost is decided at bind time: with the relay channel off,
 * relay_wrap() hands back the function's own address and the call path
 * is untouched.  With it on, the import binder and GetProcAddress hand
 * out a per-export thunk that enters relay_common (relay_common.S), which logs,
 * calls the function with the caller's registers and first
 * RELAY_STACK_ARGS stack arguments, logs the return and returns.
 *
 * Arguments are logged generically, as the .spec files carry no
 * signatures: the four register arguments (RCX, RDX, R8, R9) in hex; the
 * 5th and later arguments are passed on but not shown.  Lines:
 *
 *   TIME:TID:trace:relay:Call DLL.Function(ARG1,ARG2,ARG3,ARG4) ret=CALLER
 *   TIME:TID:trace:relay:Ret  DLL.Function() retval=RAX ret=CALLER
 *
 * (hex without leading zeros; DLL as the builtin's file name, e.g.
 * kernel32.dll; "#N" for a function reached by ordinal that has no name).
 *
 * NDSHIM_RELAY_INCLUDE and NDSHIM_RELAY_EXCLUDE choose what is wrapped:
 * ';'- or ','-separated entries "dll" (every function of it, ".dll"
 * optional), "dll.Function" or "Function" (in any DLL); names of DLLs
 * match case-insensitively, functions exactly.  With an include list only
 * what it names is wrapped; the exclude list then removes entries.
 * Functions that read or replace their caller's frame (RtlCaptureContext,
 * RaiseException, setjmp, ...: relay.c) are never wrapped. */
#ifndef NDSHIM_RELAY_H
#define NDSHIM_RELAY_H

#include <stddef.h>
#include <stdint.h>

#define RELAY_STACK_ARGS 16

#include "core/debug.h"

struct relay_entry {
	const void *func; /* first: relay_common.S calls through it */
	const void *thunk;
	enum debug_channel channel; /* where its lines go */
	struct relay_entry *next;
	char name[]; /* "dll.Function" */
};

/* func, or a relay thunk for it when +relay is on and the filters want
 * dll.name (name NULL: reached by ordinal).  Loader lock held. */
const void *relay_wrap(const char *dll, const char *name, unsigned int ordinal, const void *func);

/* A thunk around the ms_abi function func whose lines go to channel ch
 * and name it `name` (for +nd: "IND2QueuePair::Send"), whatever the
 * filters; the same thunk for the same (func, ch).  NULL without memory.
 * Thread-safe. */
const void *relay_thunk(enum debug_channel ch, const char *name, const void *func);

/* The filters from NDSHIM_RELAY_INCLUDE / _EXCLUDE (or these strings). */
void relay_set_filters(const char *include, const char *exclude);
int relay_wanted(const char *dll, const char *name);

/* The text after "trace:relay:" (no newline), for the format's tests. */
int relay_format_call(char *buf, size_t size, const char *name, const uint64_t args[4], uint64_t ret);
int relay_format_ret(char *buf, size_t size, const char *name, uint64_t retval, uint64_t ret);

#endif
