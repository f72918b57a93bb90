/* GUIDs as text: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", the form inside
 * COM's braces (CLSIDFromString) and RPC's bare UUID strings
 * (UuidFromString) alike. */
#ifndef NDSHIM_CORE_GUIDTEXT_H
#define NDSHIM_CORE_GUIDTEXT_H

#include <stdbool.h>
#include <windef.h>
#include <guiddef.h>

/* The 36 characters at s as a GUID (hex digits of either case); false,
 * g untouched, when they are not exactly that form.  What follows them
 * is the caller's to check; reading stops at the first character that
 * does not fit, so a shorter string is never read past its end. */
bool guid_from_text(const WCHAR *s, GUID *g);

#endif
