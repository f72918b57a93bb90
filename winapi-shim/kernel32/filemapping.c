/* File mappings (memoryapi.h): CreateFileMapping, OpenFileMapping,
 * MapViewOfFile(Ex), UnmapViewOfFile, FlushViewOfFile.
 *
 * A mapping object is an fd: a memfd (pagefile-backed, unnamed), a
 * per-user segment (pagefile-backed, named: core/shm.h, so other ndrun
 * processes open the same memory), or the file's own fd (file-backed).
 * A view is mmap(MAP_SHARED) of it at a 64 KiB boundary, as Windows
 * places views; each view holds a reference on its mapping, so the
 * memory stays while a view does.  Sizes are 64-bit throughout.
 *
 * SEC_RESERVE is accepted, but the pages of a view are usable without
 * a VirtualAlloc(MEM_COMMIT) first (Linux commits on touch).  A named
 * file-backed mapping is visible inside this process only. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/shm.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/virtual.h"
#include "kernel32/kernel32_private.h"

struct mapping {
	struct object obj;
	int fd;
	bool shared_segment; /* a named segment: shm_close_named */
	char *segment_path;
	uint64_t size;
	DWORD protect;       /* PAGE_* of the mapping, 0 when opened by name */
};

static struct mapping *to_mapping(struct object *obj)
{
	return container_of(obj, struct mapping, obj);
}

static void mapping_destroy(struct object *obj)
{
	struct mapping *m = to_mapping(obj);

	namespace_remove(obj);
	if (m->shared_segment)
		shm_close_named(m->fd, m->segment_path);
	else
		close(m->fd);
	free(m);
}

static const struct object_ops mapping_ops = {
	.type_name = "file mapping",
	.destroy = mapping_destroy,
};

static struct mapping *mapping_new(int fd, char *segment_path, uint64_t size, DWORD protect)
{
	struct mapping *m = calloc(1, sizeof(*m));
	bool shared = segment_path != NULL;

	if (!m) {
		if (shared)
			shm_close_named(fd, segment_path);
		else
			close(fd);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&m->obj, &mapping_ops);
	m->fd = fd;
	m->shared_segment = shared;
	m->segment_path = segment_path;
	m->size = size;
	m->protect = protect;
	return m;
}

static bool writable(DWORD protect)
{
	return protect == PAGE_READWRITE || protect == PAGE_EXECUTE_READWRITE;
}

HANDLE WINAPI CreateFileMappingW(HANDLE hfile, LPSECURITY_ATTRIBUTES sa, DWORD protect, DWORD size_high,
				 DWORD size_low, LPCWSTR name)
{
	DWORD prot = protect & 0xff, sec = protect & ~0xffu, err = 0;
	uint64_t size = (uint64_t)size_high << 32 | size_low;
	struct mapping *m = NULL;
	char *seg = NULL;
	bool existed = false;
	struct object *named;
	struct file *f;
	struct stat st;
	HANDLE h;
	int fd;

	TRACE(virtual, "%p, protect %#x, size %#llx, %s\n", hfile, protect, (unsigned long long)size,
	      debugstr_w(name));
	if (prot != PAGE_READONLY && prot != PAGE_READWRITE && prot != PAGE_WRITECOPY &&
	    prot != PAGE_EXECUTE_READ && prot != PAGE_EXECUTE_READWRITE && prot != PAGE_EXECUTE_WRITECOPY) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (sec & (SEC_IMAGE | SEC_LARGE_PAGES)) {
		/* Image sections are the loader's; large pages need
		 * privileges Windows programs ask for first. */
		TRACE(virtual, "unsupported section flags %#x\n", sec);
		SetLastError(ERROR_NOT_SUPPORTED);
		return NULL;
	}
	if (hfile == INVALID_HANDLE_VALUE) {
		if (!size) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return NULL;
		}
		if (name && *name) {
			/* One namespace with the shared events, semaphores
			 * and mutexes. */
			if (shsync_name_taken(name)) {
				SetLastError(ERROR_INVALID_HANDLE);
				return NULL;
			}
			fd = shm_open_named("map", name, true, size, &existed, &err, &seg);
			if (fd < 0) {
				SetLastError(err);
				return NULL;
			}
			/* An existing mapping keeps its own size. */
			if (existed && !fstat(fd, &st))
				size = (uint64_t)st.st_size;
			m = mapping_new(fd, seg, size, prot);
		} else {
			fd = memfd_create("ndshim-mapping", MFD_CLOEXEC);
			if (fd < 0 || ftruncate(fd, (off_t)size)) {
				err = errno;
				if (fd >= 0)
					close(fd);
				SetLastError(err == EFBIG || err == EINVAL || err == ENOSPC ? ERROR_NOT_ENOUGH_MEMORY
											  : win32_error_from_errno(err));
				return NULL;
			}
			m = mapping_new(fd, NULL, size, prot);
		}
		if (!m)
			return NULL;
		h = handle_create(&m->obj, FILE_MAP_ALL_ACCESS, sa && sa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
		object_unref(&m->obj);
		if (h)
			SetLastError(existed ? ERROR_ALREADY_EXISTS : ERROR_SUCCESS);
		return h;
	}

	if (!(f = file_get(hfile)))
		return NULL;
	if (f->fd < 0 || fstat(f->fd, &st) || !S_ISREG(st.st_mode)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	if (!(f->access & FILE_READ_DATA) || (writable(prot) && !(f->access & FILE_WRITE_DATA))) {
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return NULL;
	}
	if (!size)
		size = (uint64_t)st.st_size;
	if (!size) {
		file_release(f);
		SetLastError(ERROR_FILE_INVALID);
		return NULL;
	}
	/* A mapping larger than its file makes the file that large. */
	if (size > (uint64_t)st.st_size &&
	    (!writable(prot) ? (errno = EACCES, 1) : ftruncate(f->fd, (off_t)size) != 0)) {
		err = errno;
		file_release(f);
		SetLastError(err == EACCES ? ERROR_ACCESS_DENIED : ERROR_DISK_FULL);
		return NULL;
	}
	fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
	file_release(f);
	if (fd < 0) {
		set_last_error_from_errno(errno);
		return NULL;
	}
	if (!(m = mapping_new(fd, NULL, size, prot)))
		return NULL;
	if (name && *name) {
		named = namespace_insert(name, &m->obj, &existed);
		if (named != &m->obj)
			object_unref(&m->obj);
		if (!named)
			return NULL;
		m = to_mapping(named);
	}
	h = handle_create(&m->obj, FILE_MAP_ALL_ACCESS, sa && sa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
	object_unref(&m->obj);
	if (h)
		SetLastError(existed ? ERROR_ALREADY_EXISTS : ERROR_SUCCESS);
	return h;
}

HANDLE WINAPI CreateFileMappingA(HANDLE hfile, LPSECURITY_ATTRIBUTES sa, DWORD protect, DWORD size_high,
				 DWORD size_low, LPCSTR name)
{
	WCHAR *w = namespace_name_from_a(name);
	HANDLE h;

	if (name && !w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = CreateFileMappingW(hfile, sa, protect, size_high, size_low, w);
	free(w);
	return h;
}

HANDLE WINAPI OpenFileMappingW(DWORD access, BOOL inherit, LPCWSTR name)
{
	DWORD flags = inherit ? HANDLE_FLAG_INHERIT : 0, err = 0;
	struct object *obj;
	struct mapping *m;
	char *seg = NULL;
	bool existed;
	struct stat st;
	HANDLE h;
	int fd;

	TRACE(virtual, "%s, access %#x\n", debugstr_w(name), access);
	if (!name || !*name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	/* A file-backed mapping of ours first (they are not shared). */
	obj = namespace_find_object(name);
	if (obj) {
		if (obj->ops != &mapping_ops) {
			object_unref(obj);
			SetLastError(ERROR_INVALID_HANDLE);
			return NULL;
		}
		h = handle_create(obj, access, flags);
		object_unref(obj);
		return h;
	}
	fd = shm_open_named("map", name, false, 0, &existed, &err, &seg);
	if (fd < 0) {
		SetLastError(err == ERROR_FILE_NOT_FOUND && shsync_name_taken(name) ? ERROR_INVALID_HANDLE : err);
		return NULL;
	}
	if (fstat(fd, &st)) {
		shm_close_named(fd, seg);
		set_last_error_from_errno(errno);
		return NULL;
	}
	if (!(m = mapping_new(fd, seg, (uint64_t)st.st_size, 0)))
		return NULL;
	h = handle_create(&m->obj, access, flags);
	object_unref(&m->obj);
	return h;
}

HANDLE WINAPI OpenFileMappingA(DWORD access, BOOL inherit, LPCSTR name)
{
	WCHAR *w = namespace_name_from_a(name);
	HANDLE h;

	if (name && !w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = OpenFileMappingW(access, inherit, w);
	free(w);
	return h;
}

/* ---- views ------------------------------------------------------------------ */

struct view {
	struct view *next;
	char *base;
	size_t size;
	struct mapping *m; /* a reference */
};

static struct view *views;
static pthread_mutex_t views_lock = PTHREAD_MUTEX_INITIALIZER;

/* views_lock held: the view holding addr. */
static struct view **find_view(const void *addr)
{
	for (struct view **v = &views; *v; v = &(*v)->next)
		if ((const char *)addr >= (*v)->base && (const char *)addr < (*v)->base + (*v)->size)
			return v;
	return NULL;
}

/* mmap at a 64 KiB boundary: reserve more, map inside, trim. */
static void *map_aligned(size_t size, int prot, int flags, int fd, off_t off)
{
	size_t span = size + VIRTUAL_GRANULARITY;
	char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), *a;

	if (r == MAP_FAILED)
		return MAP_FAILED;
	a = (char *)(((uintptr_t)r + VIRTUAL_GRANULARITY - 1) & ~(uintptr_t)(VIRTUAL_GRANULARITY - 1));
	if (mmap(a, size, prot, flags | MAP_FIXED, fd, off) == MAP_FAILED) {
		munmap(r, span);
		return MAP_FAILED;
	}
	if (a > r)
		munmap(r, (size_t)(a - r));
	size = (size + VIRTUAL_PAGE_SIZE - 1) & ~(size_t)(VIRTUAL_PAGE_SIZE - 1);
	if (a + size < r + span)
		munmap(a + size, (size_t)(r + span - (a + size)));
	return a;
}

LPVOID WINAPI MapViewOfFileEx(HANDLE h, DWORD access, DWORD off_high, DWORD off_low, SIZE_T size,
			      LPVOID base)
{
	uint64_t off = (uint64_t)off_high << 32 | off_low;
	struct object *obj = handle_get(h, &mapping_ops);
	DWORD granted = 0, err = 0;
	int prot = 0, flags = MAP_SHARED;
	struct view *v = NULL;
	struct mapping *m;
	void *addr = NULL;

	TRACE(virtual, "%p, access %#x, offset %#llx, size %#zx, at %p\n", h, access, (unsigned long long)off,
	      (size_t)size, base);
	if (!obj)
		return NULL;
	m = to_mapping(obj);
	handle_get_info(h, &granted, NULL);
	/* FILE_MAP_COPY alone (bit 0 is also part of FILE_MAP_ALL_ACCESS). */
	if ((access & (FILE_MAP_COPY | FILE_MAP_READ | FILE_MAP_WRITE)) == FILE_MAP_COPY) {
		flags = MAP_PRIVATE;
		prot = PROT_READ | PROT_WRITE;
		if (!(granted & FILE_MAP_READ))
			err = ERROR_ACCESS_DENIED;
	} else {
		if (access & FILE_MAP_WRITE)
			prot |= PROT_READ | PROT_WRITE;
		if (access & FILE_MAP_READ)
			prot |= PROT_READ;
		if ((access & (FILE_MAP_READ | FILE_MAP_WRITE)) & ~granted)
			err = ERROR_ACCESS_DENIED;
		if ((access & FILE_MAP_WRITE) && m->protect && !writable(m->protect))
			err = ERROR_ACCESS_DENIED;
	}
	if (access & FILE_MAP_EXECUTE)
		prot |= PROT_EXEC;
	if (!err && !prot)
		err = ERROR_INVALID_PARAMETER;
	if (!err && off % VIRTUAL_GRANULARITY)
		err = ERROR_MAPPED_ALIGNMENT;
	if (!err && !size)
		size = off < m->size ? (SIZE_T)(m->size - off) : 0;
	if (!err && (off >= m->size || size > m->size - off))
		err = ERROR_ACCESS_DENIED;
	if (!err && base && ((uintptr_t)base % VIRTUAL_GRANULARITY))
		err = ERROR_MAPPED_ALIGNMENT;
	if (!err && !(v = calloc(1, sizeof(*v))))
		err = ERROR_NOT_ENOUGH_MEMORY;
	if (!err) {
		addr = base ? mmap(base, size, prot, flags | MAP_FIXED_NOREPLACE, m->fd, (off_t)off)
			    : map_aligned(size, prot, flags, m->fd, (off_t)off);
		if (addr == MAP_FAILED || (base && addr != base)) {
			if (addr != MAP_FAILED)
				munmap(addr, size);
			err = errno == EEXIST || base ? ERROR_INVALID_ADDRESS : ERROR_NOT_ENOUGH_MEMORY;
			addr = NULL;
		}
	}
	if (err) {
		free(v);
		object_unref(obj);
		SetLastError(err);
		return NULL;
	}
	v->base = addr;
	v->size = size;
	v->m = m; /* the handle_get reference */
	pthread_mutex_lock(&views_lock);
	v->next = views;
	views = v;
	pthread_mutex_unlock(&views_lock);
	return addr;
}

LPVOID WINAPI MapViewOfFile(HANDLE h, DWORD access, DWORD off_high, DWORD off_low, SIZE_T size)
{
	return MapViewOfFileEx(h, access, off_high, off_low, size, NULL);
}

BOOL WINAPI UnmapViewOfFile(LPCVOID addr)
{
	struct view **p, *v = NULL;

	pthread_mutex_lock(&views_lock);
	if ((p = find_view(addr))) {
		v = *p;
		*p = v->next;
	}
	pthread_mutex_unlock(&views_lock);
	TRACE(virtual, "%p -> %s\n", addr, v ? "unmapped" : "not a view");
	if (!v) {
		SetLastError(ERROR_INVALID_ADDRESS);
		return FALSE;
	}
	munmap(v->base, v->size);
	object_unref(&v->m->obj);
	free(v);
	return TRUE;
}

BOOL WINAPI FlushViewOfFile(LPCVOID addr, SIZE_T len)
{
	char *start = (char *)((uintptr_t)addr & ~(uintptr_t)(VIRTUAL_PAGE_SIZE - 1)), *end = NULL;
	struct view **p;
	int r = -1;

	pthread_mutex_lock(&views_lock);
	if ((p = find_view(addr))) {
		end = len ? (char *)addr + len : (*p)->base + (*p)->size;
		if (end > (*p)->base + (*p)->size)
			end = (*p)->base + (*p)->size;
		/* Under the lock: the view cannot go away meanwhile. */
		r = msync(start, (size_t)(end - start), MS_SYNC);
	}
	pthread_mutex_unlock(&views_lock);
	if (!p) {
		SetLastError(ERROR_INVALID_ADDRESS);
		return FALSE;
	}
	if (r) {
		set_last_error_from_errno(errno);
		return FALSE;
	}
	return TRUE;
}

bool mapping_export(struct object *obj, int *fd, const char **path, uint64_t *size, DWORD *protect)
{
	struct mapping *m;

	if (obj->ops != &mapping_ops)
		return false;
	m = to_mapping(obj);
	*fd = m->fd;
	*path = m->shared_segment ? m->segment_path : NULL;
	*size = m->size;
	*protect = m->protect;
	return true;
}

struct object *mapping_import(int fd, char *path, uint64_t size, DWORD protect)
{
	struct mapping *m = mapping_new(fd, path, size, protect);

	return m ? &m->obj : NULL;
}
