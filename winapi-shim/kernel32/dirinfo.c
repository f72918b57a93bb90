/* GetFileInformationByHandleEx's folder listings, as Windows makes them:
 * on NtQueryDirectoryFile (ntdll/dirquery.c), whose records have the same
 * layouts.  FileIdBothDirectoryInfo lists FILE_ID_BOTH_DIR_INFO records,
 * FileFullDirectoryInfo FILE_FULL_DIR_INFO ones, each call the next
 * bufferful; the Restart classes start again from the first entry.  The
 * end is ERROR_NO_MORE_FILES.  Go's os.ReadDir reads folders this way. */
#define WIN32_NO_STATUS
#include "kernel32/kernel32_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

enum { NT_FULL = 2, NT_ID_BOTH = 37 };

bool dir_info_class(FILE_INFO_BY_HANDLE_CLASS cls)
{
	return cls == FileIdBothDirectoryInfo || cls == FileIdBothDirectoryRestartInfo || cls == FileFullDirectoryInfo ||
	       cls == FileFullDirectoryRestartInfo;
}

BOOL dir_info(HANDLE h, FILE_INFO_BY_HANDLE_CLASS cls, void *buf, DWORD size)
{
	bool restart = cls == FileIdBothDirectoryRestartInfo || cls == FileFullDirectoryRestartInfo;
	bool id_both = cls == FileIdBothDirectoryInfo || cls == FileIdBothDirectoryRestartInfo;
	IO_STATUS_BLOCK io;
	NTSTATUS status;

	status = NtQueryDirectoryFile(h, NULL, NULL, NULL, &io, buf, size,
				      (FILE_INFORMATION_CLASS)(id_both ? NT_ID_BOTH : NT_FULL), FALSE, NULL, restart);
	if (status == STATUS_SUCCESS)
		return TRUE;
	SetLastError(status == STATUS_NO_MORE_FILES || status == STATUS_NO_SUCH_FILE ? ERROR_NO_MORE_FILES
										       : RtlNtStatusToDosError(status));
	return FALSE;
}
