#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "loader.h"
#include "module.h"
#include "ntdll/seh.h"
#include "pe_dirs.h"
#include "teb.h"
#include "tls.h"

/* The vector has a fixed size so that loading a module never moves a
 * vector another thread may be reading. */
#define TLS_MAX_MODULES 128

struct tls_template {
	struct module *module; /* NULL: index free */
	const uint8_t *data;
	size_t data_size;
	size_t zero_fill;
	const uint64_t *callbacks; /* NULL-terminated VAs, or NULL */
};

static struct tls_template templates[TLS_MAX_MODULES];

static void *new_block(const struct tls_template *t)
{
	void *block;

	if (posix_memalign(&block, 64, t->data_size + t->zero_fill + 1))
		return NULL;
	memcpy(block, t->data, t->data_size);
	memset((uint8_t *)block + t->data_size, 0, t->zero_fill + 1);
	return block;
}

struct alloc_ctx {
	int index;
	int failed;
};

static void give_thread_block(TEB *teb, void *arg)
{
	struct alloc_ctx *ctx = arg;
	void **vec = teb->ThreadLocalStoragePointer;

	vec[ctx->index] = new_block(&templates[ctx->index]);
	if (!vec[ctx->index])
		ctx->failed = 1;
}

static void drop_thread_block(TEB *teb, void *arg)
{
	void **vec = teb->ThreadLocalStoragePointer;
	int index = *(int *)arg;

	free(vec[index]);
	vec[index] = NULL;
}

int tls_module_init(struct module *m, char *err, size_t errlen)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&m->img, IMAGE_DIRECTORY_ENTRY_TLS);
	const IMAGE_TLS_DIRECTORY64 *td;
	struct tls_template *t;
	struct alloc_ctx ctx = { -1, 0 };

	m->tls_index = -1;
	if (!dir)
		return 0;
	td = pe_check_tls(m->base, m->size, dir, err, errlen);
	if (!td)
		return -1;
	for (int i = 0; i < TLS_MAX_MODULES && ctx.index < 0; i++)
		if (!templates[i].module)
			ctx.index = i;
	if (ctx.index < 0) {
		snprintf(err, errlen, "too many modules with static TLS (at most %d)", TLS_MAX_MODULES);
		return -1;
	}
	t = &templates[ctx.index];
	t->module = m;
	t->data = (const uint8_t *)(uintptr_t)td->StartAddressOfRawData;
	t->data_size = td->EndAddressOfRawData - td->StartAddressOfRawData;
	t->zero_fill = td->SizeOfZeroFill;
	t->callbacks = (const uint64_t *)(uintptr_t)td->AddressOfCallBacks;
	m->tls_index = ctx.index;
	*(DWORD *)(uintptr_t)td->AddressOfIndex = (DWORD)ctx.index;

	teb_for_each(give_thread_block, &ctx);
	if (ctx.failed) {
		tls_module_fini(m);
		snprintf(err, errlen, "out of memory for TLS");
		return -1;
	}
	TRACE(tls, "%s: index %d, %zu+%zu bytes\n", m->name, ctx.index, t->data_size, t->zero_fill);
	return 0;
}

void tls_module_fini(struct module *m)
{
	int index = m->tls_index;

	if (index < 0)
		return;
	teb_for_each(drop_thread_block, &index);
	memset(&templates[index], 0, sizeof(templates[index]));
	m->tls_index = -1;
}

int tls_call_callbacks(struct module *m, DWORD reason)
{
	const uint64_t *cb;
	uint64_t fn;

	if (m->tls_index < 0 || !(cb = templates[m->tls_index].callbacks))
		return 0;
	/* The array lies where the image says, which a damaged image may
	 * have made unreadable (a section without the read flag): Windows'
	 * loader faults reading it, and the load fails. */
	for (;; cb++) {
		if (!seh_copy_from_user(&fn, cb, sizeof(fn))) {
			TRACE(tls, "%s: TLS callback array at %p not readable\n", m->name, (const void *)cb);
			return -1;
		}
		if (!fn)
			return 0;
		TRACE(tls, "%s: callback %p(%lu)\n", m->name, (void *)(uintptr_t)fn, (unsigned long)reason);
		loader_call_pe((void *)(uintptr_t)fn, (uintptr_t)m->base, reason, 0);
	}
}

int tls_thread_init(TEB *teb)
{
	void **vec = calloc(TLS_MAX_MODULES, sizeof(void *));

	if (!vec)
		return -1;
	teb->ThreadLocalStoragePointer = vec;
	for (int i = 0; i < TLS_MAX_MODULES; i++) {
		if (!templates[i].module)
			continue;
		vec[i] = new_block(&templates[i]);
		if (!vec[i]) {
			tls_thread_fini(teb);
			return -1;
		}
	}
	return 0;
}

void tls_thread_fini(TEB *teb)
{
	void **vec = teb->ThreadLocalStoragePointer;

	if (!vec)
		return;
	for (int i = 0; i < TLS_MAX_MODULES; i++)
		free(vec[i]);
	free(vec);
	teb->ThreadLocalStoragePointer = NULL;
}
