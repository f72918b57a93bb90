/* crypt32.dll: the conversions between binary data and Base64 or
 * hexadecimal text (CryptBinaryToString, CryptStringToBinary) that
 * programs use on their own; no certificate stores, ASN.1 or messages;
 * see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_CRYPT32_PRIVATE_H
#define NDSHIM_CRYPT32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <wincrypt.h>

#endif
