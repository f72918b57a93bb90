/* Stopgaps for what msmpi.dll imports from kernel32 and other engineers'
 * branches implement fully (CopyFileW and GetComputerNameExW: "sysenv";
 * DeviceIoControl: "real"), written so that `ndrun --check` finds nothing
 * missing in MS-MPI before those merge.  The lead reconciles: whichever
 * is kept, the other goes.
 *
 *   CopyFileW          data and mode of a regular file; bFailIfExists
 *   GetComputerNameExW the NetBIOS, DNS host, domain and full names
 *   DeviceIoControl    no device or file-system control code is known
 *                      here: ERROR_INVALID_FUNCTION (MS-MPI's MPI-IO
 *                      issues an invalid FSCTL on purpose and expects it
 *                      to fail) */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

static int copy_data(const char *from, const char *to, BOOL fail_if_exists)
{
	char buf[65536];
	struct stat st;
	int in, out, err = 0;
	ssize_t n;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	if (fstat(in, &st) || S_ISDIR(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? EACCES : errno;
		close(in);
		return err;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (fail_if_exists ? O_EXCL : 0), st.st_mode & 07777);
	if (out < 0) {
		err = errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0) {
				err = errno;
				goto out;
			}
			off += w;
		}
	}
	if (n < 0)
		err = errno;
out:
	close(in);
	if (close(out) && !err)
		err = errno;
	return err;
}

BOOL WINAPI CopyFileW(LPCWSTR from, LPCWSTR to, BOOL fail_if_exists)
{
	DWORD err = 0;
	char *src = NULL, *dst = NULL;
	int e;

	if (!from || !to) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(src = path_to_unix(from, &err)) || !(dst = path_to_unix(to, &err))) {
		free(src);
		SetLastError(err ? err : ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	e = copy_data(src, dst, fail_if_exists);
	free(src);
	free(dst);
	if (e) {
		SetLastError(e == EEXIST ? ERROR_FILE_EXISTS : win32_error_from_errno(e));
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI GetComputerNameExW(COMPUTER_NAME_FORMAT type, LPWSTR buf, LPDWORD size)
{
	char host[256] = "localhost", *dot, *part;
	WCHAR name[256];
	DWORD n;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (type == ComputerNameNetBIOS || type == ComputerNamePhysicalNetBIOS)
		return GetComputerNameW(buf, size);
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = 0;
	dot = strchr(host, '.');
	switch (type) {
	case ComputerNameDnsHostname:
	case ComputerNamePhysicalDnsHostname:
		if (dot)
			*dot = 0;
		part = host;
		break;
	case ComputerNameDnsDomain:
	case ComputerNamePhysicalDnsDomain:
		part = dot ? dot + 1 : host + strlen(host);
		break;
	case ComputerNameDnsFullyQualified:
	case ComputerNamePhysicalDnsFullyQualified:
		part = host;
		break;
	default:
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	for (n = 0; part[n] && n < 255; n++)
		name[n] = (unsigned char)part[n];
	name[n] = 0;
	if (!buf || *size < n + 1) {
		*size = n + 1;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	memcpy(buf, name, (n + 1) * sizeof(WCHAR));
	*size = n;
	return TRUE;
}

BOOL WINAPI DeviceIoControl(HANDLE h, DWORD code, LPVOID in, DWORD in_size, LPVOID out, DWORD out_size,
			    LPDWORD returned, LPOVERLAPPED ov)
{
	if (returned)
		*returned = 0;
	SetLastError(h == INVALID_HANDLE_VALUE || !h ? ERROR_INVALID_HANDLE : ERROR_INVALID_FUNCTION);
	return FALSE;
}
