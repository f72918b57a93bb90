/* Forced-include header (-include) for building Microsoft's NetworkDirect
 * SDK tools (../shared/third_party/NetworkDirect-*.tar.gz) with mingw-w64:
 * they were written for MSVC, whose headers supply things mingw-w64's lack.
 * Nothing here is the SDK's: only the compiler's and headers' differences.
 *
 * The C++ standard headers come first: libstdc++ names parameters __in and
 * __out, which the legacy SAL macros below would erase. */
#ifndef NDSHIM_NDSDK_COMPAT_H
#define NDSHIM_NDSDK_COMPAT_H

#ifdef __cplusplus
#include <functional>
#include <map>
#include <new>
#include <string>
#include <cstddef>
#endif

#include <sal.h>

/* Legacy (Visual Studio 2005) SAL annotations: they describe arguments to
 * the static analyser and compile to nothing. */
#define __in
#define __in_opt
#define __out
#define __out_opt
#define __inout
#define __inout_opt
#define __callback
#define __deref_out
#define __in_bcount(n)
#define __in_bcount_opt(n)
#define __in_ecount_opt(n)
#define __out_bcount_opt(n)
#define __out_bcount_part_opt(n, m)
#define __out_ecount_part(n, m)
#define __out_ecount_part_opt(n, m)
#define __inout_bcount_opt(n)
#define __analysis_assume(e) ((void)0)
#define __annotation(...) ((void)0)
#define __fallthrough
#ifndef _Analysis_noreturn_
#define _Analysis_noreturn_
#endif

/* winsock2.h before windows.h, as the SDK's own headers order them. */
#include <winsock2.h>
#include <windows.h>

/* Old windef.h's min and max, which mingw-w64 gives C only: the tools mix
 * argument types (ULONG and SIZE_T, say) that std::min refuses. */
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif

#ifdef __cplusplus
/* ndutil sizes a SOCKET_ADDRESS_LIST with FIELD_OFFSET(..., Address[n]) for
 * a run-time n: winnt.h's FIELD_OFFSET is __builtin_offsetof, which g++
 * takes only with constant indexes.  MSVC's older definition, an address
 * taken from a null base, takes any index but is no constant expression,
 * and list.h needs one (an enumerator): so list.h is read here first, with
 * winnt.h's definition, then FIELD_OFFSET becomes the run-time one.  (The
 * SDK's ASSERTs that list.h uses come from its assertutil.h and ndutil.h.) */
#include "assertutil.h"
#include "ndutil.h"
#include "list.h"
#undef FIELD_OFFSET
#define FIELD_OFFSET(type, field) ((LONG)(LONG_PTR) & (((type *)0)->field))
#endif

#endif
