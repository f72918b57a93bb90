/* The C++ exception helpers that code outside catch blocks calls: SEH
 * filters that catch C++ types (__CxxExceptionFilter, as C++/CLI and
 * mixed SEH/C++ code use it), rethrow detection, and registering an
 * exception object as the thread's current one while a filter or
 * handler works with it (__CxxRegister/UnregisterExceptionObject, with
 * storage of __CxxQueryExceptionSize bytes the caller provides). */
#include <string.h>

#include "vcruntime140/vcruntime140_private.h"
#include "vcruntime140/cxxframe.h"
#include "core/debug.h"

/* The caller's storage: FRAMEINFO (the object and the next registration)
 * and the current exception and context it replaced.  Four pointers, as
 * vcruntime's x64 layout. */
struct registration {
	void *object;
	struct registration *next;
	void *prev_exception;
	void *prev_context;
};

/* the registrations of this thread, newest first */
static __thread struct registration *registered;

int cxx_registered(const void *object)
{
	for (const struct registration *r = registered; r; r = r->next)
		if (r->object == object)
			return 1;
	return 0;
}

/* A C++ exception record of this runtime's x64 layout. */
static int is_cxx(const EXCEPTION_RECORD *rec)
{
	return rec && cxx_is_cxx_exception(rec);
}

/* `throw;`: _CxxThrowException(NULL, NULL) as MSVC raises it, or as
 * this runtime raises it, with the object of the catch block that runs */
static int is_rethrow(const EXCEPTION_RECORD *rec)
{
	const void *info;
	void *object;
	ULONG64 image;

	if (!is_cxx(rec))
		return 0;
	if (!rec->ExceptionInformation[2])
		return 1;
	return cxx_current_catch(&object, &info, &image) && (ULONG_PTR)object == rec->ExceptionInformation[1];
}

int __cdecl vcrt___CxxDetectRethrow(EXCEPTION_POINTERS *ep)
{
	return ep && is_rethrow(ep->ExceptionRecord);
}

unsigned int __cdecl vcrt___CxxQueryExceptionSize(void)
{
	return sizeof(struct registration);
}

/* An SEH filter that takes what `catch (type)` would: EXCEPTION_EXECUTE_
 * HANDLER (with the catch parameter built at *object when asked) or
 * EXCEPTION_CONTINUE_SEARCH.  A type with no name is catch(...), which
 * takes SEH exceptions too unless the adjectives say standard C++'s. */
int __cdecl vcrt___CxxExceptionFilter(EXCEPTION_POINTERS *ep, const void *type, int adjectives, void *object)
{
	const struct cxx_type_descriptor *want = type;
	const EXCEPTION_RECORD *rec;
	const struct cxx_catchable_type *ct;

	if (!ep || !ep->ExceptionRecord)
		return EXCEPTION_CONTINUE_SEARCH;
	rec = ep->ExceptionRecord;
	if (is_rethrow(rec)) {
		/* `throw;`: the exception being handled, if there is one */
		rec = *vcrt___current_exception();
		if (!rec)
			return EXCEPTION_CONTINUE_SEARCH;
	}
	if (!want || !want->name[0]) {
		/* HT_IS_STD_DOTDOT: standard C++ catch(...), for C++ exceptions only */
		if ((adjectives & HT_IS_STD_DOTDOT) && !is_cxx(rec))
			return EXCEPTION_CONTINUE_SEARCH;
		/* taken: uncaught until its handler registers it */
		cxx_uncaught_enter();
		return EXCEPTION_EXECUTE_HANDLER;
	}
	if (!is_cxx(rec) || !(ct = cxx_match_type(want, (unsigned int)adjectives, rec)))
		return EXCEPTION_CONTINUE_SEARCH;
	TRACE(seh, "C++ exception %p taken by a filter for %s\n", (void *)rec->ExceptionInformation[1], want->name);
	if (object)
		cxx_build_object(object, (unsigned int)adjectives, ct, rec);
	cxx_uncaught_enter();
	return EXCEPTION_EXECUTE_HANDLER;
}

/* Makes the exception the thread's current one (std::current_exception,
 * `throw;`) until __CxxUnregisterExceptionObject; a rethrow record
 * stands for the exception already current.  Its handler runs now: what
 * the filter counted as uncaught is caught. */
int __cdecl vcrt___CxxRegisterExceptionObject(EXCEPTION_POINTERS *ep, void *storage)
{
	struct registration *r = storage;
	EXCEPTION_RECORD *rec;

	if (!r)
		return FALSE;
	memset(r, 0, sizeof(*r));
	if (!ep || !ep->ExceptionRecord) {
		/* nothing to register: Unregister will know */
		r->prev_exception = r->prev_context = (void *)-1;
		cxx_uncaught_leave();
		return TRUE;
	}
	rec = ep->ExceptionRecord;
	if (is_rethrow(rec) && *vcrt___current_exception())
		rec = *vcrt___current_exception();
	r->object = is_cxx(rec) ? (void *)rec->ExceptionInformation[1] : NULL;
	r->prev_exception = *vcrt___current_exception();
	r->prev_context = *vcrt___current_exception_context();
	r->next = registered;
	registered = r;
	*vcrt___current_exception() = rec;
	*vcrt___current_exception_context() = ep->ContextRecord;
	cxx_uncaught_leave();
	return TRUE;
}

/* Ends a registration: the previous exception is current again, and the
 * object dies unless rethrown or still registered or being caught. */
void __cdecl vcrt___CxxUnregisterExceptionObject(void *storage, int rethrow)
{
	struct registration *r = storage, **pp;
	const EXCEPTION_RECORD *rec;

	if (!r || r->prev_exception == (void *)-1)
		return;
	for (pp = &registered; *pp && *pp != r; pp = &(*pp)->next)
		;
	if (!*pp) {
		ndrun_error("__CxxUnregisterExceptionObject: storage %p is not registered", storage);
		vcrt___std_terminate();
	}
	*pp = r->next;
	rec = *vcrt___current_exception();
	/* a rethrown exception goes on, object and all */
	if (!rethrow && is_cxx(rec) && !cxx_object_in_use((void *)rec->ExceptionInformation[1])) {
		cxx_destroy_object((void *)rec->ExceptionInformation[1],
				   (const void *)rec->ExceptionInformation[2], rec->ExceptionInformation[3]);
	}
	*vcrt___current_exception() = r->prev_exception;
	*vcrt___current_exception_context() = r->prev_context;
}
