/* The NTSTATUS an Nt* function returns for a failure its kernel32
 * counterpart reported as a Win32 error: the common ones by name, the
 * rest as NTSTATUS_FROM_WIN32 (RtlNtStatusToDosError gives them back). */
#define WIN32_NO_STATUS
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

NTSTATUS ntstatus_from_win32(DWORD err)
{
	switch (err) {
	case ERROR_FILE_NOT_FOUND:
		return STATUS_OBJECT_NAME_NOT_FOUND;
	case ERROR_PATH_NOT_FOUND:
		return STATUS_OBJECT_PATH_NOT_FOUND;
	case ERROR_ACCESS_DENIED:
		return STATUS_ACCESS_DENIED;
	case ERROR_PIPE_BUSY:
		return STATUS_PIPE_NOT_AVAILABLE;
	case ERROR_INVALID_PARAMETER:
		return STATUS_INVALID_PARAMETER;
	case ERROR_NOT_ENOUGH_MEMORY:
		return STATUS_NO_MEMORY;
	case ERROR_INVALID_HANDLE:
		return STATUS_INVALID_HANDLE;
	case ERROR_DIRECTORY:
		return STATUS_NOT_A_DIRECTORY;
	case ERROR_DIRECTORY_NOT_SUPPORTED: /* a folder where a file was asked for */
		return STATUS_FILE_IS_A_DIRECTORY;
	case ERROR_HANDLE_EOF:
		return STATUS_END_OF_FILE;
	case ERROR_INVALID_FUNCTION:
		return STATUS_INVALID_DEVICE_REQUEST;
	case ERROR_NOT_SUPPORTED:
		return STATUS_NOT_SUPPORTED;
	case ERROR_BAD_LENGTH:
		return STATUS_INFO_LENGTH_MISMATCH;
	case ERROR_MORE_DATA:
		return STATUS_BUFFER_OVERFLOW;
	case ERROR_INSUFFICIENT_BUFFER:
		return STATUS_BUFFER_TOO_SMALL;
	case ERROR_SHARING_VIOLATION:
		return STATUS_SHARING_VIOLATION;
	case ERROR_FILE_EXISTS:
	case ERROR_ALREADY_EXISTS:
		return STATUS_OBJECT_NAME_COLLISION;
	case ERROR_DIR_NOT_EMPTY:
		return STATUS_DIRECTORY_NOT_EMPTY;
	}
	return (NTSTATUS)(0xc0070000u | (err & 0xffff)); /* NTSTATUS_FROM_WIN32 */
}
