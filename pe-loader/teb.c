#include <asm/prctl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/list.h"
#include "loader.h"
#include "ntdll/seh.h"
#include "module.h"
#include "teb.h"
#include "tls.h"

/* The calling thread's TEB, through glibc's TLS (FS) rather than GS, so
 * ndrun's own code can ask on any thread: NULL where no PE code runs. */
static __thread TEB *thread_teb;

struct teb_entry {
	struct list entry;
	TEB *teb;
};

static struct list tebs = LIST_INIT(tebs); /* under the loader lock */
static __thread struct teb_entry *thread_entry;

#define TEB_ALLOC_SIZE ((sizeof(TEB) + 0xfff) & ~(size_t)0xfff)

TEB *loader_current_teb(void)
{
	return thread_teb;
}

void teb_for_each(void (*fn)(TEB *teb, void *arg), void *arg)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &tebs)
		fn(LIST_ENTRY(cur, struct teb_entry, entry)->teb, arg);
}

TEB *loader_thread_init(void *stack_base, void *stack_limit)
{
	struct teb_entry *e = malloc(sizeof(*e));
	TEB *teb = mmap(NULL, TEB_ALLOC_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!e || teb == MAP_FAILED)
		goto fail;
	teb->Tib.Self = &teb->Tib;
	teb->Tib.StackBase = stack_base;
	teb->Tib.StackLimit = stack_limit;
	teb->Peb = loader_peb();
	teb->ClientId.UniqueProcess = (HANDLE)(uintptr_t)getpid();
	teb->ClientId.UniqueThread = (HANDLE)(uintptr_t)syscall(SYS_gettid);
	e->teb = teb;

	loader_lock();
	if (tls_thread_init(teb)) {
		loader_unlock();
		goto fail;
	}
	list_add_tail(&tebs, &e->entry);
	loader_unlock();

	/* From here PE code on this thread finds its TEB at gs:0x30. */
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, teb)) {
		ndrun_error("cannot set the GS base for the TEB");
		abort();
	}
	thread_teb = teb;
	thread_entry = e;
	seh_thread_init();
	TRACE(thread, "TEB %p, stack %p-%p\n", (void *)teb, stack_limit, stack_base);
	return teb;
fail:
	free(e);
	if (teb != MAP_FAILED)
		munmap(teb, TEB_ALLOC_SIZE);
	return NULL;
}

void loader_thread_attach(void)
{
	loader_lock();
	module_notify_threads(DLL_THREAD_ATTACH);
	loader_unlock();
}

void loader_thread_detach(void)
{
	loader_lock();
	module_notify_threads(DLL_THREAD_DETACH);
	loader_unlock();
}

void loader_thread_exit(void)
{
	struct teb_entry *e = thread_entry;

	if (!e)
		return;
	loader_lock();
	list_remove(&e->entry);
	tls_thread_fini(e->teb);
	loader_unlock();
	thread_teb = NULL;
	thread_entry = NULL;
	seh_thread_exit();
	syscall(SYS_arch_prctl, ARCH_SET_GS, 0);
	munmap(e->teb, TEB_ALLOC_SIZE);
	free(e);
}
