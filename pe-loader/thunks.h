/* Trap thunks for imports nothing provides: calling one prints
 * "ndrun: unimplemented function DLL.name called" and exits with
 * NDRUN_EXIT_UNIMPLEMENTED.  Binding is free; only a call traps. */
#ifndef NDSHIM_THUNKS_H
#define NDSHIM_THUNKS_H

/* A new thunk naming dll.func (func may be "#ordinal").  NULL when out
 * of memory.  Loader lock held. */
void *thunk_create(const char *dll, const char *func);
/* Make every thunk created so far executable (and read-only).  Call
 * before running code that might call them.  Loader lock held. */
void thunk_seal(void);

#endif
