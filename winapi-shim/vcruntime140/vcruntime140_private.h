/* Prototypes of vcruntime140.dll's own exports.  Its C functions
 * (memcpy family, setjmp, __C_specific_handler) are msvcrt's, declared in
 * msvcrt_private.h; the C++ runtime support lives here. */
#ifndef NDSHIM_VCRUNTIME140_PRIVATE_H
#define NDSHIM_VCRUNTIME140_PRIVATE_H

#include <stdbool.h>

#include "msvcrt/msvcrt_private.h"

/* vcruntime_exception.h */
struct vcrt_exception_data {
	const char *what;
	bool do_free;
};

/* vcruntime_typeinfo.h: the part of a type_info the helpers read. */
struct vcrt_type_info_data {
	const char *undecorated_name;
	const char decorated_name[1];
};

/* A C++ throw is SEH exception 0xe06d7363 ("msc") with these parameters. */
#define VCRT_CXX_EXCEPTION 0xe06d7363
#define VCRT_CXX_MAGIC 0x19930520

/* an assembly stub (ntdll/context.S) over vcrt_cxx_throw_worker */
void __cdecl vcrt__CxxThrowException(void *object, const void *throw_info) __attribute__((noreturn));
void __attribute__((ms_abi)) vcrt_cxx_throw_worker(ULONG_PTR *args, CONTEXT *ctx);
void __cdecl vcrt___std_exception_copy(const struct vcrt_exception_data *from, struct vcrt_exception_data *to);
void __cdecl vcrt___std_exception_destroy(struct vcrt_exception_data *data);
int __cdecl vcrt___std_type_info_compare(const struct vcrt_type_info_data *a, const struct vcrt_type_info_data *b);
size_t __cdecl vcrt___std_type_info_hash(const struct vcrt_type_info_data *data);
void __cdecl vcrt___std_type_info_destroy_list(SLIST_HEADER *list);
void __cdecl vcrt___std_terminate(void) __attribute__((noreturn));
void __cdecl vcrt__purecall(void) __attribute__((noreturn));
int __cdecl vcrt___CxxDetectRethrow(EXCEPTION_POINTERS *ep);
int __cdecl vcrt___CxxExceptionFilter(EXCEPTION_POINTERS *ep, const void *type, int adjectives, void *object);
unsigned int __cdecl vcrt___CxxQueryExceptionSize(void);
int __cdecl vcrt___CxxRegisterExceptionObject(EXCEPTION_POINTERS *ep, void *storage);
void __cdecl vcrt___CxxUnregisterExceptionObject(void *storage, int rethrow);
void **__cdecl vcrt___current_exception(void);
void **__cdecl vcrt___current_exception_context(void);
bool __cdecl vcrt___uncaught_exception(void);
int __cdecl vcrt___uncaught_exceptions(void);
int *__cdecl vcrt___processing_throw(void);
BOOL __cdecl vcrt___vcrt_InitializeCriticalSectionEx(CRITICAL_SECTION *cs, DWORD spin, DWORD flags);
HMODULE __cdecl vcrt___vcrt_GetModuleHandleW(const WCHAR *name);
DWORD __cdecl vcrt___vcrt_GetModuleFileNameW(HMODULE module, WCHAR *buf, DWORD size);
HMODULE __cdecl vcrt___vcrt_LoadLibraryExW(const WCHAR *name, HANDLE file, DWORD flags);

#endif
