/* user32.dll without a window system: what console programs import
 * (string formatting and case helpers, MessageBox on stderr, system
 * metrics of a machine with no display). */
#ifndef NDSHIM_USER32_PRIVATE_H
#define NDSHIM_USER32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winuser.h>

#endif
