/* NtOpenFile and NtCreateNamedPipeFile, the way Rust's standard library
 * makes the anonymous pipes of a child process: open the named-pipe file
 * system's root (\??\PIPE\), create a pipe relative to it with no name,
 * then open the client end relative to the server handle with no name.
 * NtOpenFile also opens files and folders by NT path (\??\C:\...), or by
 * a name relative to an open folder.
 *
 * Everything goes through kernel32's CreateFileW/CreateNamedPipeW paths
 * (core/pipe.h, core/path.h); failures are reported as NTSTATUS and the
 * last error is left alone. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/path.h"
#include "core/pipe.h"
#include "core/wstr.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* The root of the named-pipe file system: a handle only pipes are
 * created or opened relative to. */
struct npfs_root {
	struct object obj;
};

static void npfs_destroy(struct object *obj)
{
	free(container_of(obj, struct npfs_root, obj));
}

static const struct object_ops npfs_ops = {
	.type_name = "npfs",
	.destroy = npfs_destroy,
};

/* The object name as a NUL-terminated string (malloc'ed). */
static WCHAR *object_name(const OBJECT_ATTRIBUTES *attr)
{
	const UNICODE_STRING *u = attr->ObjectName;
	size_t n = u ? u->Length / sizeof(WCHAR) : 0;
	WCHAR *w = malloc((n + 1) * sizeof(WCHAR));

	if (!w)
		return NULL;
	if (n)
		memcpy(w, u->Buffer, n * sizeof(WCHAR));
	w[n] = 0;
	return w;
}

/* name after the prefix of the pipe file system's root, or NULL when
 * name is not under it. */
static const WCHAR *npfs_rest(const WCHAR *name)
{
	static const WCHAR dos[] = u"\\??\\PIPE\\", dev[] = u"\\Device\\NamedPipe\\";
	size_t n = wstr_len(name);

	if (n >= 9 && !wstr_nicmp(name, dos, 9))
		return name + 9;
	if (n >= 17 && !wstr_nicmp(name, dev, 17))
		return name + 17;
	/* The root named without its trailing separator. */
	if (!wstr_icmp(name, u"\\??\\PIPE") || !wstr_icmp(name, u"\\Device\\NamedPipe"))
		return name + n;
	return NULL;
}

static WCHAR *pipe_path(const WCHAR *rest)
{
	size_t n = wstr_len(rest);
	WCHAR *w = malloc((9 + n + 1) * sizeof(WCHAR));

	if (!w)
		return NULL;
	memcpy(w, u"\\\\.\\pipe\\", 9 * sizeof(WCHAR));
	memcpy(w + 9, rest, (n + 1) * sizeof(WCHAR));
	return w;
}

static bool is_npfs_root(HANDLE h)
{
	struct object *obj = handle_get(h, &npfs_ops);

	if (!obj)
		return false;
	object_unref(obj);
	return true;
}

static HANDLE open_npfs_root(void)
{
	struct npfs_root *r = calloc(1, sizeof(*r));
	HANDLE h;

	if (!r) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	object_init(&r->obj, &npfs_ops);
	h = handle_create(&r->obj, SYNCHRONIZE | FILE_READ_DATA, 0);
	object_unref(&r->obj);
	return h ? h : INVALID_HANDLE_VALUE;
}

/* "dir's path\name" for a name relative to an open folder (malloc'ed),
 * or NULL with the last error set. */
static WCHAR *relative_path(HANDLE dir, const WCHAR *name)
{
	char link[64], target[4096];
	struct file *f = file_get(dir);
	WCHAR *base, *w;
	size_t a, b;
	ssize_t n;

	if (!f)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", f->fd);
	n = f->fd >= 0 ? readlink(link, target, sizeof(target) - 1) : -1;
	file_release(f);
	if (n <= 0 || target[0] != '/') {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	target[n] = 0;
	if (!(base = path_from_unix(target))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	a = wstr_len(base);
	b = wstr_len(name);
	w = malloc((a + 1 + b + 1) * sizeof(WCHAR));
	if (w) {
		memcpy(w, base, a * sizeof(WCHAR));
		w[a] = '\\';
		memcpy(w + a + 1, name, (b + 1) * sizeof(WCHAR));
	} else {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	}
	free(base);
	return w;
}

static bool synchronous(ULONG options)
{
	return options & (FILE_SYNCHRONOUS_IO_ALERT | FILE_SYNCHRONOUS_IO_NONALERT);
}

/* CreateFileW for NT's options: FILE_DELETE_ON_CLOSE, FILE_WRITE_THROUGH,
 * and a folder made first when FILE_DIRECTORY_FILE asks for a new one
 * (the open then finds it). */
static HANDLE create(const WCHAR *path, ACCESS_MASK access, ULONG share, ULONG options, DWORD creation, DWORD flags)
{
	if (options & FILE_DELETE_ON_CLOSE)
		flags |= FILE_FLAG_DELETE_ON_CLOSE;
	if (options & FILE_WRITE_THROUGH)
		flags |= FILE_FLAG_WRITE_THROUGH;
	/* A folder holds no data to write: its handle is opened without
	 * those rights, which CreateFileW refuses for folders. */
	if (options & FILE_DIRECTORY_FILE)
		access &= ~(GENERIC_WRITE | FILE_WRITE_DATA | FILE_APPEND_DATA);
	if ((options & FILE_DIRECTORY_FILE) && creation != OPEN_EXISTING) {
		if (!CreateDirectoryW(path, NULL) && (creation == CREATE_NEW || GetLastError() != ERROR_ALREADY_EXISTS))
			return INVALID_HANDLE_VALUE;
		creation = OPEN_EXISTING;
	}
	return CreateFileW(path, access, share, NULL, creation, flags, NULL);
}

/* The work of NtOpenFile and NtCreateFile, reporting through the last
 * error.  creation: CreateFileW's disposition (OPEN_EXISTING for
 * NtOpenFile); file_attrs: FILE_ATTRIBUTE_* for a new file. */
static HANDLE open_file(ACCESS_MASK access, const OBJECT_ATTRIBUTES *attr, ULONG share, ULONG options,
			DWORD creation, DWORD file_attrs)
{
	DWORD flags = (synchronous(options) ? 0 : FILE_FLAG_OVERLAPPED) | file_attrs;
	WCHAR *name = object_name(attr), *path = NULL;
	const WCHAR *rest;
	HANDLE h = INVALID_HANDLE_VALUE;
	struct file *f;

	if (!name) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return h;
	}
	/* NT opens folders like files unless FILE_NON_DIRECTORY_FILE says
	 * otherwise (checked below); CreateFileW needs backup semantics. */
	flags |= FILE_FLAG_BACKUP_SEMANTICS;
	if (attr->RootDirectory && is_npfs_root(attr->RootDirectory)) {
		path = *name ? pipe_path(name) : NULL;
		if (!*name)
			h = open_npfs_root();
		else if (path)
			h = pipe_open_client(path, access, flags);
	} else if (attr->RootDirectory && !*name && (f = file_get(attr->RootDirectory))) {
		/* The client end of the pipe whose server end is the root. */
		path = pipe_server_name(f);
		file_release(f);
		if (path)
			h = pipe_open_client(path, access, flags);
		else
			SetLastError(ERROR_INVALID_PARAMETER);
	} else if (attr->RootDirectory) {
		if ((path = relative_path(attr->RootDirectory, name)))
			h = create(path, access, share, options, creation, flags);
	} else if ((rest = npfs_rest(name))) {
		if (!*rest)
			h = open_npfs_root();
		else if ((path = pipe_path(rest)))
			h = pipe_open_client(path, access, flags);
	} else if (name[0] == '\\' && name[1] == '?' && name[2] == '?' && name[3] == '\\') {
		h = create(name, access, share, options, creation, flags);
	} else {
		/* NT paths outside \??\ (\Device\HarddiskVolume1\...) do not exist. */
		SetLastError(ERROR_PATH_NOT_FOUND);
	}
	if (h != INVALID_HANDLE_VALUE && (options & (FILE_DIRECTORY_FILE | FILE_NON_DIRECTORY_FILE)) &&
	    !is_npfs_root(h)) {
		BY_HANDLE_FILE_INFORMATION info;
		bool dir = GetFileInformationByHandle(h, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY);

		if (dir != !!(options & FILE_DIRECTORY_FILE)) {
			CloseHandle(h);
			h = INVALID_HANDLE_VALUE;
			SetLastError(dir ? ERROR_DIRECTORY_NOT_SUPPORTED : ERROR_DIRECTORY);
		}
	}
	free(path);
	free(name);
	return h;
}

NTSTATUS WINAPI NtOpenFile(PHANDLE handle, ACCESS_MASK access, POBJECT_ATTRIBUTES attr, PIO_STATUS_BLOCK io,
			   ULONG share, ULONG options)
{
	DWORD saved = GetLastError();
	NTSTATUS status = STATUS_SUCCESS;
	HANDLE h;

	if (!handle || !attr || !io)
		return STATUS_ACCESS_VIOLATION;
	h = open_file(access, attr, share, options, OPEN_EXISTING, 0);
	if (h == INVALID_HANDLE_VALUE)
		status = ntstatus_from_win32(GetLastError());
	TRACE(file, "access %#x options %#x -> %p status %#x\n", (unsigned)access, (unsigned)options, h,
	      (unsigned)status);
	SetLastError(saved);
	io->Status = status;
	io->Information = status ? 0 : FILE_OPENED;
	*handle = status ? NULL : h;
	return status;
}

/* NtCreateFile: NtOpenFile's paths with a disposition.  Information
 * tells what happened: FILE_CREATED, FILE_OPENED, FILE_OVERWRITTEN or
 * FILE_SUPERSEDED.  Extended attributes (ea) are not kept by ndrun: a
 * request that carries some is refused with STATUS_EAS_NOT_SUPPORTED. */
NTSTATUS WINAPI NtCreateFile(PHANDLE handle, ACCESS_MASK access, POBJECT_ATTRIBUTES attr, PIO_STATUS_BLOCK io,
			     PLARGE_INTEGER alloc_size, ULONG attributes, ULONG share, ULONG disposition, ULONG options,
			     PVOID ea, ULONG ea_len)
{
	static const DWORD creation[] = {
		[FILE_SUPERSEDE] = CREATE_ALWAYS, [FILE_OPEN] = OPEN_EXISTING, [FILE_CREATE] = CREATE_NEW,
		[FILE_OPEN_IF] = OPEN_ALWAYS, [FILE_OVERWRITE] = TRUNCATE_EXISTING, [FILE_OVERWRITE_IF] = CREATE_ALWAYS,
	};
	DWORD saved = GetLastError(), existed;
	NTSTATUS status = STATUS_SUCCESS;
	HANDLE h;

	(void)alloc_size; /* a size hint: files grow as they are written */
	if (!handle || !attr || !io)
		return STATUS_ACCESS_VIOLATION;
	if (disposition > FILE_MAXIMUM_DISPOSITION)
		return STATUS_INVALID_PARAMETER;
	if (ea && ea_len)
		return STATUS_EAS_NOT_SUPPORTED;
	SetLastError(0);
	h = open_file(access, attr, share, options, creation[disposition],
		      attributes & (FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM |
				    FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_TEMPORARY));
	existed = GetLastError() == ERROR_ALREADY_EXISTS;
	if (h == INVALID_HANDLE_VALUE)
		status = ntstatus_from_win32(GetLastError());
	TRACE(file, "access %#x disposition %u options %#x -> %p status %#x\n", (unsigned)access,
	      (unsigned)disposition, (unsigned)options, h, (unsigned)status);
	SetLastError(saved);
	io->Status = status;
	switch (disposition) {
	case FILE_SUPERSEDE: io->Information = existed ? FILE_SUPERSEDED : FILE_CREATED; break;
	case FILE_OPEN: io->Information = FILE_OPENED; break;
	case FILE_CREATE: io->Information = FILE_CREATED; break;
	case FILE_OPEN_IF: io->Information = existed ? FILE_OPENED : FILE_CREATED; break;
	case FILE_OVERWRITE: io->Information = FILE_OVERWRITTEN; break;
	default: io->Information = existed ? FILE_OVERWRITTEN : FILE_CREATED; break;
	}
	if (status)
		io->Information = 0;
	*handle = status ? NULL : h;
	return status;
}

/* NtCancelIoFileEx: the request whose IO_STATUS_BLOCK is io (its
 * OVERLAPPED: the same memory), or every request of the handle's when
 * io is NULL, as CancelIoEx does; STATUS_NOT_FOUND when nothing was
 * pending.  NtCancelIoFile: this thread's requests on the handle. */
NTSTATUS WINAPI NtCancelIoFileEx(HANDLE h, PIO_STATUS_BLOCK io, PIO_STATUS_BLOCK out)
{
	DWORD saved = GetLastError();
	NTSTATUS status = STATUS_SUCCESS;

	if (!CancelIoEx(h, (OVERLAPPED *)io))
		status = ntstatus_from_win32(GetLastError());
	SetLastError(saved);
	if (out) {
		out->Status = status;
		out->Information = 0;
	}
	return status;
}

NTSTATUS WINAPI NtCancelIoFile(HANDLE h, PIO_STATUS_BLOCK out)
{
	DWORD saved = GetLastError();
	NTSTATUS status = STATUS_SUCCESS;

	if (!CancelIo(h))
		status = ntstatus_from_win32(GetLastError());
	SetLastError(saved);
	if (out) {
		out->Status = status;
		out->Information = 0;
	}
	return status;
}

NTSTATUS WINAPI NtCreateNamedPipeFile(PHANDLE handle, ULONG access, POBJECT_ATTRIBUTES attr, PIO_STATUS_BLOCK io,
				      ULONG share, ULONG disposition, ULONG options, ULONG type, ULONG read_mode,
				      ULONG completion, ULONG max_instances, ULONG in_size, ULONG out_size,
				      PLARGE_INTEGER timeout)
{
	static atomic_uint anon_count;
	DWORD saved = GetLastError(), open_mode = 0, pipe_mode = 0;
	WCHAR *name, *path = NULL;
	const WCHAR *rest = NULL;
	NTSTATUS status = STATUS_SUCCESS;
	HANDLE h = INVALID_HANDLE_VALUE;

	if (!handle || !attr || !io)
		return STATUS_ACCESS_VIOLATION;
	if ((disposition != FILE_CREATE && disposition != FILE_OPEN_IF) || !max_instances)
		return STATUS_INVALID_PARAMETER;
	if (!(name = object_name(attr)))
		return STATUS_NO_MEMORY;
	if (attr->RootDirectory) {
		if (!is_npfs_root(attr->RootDirectory)) {
			free(name);
			return STATUS_INVALID_HANDLE;
		}
		rest = name;
	} else if (!(rest = npfs_rest(name)) || !*rest) {
		free(name);
		return STATUS_OBJECT_NAME_INVALID;
	}
	if (!*rest) {
		/* An unnamed pipe: a name nobody else can know. */
		WCHAR anon[64];
		char a[64];

		snprintf(a, sizeof(a), "ndshim-anonymous-%d-%u", (int)getpid(), atomic_fetch_add(&anon_count, 1));
		for (size_t i = 0; i <= strlen(a); i++)
			anon[i] = (WCHAR)a[i];
		path = pipe_path(anon);
	} else {
		path = pipe_path(rest);
	}
	free(name);
	if (!path)
		return STATUS_NO_MEMORY;
	if (access & (GENERIC_READ | FILE_READ_DATA))
		open_mode |= PIPE_ACCESS_INBOUND;
	if (access & (GENERIC_WRITE | FILE_WRITE_DATA))
		open_mode |= PIPE_ACCESS_OUTBOUND;
	if (!synchronous(options))
		open_mode |= FILE_FLAG_OVERLAPPED;
	if (disposition == FILE_CREATE)
		open_mode |= FILE_FLAG_FIRST_PIPE_INSTANCE;
	pipe_mode = (type & FILE_PIPE_TYPE_MESSAGE ? PIPE_TYPE_MESSAGE : PIPE_TYPE_BYTE) |
		    (read_mode & FILE_PIPE_MESSAGE_MODE ? PIPE_READMODE_MESSAGE : PIPE_READMODE_BYTE) |
		    (completion & FILE_PIPE_COMPLETE_OPERATION ? PIPE_NOWAIT : PIPE_WAIT);
	h = pipe_create_server(path, open_mode, pipe_mode, max_instances == ~0u ? PIPE_UNLIMITED_INSTANCES : max_instances,
			       out_size, in_size);
	if (h == INVALID_HANDLE_VALUE)
		status = ntstatus_from_win32(GetLastError());
	TRACE(file, "%s access %#x -> %p status %#x\n", debugstr_w(path), (unsigned)access, h, (unsigned)status);
	free(path);
	SetLastError(saved);
	io->Status = status;
	io->Information = status ? 0 : FILE_CREATED;
	*handle = status ? NULL : h;
	return status;
}
