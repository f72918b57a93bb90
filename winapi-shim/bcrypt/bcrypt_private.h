/* bcrypt.dll (CNG): the random-number generator only.  Other algorithms
 * are not provided: opening one fails with STATUS_NOT_FOUND, and the
 * other bcrypt functions are traps that name themselves. */
#ifndef NDSHIM_BCRYPT_PRIVATE_H
#define NDSHIM_BCRYPT_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <bcrypt.h>

#endif
