/* How the rig programs find nd2prov.dll, as ND clients do (ndcatalog.c):
 * the provider's entry in the Winsock catalog, the DLL it names, and the
 * IND2Provider its DllGetClassObject gives. */
#ifndef NDSHIM_TESTS_NDCATALOG_H
#define NDSHIM_TESTS_NDCATALOG_H

#include <winsock2.h>
#include <windows.h>

#include "ndspi.h"

#define XP1_ND (XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | XP1_CONNECT_DATA)

typedef HRESULT(WINAPI *get_class_fn)(REFCLSID, REFIID, void **);

/* The catalog's first entry of ND version v (ND_VERSION_1 or _2): the
 * XP1_ND service flags, no socket type, protocol 0, and every bit of pfl
 * in its provider flags.  FALSE if there is none. */
BOOL nd_find_entry(int v, DWORD pfl, GUID *id);
/* The entry's DLL (its catalog path with environment strings expanded, in
 * full: MAX_PATH characters) loaded into *dll; its DllGetClassObject, or
 * NULL if a step failed. */
get_class_fn nd_load_entry(const GUID *id, HMODULE *dll, WCHAR *full);
/* Both, then DllGetClassObject(IID_IND2Provider) for the ND v2 entry with
 * pfl: the provider, or the run stops naming the step that failed. */
IND2Provider *nd_open_provider(DWORD pfl);

#endif
