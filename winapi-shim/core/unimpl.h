/* A case of an implemented function that ndrun does not implement (a
 * conversion to a type it lacks, a flag it cannot honour): it stops the
 * program like a call to an unimplemented function (the trap thunks of
 * pe-loader/thunks.c), naming the function and the case, instead of
 * answering something Windows would not. */
#ifndef NDSHIM_UNIMPL_H
#define NDSHIM_UNIMPL_H

/* "ndrun: unimplemented function dll.func called (what)"; exits 125. */
void unimplemented_case(const char *func, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

#endif
