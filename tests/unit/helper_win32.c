/* Linked into every unit test (see rules.mk).
 *
 * Until the loader's thread functions are linked in, these weak
 * fallbacks stand in for them: a calloc'ed TEB per thread, reached
 * through loader_current_teb, which the unit-test link wraps
 * (-Wl,--wrap=loader_current_teb) so it sees this TEB first and falls
 * back to the loader's own answer otherwise.  Once pe-loader/ defines
 * loader_thread_init & co., its strong definitions win and these go
 * unused. */
#include <stdlib.h>
#include <pthread.h>

#include "core/thread.h"
#include "loader.h"
#include "win32_helper.h"

static __thread TEB *fallback_teb;

TEB *__real_loader_current_teb(void);
TEB *__wrap_loader_current_teb(void);

TEB *__wrap_loader_current_teb(void)
{
	return fallback_teb ? fallback_teb : __real_loader_current_teb();
}

__attribute__((weak)) TEB *loader_thread_init(void *stack_base, void *stack_limit)
{
	TEB *teb = calloc(1, sizeof(*teb));

	if (!teb)
		return NULL;
	teb->Tib.StackBase = stack_base;
	teb->Tib.StackLimit = stack_limit;
	teb->Tib.Self = &teb->Tib;
	fallback_teb = teb;
	return teb;
}

__attribute__((weak)) void loader_thread_attach(void)
{
}

__attribute__((weak)) void loader_thread_detach(void)
{
}

__attribute__((weak)) void loader_thread_exit(void)
{
	free(fallback_teb);
	fallback_teb = NULL;
}

__attribute__((weak)) void loader_exit_process(UINT code)
{
	exit((int)code);
}

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
	loader_thread_init((char *)addr + size, addr);
	thread_init_main();
}

int win32_test_setup(void **state)
{
	win32_test_init();
	return 0;
}
