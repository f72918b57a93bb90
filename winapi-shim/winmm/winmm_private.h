/* winmm.dll: the multimedia timer functions programs use for timing
 * (timeGetTime, timer resolution); no audio, MIDI or joysticks; see
 * docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_WINMM_PRIVATE_H
#define NDSHIM_WINMM_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <mmsystem.h>

#endif
