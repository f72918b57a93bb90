/* The ND provider through the Winsock catalog (ndcatalog.h). */
#include <winsock2.h>
#include <ws2spi.h>
#include <windows.h>
#include <stdlib.h>

#include "ndcatalog.h"
#include "ndcheck.h"

BOOL nd_find_entry(int v, DWORD pfl, GUID *id)
{
	WSAPROTOCOL_INFOW *info;
	DWORD len = 0;
	int err, n, i;
	BOOL found = FALSE;

	WSCEnumProtocols(NULL, NULL, &len, &err);
	info = malloc(len);
	if (!info)
		return FALSE;
	n = WSCEnumProtocols(NULL, info, &len, &err);
	for (i = 0; i < n; i++)
		if ((info[i].dwServiceFlags1 & XP1_ND) == XP1_ND && info[i].iSocketType == -1 &&
		    info[i].iProtocol == 0 && info[i].iProtocolMaxOffset == 0 && info[i].iVersion == v &&
		    (info[i].dwProviderFlags & pfl) == pfl) {
			*id = info[i].ProviderId;
			found = TRUE;
			break;
		}
	free(info);
	return found;
}

get_class_fn nd_load_entry(const GUID *id, HMODULE *dll, WCHAR *full)
{
	WCHAR path[MAX_PATH];
	int plen = MAX_PATH, err;

	if (WSCGetProviderPath((GUID *)id, path, &plen, &err))
		return NULL;
	ExpandEnvironmentStringsW(path, full, MAX_PATH);
	*dll = LoadLibraryExW(full, NULL, 0);
	return *dll ? (get_class_fn)(void *)GetProcAddress(*dll, "DllGetClassObject") : NULL;
}

IND2Provider *nd_open_provider(DWORD pfl)
{
	WCHAR full[MAX_PATH];
	IND2Provider *p = NULL;
	get_class_fn get_class;
	HMODULE dll;
	GUID id;

	if (!nd_find_entry(ND_VERSION_2, pfl, &id))
		die("no ND v2 provider in the catalog");
	get_class = nd_load_entry(&id, &dll, full);
	if (!get_class || get_class(&id, &IID_IND2Provider, (void **)&p) != S_OK)
		die("the provider loads");
	return p;
}
