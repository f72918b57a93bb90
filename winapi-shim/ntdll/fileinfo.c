/* NtQueryInformationFile, NtSetInformationFile and
 * NtQueryVolumeInformationFile for the classes runtimes use.  libuv (in
 * CMake, Node-based tools) looks all three up at start and stops when one
 * is missing; it stats files and pipes through them.  Each class is built
 * on kernel32's by-handle functions (fileinfo.c, filehandle.c), so the
 * two layers answer alike; a class ndrun does not answer fails with
 * STATUS_INVALID_INFO_CLASS after a +file trace line. */
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/file.h"
#include "core/wstr.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>
#include <winioctl.h>

/* The classes' numbers (FILE_INFORMATION_CLASS, FS_INFORMATION_CLASS). */
enum {
	FI_BASIC = 4, FI_STANDARD = 5, FI_INTERNAL = 6, FI_EA = 7, FI_ACCESS = 8, FI_NAME = 9,
	FI_DISPOSITION = 13, FI_POSITION = 14, FI_MODE = 16, FI_ALIGNMENT = 17, FI_ALL = 18,
	FI_ALLOCATION = 19, FI_END_OF_FILE = 20,
};
enum { FS_VOLUME = 1, FS_SIZE = 3, FS_DEVICE = 4, FS_FULL_SIZE = 7 };

static NTSTATUS done(IO_STATUS_BLOCK *io, NTSTATUS status, ULONG_PTR info)
{
	io->Status = status;
	io->Information = info;
	return status;
}

static NTSTATUS failed(IO_STATUS_BLOCK *io)
{
	return done(io, ntstatus_from_win32(GetLastError()), 0);
}

static LARGE_INTEGER li(LONGLONG v)
{
	LARGE_INTEGER l;

	l.QuadPart = v;
	return l;
}

static NTSTATUS basic(HANDLE h, FILE_BASIC_INFORMATION *b)
{
	FILE_BASIC_INFO k;

	if (!GetFileInformationByHandleEx(h, FileBasicInfo, &k, sizeof(k)))
		return ntstatus_from_win32(GetLastError());
	b->CreationTime = k.CreationTime;
	b->LastAccessTime = k.LastAccessTime;
	b->LastWriteTime = k.LastWriteTime;
	b->ChangeTime = k.ChangeTime;
	b->FileAttributes = k.FileAttributes;
	return STATUS_SUCCESS;
}

static NTSTATUS standard(HANDLE h, FILE_STANDARD_INFORMATION *s)
{
	FILE_STANDARD_INFO k;

	if (!GetFileInformationByHandleEx(h, FileStandardInfo, &k, sizeof(k)))
		return ntstatus_from_win32(GetLastError());
	s->AllocationSize = k.AllocationSize;
	s->EndOfFile = k.EndOfFile;
	s->NumberOfLinks = k.NumberOfLinks;
	s->DeletePending = k.DeletePending;
	s->Directory = k.Directory;
	return STATUS_SUCCESS;
}

/* What the handle was opened with: its access rights and its mode
 * (FILE_SYNCHRONOUS_IO_NONALERT unless it was opened overlapped). */
static NTSTATUS open_state(HANDLE h, ACCESS_MASK *access, ULONG *mode)
{
	struct file *f = file_get(h);

	if (!f)
		return STATUS_INVALID_HANDLE;
	*access = f->access;
	*mode = 0;
	if (!(f->options & FILE_FLAG_OVERLAPPED))
		*mode |= FILE_SYNCHRONOUS_IO_NONALERT;
	if (f->options & FILE_FLAG_WRITE_THROUGH)
		*mode |= FILE_WRITE_THROUGH;
	if (f->options & FILE_FLAG_SEQUENTIAL_SCAN)
		*mode |= FILE_SEQUENTIAL_ONLY;
	if (f->options & FILE_FLAG_NO_BUFFERING)
		*mode |= FILE_NO_INTERMEDIATE_BUFFERING;
	if (f->options & FILE_FLAG_DELETE_ON_CLOSE)
		*mode |= FILE_DELETE_ON_CLOSE;
	file_release(f);
	return STATUS_SUCCESS;
}

static NTSTATUS position(HANDLE h, LARGE_INTEGER *pos)
{
	LARGE_INTEGER zero = li(0);

	return SetFilePointerEx(h, zero, pos, FILE_CURRENT) ? STATUS_SUCCESS : ntstatus_from_win32(GetLastError());
}

static NTSTATUS internal(HANDLE h, FILE_INTERNAL_INFORMATION *in)
{
	BY_HANDLE_FILE_INFORMATION k;

	if (!GetFileInformationByHandle(h, &k))
		return ntstatus_from_win32(GetLastError());
	in->IndexNumber.QuadPart = ((LONGLONG)k.nFileIndexHigh << 32) | k.nFileIndexLow;
	return STATUS_SUCCESS;
}

/* FILE_NAME_INFORMATION has FILE_NAME_INFO's layout: the path without
 * its drive, and STATUS_BUFFER_OVERFLOW with as much as fits. */
static NTSTATUS name(HANDLE h, FILE_NAME_INFORMATION *n, ULONG size, ULONG *used)
{
	if (GetFileInformationByHandleEx(h, FileNameInfo, n, size)) {
		*used = offsetof(FILE_NAME_INFORMATION, FileName) + n->FileNameLength;
		return STATUS_SUCCESS;
	}
	*used = size;
	return ntstatus_from_win32(GetLastError());
}

NTSTATUS WINAPI NtQueryInformationFile(HANDLE h, IO_STATUS_BLOCK *io, void *buf, ULONG size,
				       FILE_INFORMATION_CLASS cls)
{
	static const ULONG fixed[] = {
		[FI_BASIC] = sizeof(FILE_BASIC_INFORMATION),
		[FI_STANDARD] = sizeof(FILE_STANDARD_INFORMATION),
		[FI_INTERNAL] = sizeof(FILE_INTERNAL_INFORMATION),
		[FI_EA] = sizeof(FILE_EA_INFORMATION),
		[FI_ACCESS] = sizeof(FILE_ACCESS_INFORMATION),
		[FI_NAME] = offsetof(FILE_NAME_INFORMATION, FileName),
		[FI_POSITION] = sizeof(FILE_POSITION_INFORMATION),
		[FI_MODE] = sizeof(FILE_MODE_INFORMATION),
		[FI_ALIGNMENT] = sizeof(FILE_ALIGNMENT_INFORMATION),
		[FI_ALL] = offsetof(FILE_ALL_INFORMATION, NameInformation.FileName),
	};
	NTSTATUS status = STATUS_SUCCESS;
	ULONG used;

	TRACE(file, "(%p, %p, %lu, %d)\n", h, buf, (unsigned long)size, (int)cls);
	if ((unsigned)cls >= sizeof(fixed) / sizeof(fixed[0]) || !fixed[cls]) {
		TRACE(file, "class %d not supported\n", (int)cls);
		return done(io, STATUS_INVALID_INFO_CLASS, 0);
	}
	if (size < fixed[cls])
		return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
	used = fixed[cls];
	switch ((int)cls) {
	case FI_BASIC:
		status = basic(h, buf);
		break;
	case FI_STANDARD:
		status = standard(h, buf);
		break;
	case FI_INTERNAL:
		status = internal(h, buf);
		break;
	case FI_EA:
		((FILE_EA_INFORMATION *)buf)->EaSize = 0; /* Linux files carry no EAs Windows would see */
		break;
	case FI_ACCESS: {
		ULONG mode;

		status = open_state(h, &((FILE_ACCESS_INFORMATION *)buf)->AccessFlags, &mode);
		break;
	}
	case FI_NAME:
		status = name(h, buf, size, &used);
		break;
	case FI_POSITION:
		status = position(h, &((FILE_POSITION_INFORMATION *)buf)->CurrentByteOffset);
		break;
	case FI_MODE: {
		ACCESS_MASK access;

		status = open_state(h, &access, &((FILE_MODE_INFORMATION *)buf)->Mode);
		break;
	}
	case FI_ALIGNMENT:
		((FILE_ALIGNMENT_INFORMATION *)buf)->AlignmentRequirement = 0; /* FILE_BYTE_ALIGNMENT */
		break;
	case FI_ALL: {
		FILE_ALL_INFORMATION *all = buf;

		memset(all, 0, fixed[FI_ALL]);
		if (!(status = basic(h, &all->BasicInformation)) && !(status = standard(h, &all->StandardInformation)) &&
		    !(status = internal(h, &all->InternalInformation)) &&
		    !(status = open_state(h, &all->AccessInformation.AccessFlags, &all->ModeInformation.Mode)) &&
		    !(status = position(h, &all->PositionInformation.CurrentByteOffset))) {
			status = name(h, &all->NameInformation, size - offsetof(FILE_ALL_INFORMATION, NameInformation),
				      &used);
			used += offsetof(FILE_ALL_INFORMATION, NameInformation);
		}
		break;
	}
	}
	if (status && status != STATUS_BUFFER_OVERFLOW)
		return done(io, status, 0);
	return done(io, status, used);
}

NTSTATUS WINAPI NtSetInformationFile(HANDLE h, IO_STATUS_BLOCK *io, void *buf, ULONG size, FILE_INFORMATION_CLASS cls)
{
	TRACE(file, "(%p, %p, %lu, %d)\n", h, buf, (unsigned long)size, (int)cls);
	switch ((int)cls) {
	case FI_BASIC: {
		const FILE_BASIC_INFORMATION *b = buf;
		FILE_BASIC_INFO k;

		if (size < sizeof(*b))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		k.CreationTime = b->CreationTime;
		k.LastAccessTime = b->LastAccessTime;
		k.LastWriteTime = b->LastWriteTime;
		k.ChangeTime = b->ChangeTime;
		k.FileAttributes = b->FileAttributes;
		if (!SetFileInformationByHandle(h, FileBasicInfo, &k, sizeof(k)))
			return failed(io);
		break;
	}
	case FI_DISPOSITION: {
		/* The same one BOOLEAN (winbase.h names it DeleteFile, which
		 * the A/W macros rename). */
		BOOLEAN k[sizeof(FILE_DISPOSITION_INFO)] = { 0 };

		if (size < sizeof(FILE_DISPOSITION_INFORMATION))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		k[0] = ((const FILE_DISPOSITION_INFORMATION *)buf)->DoDeleteFile;
		if (!SetFileInformationByHandle(h, FileDispositionInfo, k, sizeof(k)))
			return failed(io);
		break;
	}
	case FI_POSITION:
		if (size < sizeof(FILE_POSITION_INFORMATION))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		if (!SetFilePointerEx(h, ((const FILE_POSITION_INFORMATION *)buf)->CurrentByteOffset, NULL, FILE_BEGIN))
			return failed(io);
		break;
	case FI_ALLOCATION:
	case FI_END_OF_FILE: {
		FILE_END_OF_FILE_INFO k;

		if (size < sizeof(FILE_END_OF_FILE_INFORMATION))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		k.EndOfFile = ((const FILE_END_OF_FILE_INFORMATION *)buf)->EndOfFile;
		if (!SetFileInformationByHandle(h, (int)cls == FI_END_OF_FILE ? FileEndOfFileInfo : FileAllocationInfo,
						&k, sizeof(k)))
			return failed(io);
		break;
	}
	default:
		TRACE(file, "class %d not supported\n", (int)cls);
		return done(io, STATUS_INVALID_INFO_CLASS, 0);
	}
	return done(io, STATUS_SUCCESS, 0);
}

/* The Windows device type of what a handle names: a disk file or folder,
 * a pipe (named or anonymous: both are the named-pipe file system's), a
 * console, or the null device. */
static DEVICE_TYPE device_type(HANDLE h)
{
	struct stat st;
	struct file *f = file_get(h);
	DEVICE_TYPE t = FILE_DEVICE_DISK;

	if (!f)
		return 0;
	if (f->pipe || f->anon_pipe)
		t = FILE_DEVICE_NAMED_PIPE;
	else if (f->console_input || (f->fd >= 0 && isatty(f->fd)))
		t = FILE_DEVICE_CONSOLE;
	else if (f->fd >= 0 && !fstat(f->fd, &st) && S_ISCHR(st.st_mode))
		t = FILE_DEVICE_NULL;
	else if (f->fd >= 0 && !fstat(f->fd, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		t = FILE_DEVICE_NAMED_PIPE;
	file_release(f);
	return t;
}

NTSTATUS WINAPI NtQueryVolumeInformationFile(HANDLE h, IO_STATUS_BLOCK *io, void *buf, ULONG size,
					     FS_INFORMATION_CLASS cls)
{
	struct statvfs vfs;
	struct file *f;
	int fd;

	TRACE(file, "(%p, %p, %lu, %d)\n", h, buf, (unsigned long)size, (int)cls);
	switch ((int)cls) {
	case FS_DEVICE: {
		FILE_FS_DEVICE_INFORMATION *d = buf;

		if (size < sizeof(*d))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		d->DeviceType = device_type(h);
		if (!d->DeviceType)
			return done(io, STATUS_INVALID_HANDLE, 0);
		d->Characteristics = 0;
		return done(io, STATUS_SUCCESS, sizeof(*d));
	}
	case FS_VOLUME:
	case FS_SIZE:
	case FS_FULL_SIZE:
		break;
	default:
		TRACE(file, "class %d not supported\n", (int)cls);
		return done(io, STATUS_INVALID_INFO_CLASS, 0);
	}
	f = file_get(h);
	if (!f)
		return done(io, STATUS_INVALID_HANDLE, 0);
	fd = f->fd;
	if (fd < 0 || fstatvfs(fd, &vfs)) {
		file_release(f);
		return done(io, STATUS_INVALID_DEVICE_REQUEST, 0); /* a pipe: no volume */
	}
	if ((int)cls == FS_VOLUME) {
		FILE_FS_VOLUME_INFORMATION *v = buf;
		struct stat st;

		if (size < offsetof(FILE_FS_VOLUME_INFORMATION, VolumeLabel)) {
			file_release(f);
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		}
		/* The serial number is the file system's device number, as
		 * GetFileInformationByHandle reports it; no label. */
		fstat(fd, &st);
		file_release(f);
		v->VolumeCreationTime.QuadPart = 0;
		v->VolumeSerialNumber = (ULONG)st.st_dev;
		v->VolumeLabelLength = 0;
		v->SupportsObjects = FALSE;
		return done(io, STATUS_SUCCESS, offsetof(FILE_FS_VOLUME_INFORMATION, VolumeLabel));
	}
	file_release(f);
	if ((int)cls == FS_SIZE) {
		FILE_FS_SIZE_INFORMATION *s = buf;

		if (size < sizeof(*s))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		s->TotalAllocationUnits.QuadPart = vfs.f_blocks;
		s->AvailableAllocationUnits.QuadPart = vfs.f_bavail;
		s->SectorsPerAllocationUnit = 1;
		s->BytesPerSector = vfs.f_frsize;
		return done(io, STATUS_SUCCESS, sizeof(*s));
	} else {
		FILE_FS_FULL_SIZE_INFORMATION *s = buf;

		if (size < sizeof(*s))
			return done(io, STATUS_INFO_LENGTH_MISMATCH, 0);
		s->TotalAllocationUnits.QuadPart = vfs.f_blocks;
		s->CallerAvailableAllocationUnits.QuadPart = vfs.f_bavail;
		s->ActualAvailableAllocationUnits.QuadPart = vfs.f_bfree;
		s->SectorsPerAllocationUnit = 1;
		s->BytesPerSector = vfs.f_frsize;
		return done(io, STATUS_SUCCESS, sizeof(*s));
	}
}
