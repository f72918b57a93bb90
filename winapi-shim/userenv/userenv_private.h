/* userenv.dll: the user's profile folder, which is USERPROFILE of the
 * Windows environment ndrun builds (shell32's FOLDERID_Profile is the
 * same folder); see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_USERENV_PRIVATE_H
#define NDSHIM_USERENV_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <userenv.h>

#endif
