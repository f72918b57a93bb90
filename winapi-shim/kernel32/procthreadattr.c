/* Process and thread attribute lists (processthreadsapi.h), for
 * CreateProcess with EXTENDED_STARTUPINFO_PRESENT.  Update accepts any
 * attribute Windows defines (with its size checked where Windows fixes
 * one); CreateProcess honours PROC_THREAD_ATTRIBUTE_HANDLE_LIST and
 * PROC_THREAD_ATTRIBUTE_JOB_LIST and refuses a list holding anything
 * else (ERROR_NOT_SUPPORTED) rather than ignore a security or placement
 * request. */
#include <stddef.h>
#include <string.h>

#include "core/debug.h"
#include "kernel32/kernel32_private.h"

struct attr {
	DWORD_PTR attribute;
	SIZE_T size;
	void *value;
};

struct _PROC_THREAD_ATTRIBUTE_LIST {
	DWORD count; /* room */
	DWORD used;
	struct attr attrs[];
};

BOOL WINAPI InitializeProcThreadAttributeList(LPPROC_THREAD_ATTRIBUTE_LIST list, DWORD count, DWORD flags,
					      PSIZE_T size)
{
	SIZE_T need = offsetof(struct _PROC_THREAD_ATTRIBUTE_LIST, attrs) + count * sizeof(struct attr);

	if (flags || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!list || *size < need) {
		*size = need;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	*size = need;
	list->count = count;
	list->used = 0;
	return TRUE;
}

/* The size an attribute's value must have, 0 when it varies. */
static SIZE_T fixed_size(DWORD_PTR attribute)
{
	switch (attribute) {
	case PROC_THREAD_ATTRIBUTE_PARENT_PROCESS:
	case PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE:
		return sizeof(HANDLE);
	case PROC_THREAD_ATTRIBUTE_GROUP_AFFINITY:
		return sizeof(GROUP_AFFINITY);
	case PROC_THREAD_ATTRIBUTE_PREFERRED_NODE:
		return sizeof(USHORT);
	case PROC_THREAD_ATTRIBUTE_IDEAL_PROCESSOR:
		return sizeof(PROCESSOR_NUMBER);
	case PROC_THREAD_ATTRIBUTE_CHILD_PROCESS_POLICY:
		return sizeof(DWORD);
	}
	return 0;
}

static bool known(DWORD_PTR attribute)
{
	switch (attribute) {
	case PROC_THREAD_ATTRIBUTE_PARENT_PROCESS:
	case PROC_THREAD_ATTRIBUTE_HANDLE_LIST:
	case PROC_THREAD_ATTRIBUTE_GROUP_AFFINITY:
	case PROC_THREAD_ATTRIBUTE_PREFERRED_NODE:
	case PROC_THREAD_ATTRIBUTE_IDEAL_PROCESSOR:
	case PROC_THREAD_ATTRIBUTE_UMS_THREAD:
	case PROC_THREAD_ATTRIBUTE_MITIGATION_POLICY:
	case PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES:
	case PROC_THREAD_ATTRIBUTE_PROTECTION_LEVEL:
	case PROC_THREAD_ATTRIBUTE_JOB_LIST:
	case PROC_THREAD_ATTRIBUTE_CHILD_PROCESS_POLICY:
	case PROC_THREAD_ATTRIBUTE_ALL_APPLICATION_PACKAGES_POLICY:
	case PROC_THREAD_ATTRIBUTE_WIN32K_FILTER:
	case PROC_THREAD_ATTRIBUTE_DESKTOP_APP_POLICY:
	case PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE:
		return true;
	}
	return false;
}

BOOL WINAPI UpdateProcThreadAttribute(LPPROC_THREAD_ATTRIBUTE_LIST list, DWORD flags, DWORD_PTR attribute,
				      void *value, SIZE_T size, void *prev, PSIZE_T ret_size)
{
	SIZE_T fixed = fixed_size(attribute);

	TRACE(process, "%p, attribute %#lx, %zu bytes\n", list, (unsigned long)attribute, (size_t)size);
	if (!list || flags) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!known(attribute)) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	if ((fixed && size != fixed) ||
	    ((attribute == PROC_THREAD_ATTRIBUTE_HANDLE_LIST || attribute == PROC_THREAD_ATTRIBUTE_JOB_LIST) &&
	     (!size || size % sizeof(HANDLE)))) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	for (DWORD i = 0; i < list->used; i++) {
		if (list->attrs[i].attribute == attribute) {
			SetLastError(ERROR_OBJECT_NAME_EXISTS);
			return FALSE;
		}
	}
	if (list->used == list->count) {
		SetLastError(ERROR_GEN_FAILURE);
		return FALSE;
	}
	/* Windows keeps the pointer, not a copy: the caller's value must
	 * live until CreateProcess. */
	list->attrs[list->used++] = (struct attr){ attribute, size, value };
	return TRUE;
}

void WINAPI DeleteProcThreadAttributeList(LPPROC_THREAD_ATTRIBUTE_LIST list)
{
	/* Nothing was allocated: the caller owns the memory. */
}

BOOL proc_attr_list_get(LPPROC_THREAD_ATTRIBUTE_LIST list, const HANDLE **handles, size_t *n_handles,
			const HANDLE **jobs, size_t *n_jobs)
{
	*handles = *jobs = NULL;
	*n_handles = *n_jobs = 0;
	for (DWORD i = 0; list && i < list->used; i++) {
		const struct attr *a = &list->attrs[i];

		if (a->attribute == PROC_THREAD_ATTRIBUTE_HANDLE_LIST) {
			*handles = a->value;
			*n_handles = a->size / sizeof(HANDLE);
		} else if (a->attribute == PROC_THREAD_ATTRIBUTE_JOB_LIST) {
			*jobs = a->value;
			*n_jobs = a->size / sizeof(HANDLE);
		} else {
			TRACE(process, "attribute %#lx cannot be honoured\n", (unsigned long)a->attribute);
			SetLastError(ERROR_NOT_SUPPORTED);
			return FALSE;
		}
	}
	return TRUE;
}
