/* vcruntime140's C++ support that does not need the EH frame handlers:
 * throwing (_CxxThrowException raises the SEH exception the frame
 * handlers look for), std::exception's string helpers, type_info
 * comparison and hashing, and the per-thread exception state.
 *
 * The frame handler that catches (__CxxFrameHandler3) is in cxxframe.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcruntime140/vcruntime140_private.h"
#include "vcruntime140/cxxframe.h"
/* the dispatcher itself: the throw stub hands it the caller's context */
#include "ntdll/seh_private.h"
#include "core/debug.h"

/* The per-thread state a frame handler keeps while a catch block runs. */
static __thread void *current_exception, *current_context;
/* std::uncaught_exceptions() as vcruntime keeps it: not a count of
 * thrown objects but of the unwinds in progress on this thread (each
 * frame's destructors run inside one), plus the exceptions a
 * __CxxExceptionFilter took and no registration entered yet.  A throw
 * and its search change nothing, so an exception an SEH __except takes
 * leaves no trace.  vcruntime hands out its address too
 * (__processing_throw): it is the one count both read. */
static __thread int processing_throw;

void cxx_uncaught_enter(void)
{
	processing_throw++;
}

/* never below 0: a program may have written it through
 * __processing_throw */
void cxx_uncaught_leave(void)
{
	if (processing_throw > 0)
		processing_throw--;
}

/* _CxxThrowException(object, throw_info) is an assembly stub (ntdll's
 * context.S) that captures the PE caller's context: the exception is
 * dispatched from there, so the walk starts in the throwing function. */
void __attribute__((ms_abi)) vcrt_cxx_throw_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	void *object = (void *)args[0];
	const void *throw_info = (const void *)args[1];
	EXCEPTION_RECORD rec;
	ULONG64 image = 0;

	if (!object && !throw_info) {
		/* `throw;`: the exception of the innermost running catch block
		 * again, object and all */
		if (!cxx_current_catch(&object, &throw_info, &image)) {
			ndrun_error("throw; with no exception being handled");
			vcrt___std_terminate();
		}
		TRACE(seh, "C++ rethrow of %p\n", object);
	} else {
		HMODULE module = NULL;

		/* x64 ThrowInfo fields are RVAs from the image that holds it. */
		GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
				   GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
				   (const WCHAR *)throw_info, &module);
		image = (ULONG64)module;
		TRACE(seh, "C++ throw of %p (ThrowInfo %p, image %p)\n", object, throw_info, (void *)module);
	}
	memset(&rec, 0, sizeof(rec));
	rec.ExceptionCode = VCRT_CXX_EXCEPTION;
	rec.ExceptionFlags = EXCEPTION_NONCONTINUABLE;
	rec.ExceptionAddress = (void *)ctx->Rip;
	rec.NumberParameters = 4;
	rec.ExceptionInformation[0] = VCRT_CXX_MAGIC;
	rec.ExceptionInformation[1] = (ULONG_PTR)object;
	rec.ExceptionInformation[2] = (ULONG_PTR)throw_info;
	rec.ExceptionInformation[3] = image;
	seh_dispatch(&rec, ctx);
	/* a handler continued a non-continuable exception */
	vcrt___std_terminate();
}

/* std::exception(const char *) keeps its own copy of the message when
 * do_free says the source owns one. */
void __cdecl vcrt___std_exception_copy(const struct vcrt_exception_data *from, struct vcrt_exception_data *to)
{
	if (from->do_free && from->what) {
		char *copy = crt_malloc(strlen(from->what) + 1);
		if (copy) {
			strcpy(copy, from->what);
			to->what = copy;
			to->do_free = true;
			return;
		}
		/* as vcruntime: without memory the copy has no message */
		to->what = NULL;
		to->do_free = false;
		return;
	}
	to->what = from->what;
	to->do_free = false;
}

void __cdecl vcrt___std_exception_destroy(struct vcrt_exception_data *data)
{
	if (data->do_free)
		crt_free((void *)data->what);
	data->what = NULL;
	data->do_free = false;
}

/* Types are equal when their decorated names are (after the leading
 * '.'), so type_infos from different modules compare equal. */
int __cdecl vcrt___std_type_info_compare(const struct vcrt_type_info_data *a, const struct vcrt_type_info_data *b)
{
	if (a == b)
		return 0;
	return strcmp(a->decorated_name + 1, b->decorated_name + 1);
}

/* FNV-1a over the decorated name, as vcruntime hashes it. */
size_t __cdecl vcrt___std_type_info_hash(const struct vcrt_type_info_data *data)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)data->decorated_name + 1; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The list caches names __std_type_info_name built; its nodes are the
 * CRT heap blocks that function allocated. */
void __cdecl vcrt___std_type_info_destroy_list(SLIST_HEADER *list)
{
	SLIST_ENTRY *e = InterlockedFlushSList(list);

	while (e) {
		SLIST_ENTRY *next = e->Next;
		crt_free(e);
		e = next;
	}
}

void __cdecl vcrt___std_terminate(void)
{
	ucrt_terminate();
}

/* A call through a pure virtual slot: vcruntime reports it and aborts. */
void __cdecl vcrt__purecall(void)
{
	static const char msg[] = "ndrun: pure virtual function call (_purecall)\n";

	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing left to report to */
	}
	crt_abort();
}

void **__cdecl vcrt___current_exception(void)
{
	return &current_exception;
}

void **__cdecl vcrt___current_exception_context(void)
{
	return &current_context;
}

int *__cdecl vcrt___processing_throw(void)
{
	return &processing_throw;
}

int __cdecl vcrt___uncaught_exceptions(void)
{
	return processing_throw;
}

/* std::uncaught_exception(), the C++98 form. */
bool __cdecl vcrt___uncaught_exception(void)
{
	return processing_throw > 0;
}

/* msvcp140 reaches these kernel32 functions through vcruntime140. */
BOOL __cdecl vcrt___vcrt_InitializeCriticalSectionEx(CRITICAL_SECTION *cs, DWORD spin, DWORD flags)
{
	return InitializeCriticalSectionEx(cs, spin, flags);
}

HMODULE __cdecl vcrt___vcrt_GetModuleHandleW(const WCHAR *name)
{
	return GetModuleHandleW(name);
}

DWORD __cdecl vcrt___vcrt_GetModuleFileNameW(HMODULE module, WCHAR *buf, DWORD size)
{
	return GetModuleFileNameW(module, buf, size);
}

HMODULE __cdecl vcrt___vcrt_LoadLibraryExW(const WCHAR *name, HANDLE file, DWORD flags)
{
	return LoadLibraryExW(name, file, flags);
}
