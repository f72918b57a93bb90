/* The interface IDs of ndspi.h, defined once for every client of libnd2
 * (DEFINE_GUID makes selectany definitions here, declarations elsewhere). */
#include <winsock2.h>
#include <windows.h>
#include <initguid.h>

#include "ndspi.h"
