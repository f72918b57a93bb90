/* For unit tests that call Win32 functions: call win32_test_init() first
 * on the main thread (a TEB for GetLastError, the main thread object). */
#ifndef NDSHIM_TEST_WIN32_HELPER_H
#define NDSHIM_TEST_WIN32_HELPER_H

#include <windef.h>
#include <winbase.h>

void win32_test_init(void);

/* cmocka group setup/teardown: win32_test_init, and the reverse (the
 * TEB freed, for leak checkers). */
int win32_test_setup(void **state);
int win32_test_teardown(void **state);

#endif
