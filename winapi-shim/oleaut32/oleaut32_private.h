/* oleaut32.dll: Automation's strings (BSTR) and VARIANTs, the parts
 * programs use to talk to COM and WMI-style interfaces, without type
 * libraries, SAFEARRAYs or dispatch, and the per-thread error object;
 * see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_OLEAUT32_PRIVATE_H
#define NDSHIM_OLEAUT32_PRIVATE_H

#define COBJMACROS
#include <windef.h>
#include <winbase.h>
#include <objbase.h>
#include <oleauto.h>

#endif
