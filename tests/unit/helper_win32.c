/* Linked into every unit test (see rules.mk): gives the test's main
 * thread what ndrun's main gives the program's: a TEB from the loader
 * (GetLastError, TLS slots) and the main thread object. */
#include <pthread.h>
#include <stdlib.h>

#include "core/thread.h"
#include "loader.h"
#include "win32_helper.h"

void win32_test_init(void)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;

	if (thread_current())
		return;
	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstack(&attr, &addr, &size);
		pthread_attr_destroy(&attr);
	}
	if (!loader_thread_init((char *)addr + size, addr))
		abort();
	thread_init_main();
}

int win32_test_setup(void **state)
{
	win32_test_init();
	return 0;
}

int win32_test_teardown(void **state)
{
	thread_fini_main();
	loader_thread_exit();
	return 0;
}
