/* crypt32.dll: the conversions between binary data and Base64 or
 * hexadecimal text (CryptBinaryToString, CryptStringToBinary), and the
 * system's trusted certificate authorities as the ROOT store, which TLS
 * libraries read (store.c); no chain building, ASN.1 encoding or
 * messages; see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_CRYPT32_PRIVATE_H
#define NDSHIM_CRYPT32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winnls.h>
#include <wincrypt.h>

#endif
