/* _splitpath, _makepath and their wide and _s forms (stdlib.h), from
 * splitpath_chars.h for char and for WCHAR. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define CRT_MAX_DRIVE 3
#define CRT_MAX_DIR 256
#define CRT_MAX_FNAME 256
#define CRT_MAX_EXT 256

#define CH char
#define NAME(n, w) n
#include "msvcrt/splitpath_chars.h"
#undef CH
#undef NAME

#define CH WCHAR
#define NAME(n, w) w
#include "msvcrt/splitpath_chars.h"
#undef CH
#undef NAME
