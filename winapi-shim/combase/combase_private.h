/* combase.dll (and ole32.dll, whose exports are the same functions, as
 * Windows forwards them): the in-process parts of COM a console program
 * uses without any class being registered: apartments, task memory,
 * GUIDs and their strings, activation that finds no class, and
 * PROPVARIANT clean-up.  There is no registry of classes, no marshalling
 * and no remoting; see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_COMBASE_PRIVATE_H
#define NDSHIM_COMBASE_PRIVATE_H

#define COBJMACROS
#include <windef.h>
#include <winbase.h>
#include <objbase.h>
#include <propidl.h>

/* A GUID's registry string with its NUL (Microsoft's cguid.h). */
#ifndef CHARS_IN_GUID
#define CHARS_IN_GUID 39
#endif

/* Whether the calling thread has initialised COM (apartment.c). */
BOOL com_thread_initialised(void);

/* The hex digits of a GUID in its registry form, {8-4-4-4-12}, into
 * buf (39 WCHARs with the NUL) (guid.c). */
void com_guid_format(const GUID *guid, WCHAR *buf);

#endif
