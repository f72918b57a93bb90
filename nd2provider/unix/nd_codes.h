/* The project's ND headers (status codes, flags, ND2_RESULT/ND2_SGE) seen
 * from plain Linux code, without the Win32 headers: the few Windows types
 * they use, with their Windows x64 sizes. */
#ifndef NDSHIM_ND_CODES_H
#define NDSHIM_ND_CODES_H

#include <stddef.h>
#include <stdint.h>

typedef int32_t HRESULT;
typedef uint32_t ULONG;
typedef uint16_t UINT16;
typedef uint32_t UINT32;
typedef uint64_t UINT64;
typedef uint64_t SIZE_T;
typedef void VOID;

#include "ndstatus.h"
#include "nddef.h"

/* NTSTATUS values clients compare against that ndstatus.h does not name. */
#define ND_STATUS_DATA_ERROR ((HRESULT)0xC000003EL)
#define ND_STATUS_BAD_NETWORK_NAME ((HRESULT)0xC00000CCL)
#define ND_STATUS_ADDRESS_ALREADY_ASSOCIATED ((HRESULT)0xC0000238L)

#endif
