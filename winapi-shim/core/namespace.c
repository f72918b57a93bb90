/* The named-object namespace of the process: a short list, since
 * programs name few objects.  Entries do not hold references; an object
 * leaves the list when destroyed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/klock.h"
#include "core/shsync.h"
#include "core/sync.h"

struct named {
	struct list entry;
	struct object *obj;
	WCHAR name[];
};

static struct list names = LIST_INIT(names);
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t wlen(const WCHAR *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static bool has_prefix(const WCHAR *s, const char *prefix)
{
	while (*prefix && *s == (unsigned char)*prefix)
		s++, prefix++;
	return !*prefix;
}

/* The name without its Local\ or Global\ prefix: one namespace per
 * user here (core/shm.c), where "Local\x" and "x" are one object on
 * Windows too. */
static const WCHAR *base_name(const WCHAR *s)
{
	if (has_prefix(s, "Local\\"))
		return s + 6;
	if (has_prefix(s, "Global\\"))
		return s + 7;
	return s;
}

static bool wequal(const WCHAR *a, const WCHAR *b)
{
	a = base_name(a);
	b = base_name(b);
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* A reference unless destroy already started (refcount reached 0). */
static bool ref_if_live(struct object *obj)
{
	unsigned int n = atomic_load(&obj->refcount);

	while (n)
		if (atomic_compare_exchange_weak(&obj->refcount, &n, n + 1))
			return true;
	return false;
}

struct object *namespace_insert(const WCHAR *name, struct object *obj, bool *existed)
{
	size_t len = wlen(name);
	struct named *n;
	struct list *cur;

	*existed = false;
	/* Names are one namespace across types, shared ones included. */
	if (shsync_name_taken(name)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	klock(&names_lock);
	LIST_FOR_EACH(cur, &names) {
		n = LIST_ENTRY(cur, struct named, entry);
		if (!wequal(n->name, name) || !ref_if_live(n->obj))
			continue;
		kunlock(&names_lock);
		if (n->obj->ops != obj->ops) {
			object_unref(n->obj);
			SetLastError(ERROR_INVALID_HANDLE);
			return NULL;
		}
		*existed = true;
		return n->obj;
	}
	n = malloc(sizeof(*n) + (len + 1) * sizeof(WCHAR));
	if (!n) {
		kunlock(&names_lock);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	n->obj = obj;
	memcpy(n->name, name, (len + 1) * sizeof(WCHAR));
	list_add_tail(&names, &n->entry);
	kunlock(&names_lock);
	TRACE(sync, "%s %s\n", obj->ops->type_name, debugstr_w(name));
	return obj;
}

struct object *namespace_find_object(const WCHAR *name)
{
	struct object *found = NULL;
	struct list *cur;

	klock(&names_lock);
	LIST_FOR_EACH(cur, &names) {
		struct named *n = LIST_ENTRY(cur, struct named, entry);

		if (wequal(n->name, name) && ref_if_live(n->obj)) {
			found = n->obj;
			break;
		}
	}
	kunlock(&names_lock);
	return found;
}

void namespace_remove(struct object *obj)
{
	struct list *cur, *tmp;

	klock(&names_lock);
	LIST_FOR_EACH_SAFE(cur, tmp, &names) {
		struct named *n = LIST_ENTRY(cur, struct named, entry);

		if (n->obj == obj) {
			list_remove(&n->entry);
			free(n);
		}
	}
	kunlock(&names_lock);
}

WCHAR *namespace_name_from_a(const char *name)
{
	size_t len, i;
	WCHAR *w;

	if (!name)
		return NULL;
	len = strlen(name);
	w = malloc((len + 1) * sizeof(WCHAR));
	if (!w)
		return NULL;
	for (i = 0; i <= len; i++)
		w[i] = (unsigned char)name[i];
	return w;
}

DWORD sync_map_access(DWORD access, const GENERIC_MAPPING *mapping)
{
	if (access & GENERIC_READ)
		access |= mapping->GenericRead;
	if (access & GENERIC_WRITE)
		access |= mapping->GenericWrite;
	if (access & GENERIC_EXECUTE)
		access |= mapping->GenericExecute;
	if (access & (GENERIC_ALL | MAXIMUM_ALLOWED))
		access |= mapping->GenericAll;
	return access & ~(GENERIC_READ | GENERIC_WRITE | GENERIC_EXECUTE | GENERIC_ALL | MAXIMUM_ALLOWED);
}

/* Windows' rules for an object name: it fits a UNICODE_STRING, and no
 * backslash but the one after a namespace prefix (Global\, Local\): any
 * other names a directory that does not exist. */
DWORD namespace_check_name(const WCHAR *name)
{
	const WCHAR *p = name;

	if (wlen(name) > UNICODE_STRING_MAX_CHARS)
		return ERROR_FILENAME_EXCED_RANGE;
	if (has_prefix(p, "Global\\"))
		p += 7;
	else if (has_prefix(p, "Local\\"))
		p += 6;
	for (; *p; p++)
		if (*p == '\\')
			return ERROR_PATH_NOT_FOUND;
	return 0;
}

HANDLE sync_create_handle(struct object *obj, const WCHAR *name)
{
	return sync_create_handle_access(obj, name, GENERIC_ALL);
}

HANDLE sync_create_handle_access(struct object *obj, const WCHAR *name, DWORD access)
{
	bool existed = false;
	struct object *named;
	DWORD err;
	HANDLE h;

	if (!obj)
		return NULL;
	if (name && (err = namespace_check_name(name))) {
		object_unref(obj);
		SetLastError(err);
		return NULL;
	}
	if (name && *name) {
		named = namespace_insert(name, obj, &existed);
		if (named != obj)
			object_unref(obj);
		if (!named)
			return NULL;
		obj = named;
	}
	h = handle_create(obj, access, 0);
	object_unref(obj);
	if (h)
		SetLastError(existed ? ERROR_ALREADY_EXISTS : ERROR_SUCCESS);
	return h;
}

/* Open*: the access asked for, its generic rights mapped through the
 * type's mapping; Windows checks it against the object's security
 * descriptor, which here (one user, one process) grants everything. */
HANDLE namespace_open(const WCHAR *name, const struct object_ops *ops, DWORD access, BOOL inherit,
		      const GENERIC_MAPPING *mapping)
{
	struct object *obj = NULL;
	struct list *cur;
	HANDLE h;

	if (!name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	klock(&names_lock);
	LIST_FOR_EACH(cur, &names) {
		struct named *n = LIST_ENTRY(cur, struct named, entry);

		if (wequal(n->name, name) && ref_if_live(n->obj)) {
			obj = n->obj;
			break;
		}
	}
	kunlock(&names_lock);
	TRACE(sync, "%s %s, access %#x -> %p\n", ops->type_name, debugstr_w(name), access, obj);
	if (!obj) {
		SetLastError(ERROR_FILE_NOT_FOUND);
		return NULL;
	}
	if (obj->ops != ops) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	h = handle_create(obj, sync_map_access(access, mapping), inherit ? HANDLE_FLAG_INHERIT : 0);
	object_unref(obj);
	return h;
}
