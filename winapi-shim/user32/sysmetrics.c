/* GetSystemMetrics on a machine with no window system.
 *
 * ndrun has no display, mouse or desktop: every metric of the screen,
 * the monitors and the pointer answers 0 (SM_CMONITORS is 0: no display
 * monitor; SM_MOUSEPRESENT and SM_CMOUSEBUTTONS are 0, as the docs give
 * for a machine without a mouse), and so do the window-frame, icon and
 * cursor sizes, which belong to a desktop theme there is none of.  Flags
 * answer what is true of the process: not a remote session, a normal
 * boot, no debug user32, no DBCS or Middle-East support, not shutting
 * down.  SM_NETWORK has its lowest bit set: the network is present.
 * An index the docs do not define answers 0 as well, Windows' failure
 * value (no last error, as documented).
 *
 * Wine's null display driver (wine64 without $DISPLAY) instead pretends
 * a 1024x768 screen with one monitor and a mouse; tests/pe/user32_basics
 * marks those answers todo_wine. */
#include "core/debug.h"
#include "user32/user32_private.h"

int WINAPI GetSystemMetrics(int index)
{
	int v = 0;

	if (index == SM_NETWORK)
		v = 1;
	TRACE(misc, "%d -> %d\n", index, v);
	return v;
}

int WINAPI GetSystemMetricsForDpi(int index, UINT dpi)
{
	return GetSystemMetrics(index);
}
