/* Forced-included before every MS-MPI source file that tests/msmpi/build
 * compiles with clang --target=x86_64-w64-mingw32 -fms-compatibility.
 * MS-MPI is written for MSVC and the Windows SDK; this header bridges the
 * differences with mingw-w64's headers, nothing else.  ndshim's own text,
 * written from the compilers' and SDK headers' documented behaviour. */
#ifndef NDSHIM_MSMPI_COMPAT_H
#define NDSHIM_MSMPI_COMPAT_H

/* The mingw headers are included first, so that the macros MS-MPI's
 * headers define afterwards (strsafe's "use StringCch instead" renames of
 * strcpy & co.) cannot reach the prototypes inside intrin.h. */
#ifdef __cplusplus
/* MS-MPI builds with /Zc:wchar_t-: wchar_t is the Windows SDK's typedef of
 * unsigned short, not a distinct C++ type, so that its wide strings pass
 * as RPC_WSTR (unsigned short *).  clang's -fno-wchar removes the keyword;
 * this is the typedef in its place. */
typedef unsigned short wchar_t;
#endif
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <intrin.h>
#include <sal.h>
#include <shlwapi.h>
#include <mstcpip.h>

/* mingw-w64 spells MSVC's compiler barriers as macros over one asm
 * statement; MS-MPI declares them as functions (and #pragma intrinsic),
 * which clang provides as builtins in -fms-extensions mode. */
#undef _ReadBarrier
#undef _ReadWriteBarrier
#undef _WriteBarrier

/* SAL 2 annotations the Windows SDK has and mingw-w64's sal.h lacks: for
 * the compiler they mean nothing. */
#define _Analysis_noreturn_
#define _Err_
#define _Notnull_
#define _Notref_
#define _Post_invalid_
#define _Post_ptr_invalid_
#define _Pre_maybenull_
#define _Pre_opt_valid_
#define _Pre_valid_
#define _Ret_
#define _Deref_out_z_cap_c_(n)
#define _Deref_pre_cap_c_(n)
#define _Old_(e) (e)

/* Legacy (SAL 1) annotations missing from mingw-w64. */
#define __in
#define __in_z
#define __out
#define __deref_inout_bcount_part(n, m)
#define __analysis_assert(e) ((void)0)

/* `__override` marks a virtual that overrides: no meaning for the
 * compiler. */
#define __override

/* `__int2c()` raises the assertion-failure interrupt (int 0x2c). */
#define __int2c() __debugbreak()

/* windows.h's min and max, which mingw-w64 leaves out of C++. */
#ifndef NOMINMAX
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#endif

#ifdef __cplusplus
/* winnt.h's C_ASSERT declares an extern array, which C++ refuses when one
 * use is inside extern "C" and another is not. */
#undef C_ASSERT
#define C_ASSERT(e) static_assert(e, #e)

/* The SDK declares the terminator PCWSTR *, mingw-w64 LPWSTR *. */
static inline LONG RtlIpv4StringToAddressW(PCWSTR s, BOOLEAN strict, PCWSTR *term, IN_ADDR *addr)
{
	return RtlIpv4StringToAddressW(s, strict, (LPWSTR *)term, addr);
}
#endif

#ifdef __cplusplus
/* Structured exception handling.  clang accepts __try/__except for the
 * mingw target but emits no handler, so an exception raised inside one
 * (RpcRaiseException from rpcrt4 when a call to the process manager
 * fails: 14 of MS-MPI's 17 sites are RpcTryExcept) would end the process.
 * These macros give the same blocks a working handler (glue/seh.cpp): the
 * __try pushes a per-thread frame and saves the thread's registers with
 * msvcrt's _setjmp (every non-volatile register: __builtin_setjmp keeps
 * only the frame and stack pointers, and the function's other values
 * would come back as the raise left them); a vectored exception handler
 * takes an exception raised while a frame is pushed, resumes the thread
 * at a landing function that longjmps back to the frame, and the __except
 * filter is then evaluated with the exception's code and record.  A
 * filter that declines re-raises the exception to the next frame out.
 * The blocks MS-MPI writes (no __finally, no __leave, no
 * EXCEPTION_CONTINUE_EXECUTION) need nothing more. */
#include <setjmp.h>
struct ndshim_seh_frame {
	jmp_buf jb;
	ndshim_seh_frame *prev;
	bool active;
	ndshim_seh_frame();
	~ndshim_seh_frame();
};
void ndshim_seh_push(ndshim_seh_frame *f);
bool ndshim_seh_filter(ndshim_seh_frame *f, long verdict);
DWORD ndshim_seh_code(void);
EXCEPTION_POINTERS *ndshim_seh_info(void);

/* _setjmp with no frame: longjmp restores the registers and does not
 * unwind (there is nothing to unwind between the raise and the frame). */
#define __try if (ndshim_seh_frame ndshim_f_; ndshim_seh_push(&ndshim_f_), _setjmp(ndshim_f_.jb, NULL) == 0)
#define __except(filter) else if (ndshim_seh_filter(&ndshim_f_, (filter)))
#undef GetExceptionCode
#undef GetExceptionInformation
#define GetExceptionCode() ndshim_seh_code()
#define GetExceptionInformation() ndshim_seh_info()
#endif

#endif
