/* Job objects (jobapi2.h): a list of process objects with
 * KILL_ON_JOB_CLOSE, TerminateJobObject and basic accounting.  Jobs
 * live in the process that created them; a member's own children are
 * not members (they are the member's business).  KILL_ON_JOB_CLOSE also
 * holds when this process dies: each ndrun child is armed through its
 * lifeline (process_set_kill_with_parent), so the kernel kills it when
 * our end of the lifeline closes.  See docs/processes.md. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/startup.h"
#include "core/sync.h"
#include "core/wait.h"
#include "kernel32/kernel32_private.h"

struct job {
	struct object obj;
	pthread_mutex_t lock;        /* the fields below */
	DWORD limit_flags;
	struct process **members;    /* references, in assignment order */
	size_t n, cap;
};

static struct job *to_job(struct object *obj)
{
	return container_of(obj, struct job, obj);
}

/* Flags that change nothing here but are accepted: members' children
 * are never members (as if they broke away), and an unhandled
 * exception already ends a process without a dialog. */
#define ACCEPTED_LIMITS                                                                            \
	(JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK |                     \
	 JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION)

static bool job_signaled(struct object *obj, unsigned int tid)
{
	/* Signaled only by an end-of-job time limit, which is not
	 * supported (SetInformationJobObject refuses it). */
	return false;
}

static bool job_satisfied(struct object *obj, unsigned int tid)
{
	return false;
}

static bool alive(struct process *p)
{
	bool a;

	wait_lock();
	a = !p->finished;
	wait_unlock();
	return a;
}

/* job->lock held: ends every live member with code. */
static void terminate_members(struct job *job, UINT code)
{
	bool self = false;

	for (size_t i = 0; i < job->n; i++) {
		struct process *p = job->members[i];

		if (p->pidfd < 0) {
			self = true;
			continue;
		}
		if (alive(p))
			process_terminate(p, code);
	}
	if (self) {
		/* We are a member too: last, once the others are on their way. */
		TRACE(process, "the job ends this process too\n");
		TerminateProcess(GetCurrentProcess(), code);
	}
}

static void job_close_handle(struct object *obj, unsigned int handles_left)
{
	struct job *job = to_job(obj);

	if (handles_left)
		return;
	pthread_mutex_lock(&job->lock);
	if (job->limit_flags & JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE)
		terminate_members(job, 0);
	pthread_mutex_unlock(&job->lock);
}

static void job_destroy(struct object *obj)
{
	struct job *job = to_job(obj);

	namespace_remove(obj);
	for (size_t i = 0; i < job->n; i++)
		object_unref(&job->members[i]->obj);
	free(job->members);
	pthread_mutex_destroy(&job->lock);
	free(job);
}

static const struct object_ops job_ops = {
	.type_name = "job",
	.signaled = job_signaled,
	.satisfied = job_satisfied,
	.close_handle = job_close_handle,
	.destroy = job_destroy,
};

/* The job behind h if the handle grants need; referenced. */
static struct job *get_job(HANDLE h, DWORD need)
{
	struct object *obj = handle_get(h, &job_ops);
	DWORD access = 0;

	if (!obj)
		return NULL;
	handle_get_info(h, &access, NULL);
	if (!(access & (GENERIC_ALL | JOB_OBJECT_ALL_ACCESS)) && (access & need) != need) {
		object_unref(obj);
		SetLastError(ERROR_ACCESS_DENIED);
		return NULL;
	}
	return to_job(obj);
}

HANDLE WINAPI CreateJobObjectW(LPSECURITY_ATTRIBUTES sa, LPCWSTR name)
{
	struct job *job = calloc(1, sizeof(*job));
	HANDLE h;

	TRACE(process, "%s\n", debugstr_w(name));
	if (!job) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&job->obj, &job_ops);
	pthread_mutex_init(&job->lock, NULL);
	h = sync_create_handle(&job->obj, name);
	if (h && sa && sa->bInheritHandle)
		handle_set_flags(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
	return h;
}

HANDLE WINAPI CreateJobObjectA(LPSECURITY_ATTRIBUTES sa, LPCSTR name)
{
	WCHAR *w = namespace_name_from_a(name);
	HANDLE h;

	if (name && !w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = CreateJobObjectW(sa, w);
	free(w);
	return h;
}

BOOL WINAPI AssignProcessToJobObject(HANDLE hjob, HANDLE hprocess)
{
	struct object *obj;
	struct process *p;
	struct job *job;
	DWORD access = PROCESS_ALL_ACCESS;
	BOOL ok = FALSE;

	TRACE(process, "%p, %p\n", hjob, hprocess);
	if (!(job = get_job(hjob, JOB_OBJECT_ASSIGN_PROCESS)))
		return FALSE;
	if (!(obj = handle_get(hprocess, &process_ops)))
		goto out;
	p = to_process(obj);
	if (hprocess != GetCurrentProcess())
		handle_get_info(hprocess, &access, NULL);
	if ((access & (PROCESS_SET_QUOTA | PROCESS_TERMINATE)) != (PROCESS_SET_QUOTA | PROCESS_TERMINATE)) {
		SetLastError(ERROR_ACCESS_DENIED);
		object_unref(obj);
		goto out;
	}
	pthread_mutex_lock(&job->lock);
	for (size_t i = 0; i < job->n; i++) {
		if (job->members[i] == p) {
			/* Already in it: Windows answers so. */
			pthread_mutex_unlock(&job->lock);
			object_unref(obj);
			SetLastError(ERROR_ACCESS_DENIED);
			goto out;
		}
	}
	if (job->n == job->cap) {
		size_t cap = job->cap * 2 + 8;
		struct process **m = realloc(job->members, cap * sizeof(*m));

		if (!m) {
			pthread_mutex_unlock(&job->lock);
			object_unref(obj);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			goto out;
		}
		job->members = m;
		job->cap = cap;
	}
	job->members[job->n++] = p; /* takes the reference */
	/* The member learns it (IsProcessInJob) through its block. */
	if (p->block)
		__atomic_or_fetch(&p->block->flags, STARTUP_IN_JOB, __ATOMIC_RELEASE);
	if (job->limit_flags & JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE)
		process_set_kill_with_parent(p, true);
	pthread_mutex_unlock(&job->lock);
	ok = TRUE;
out:
	object_unref(&job->obj);
	return ok;
}

BOOL WINAPI TerminateJobObject(HANDLE hjob, UINT code)
{
	struct job *job = get_job(hjob, JOB_OBJECT_TERMINATE);

	TRACE(process, "%p, %#x\n", hjob, code);
	if (!job)
		return FALSE;
	pthread_mutex_lock(&job->lock);
	terminate_members(job, code);
	pthread_mutex_unlock(&job->lock);
	object_unref(&job->obj);
	return TRUE;
}

static BOOL set_limits(struct job *job, const JOBOBJECT_BASIC_LIMIT_INFORMATION *li, DWORD valid)
{
	DWORD flags = li->LimitFlags;
	bool kill;

	if (flags & ~valid) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (flags & ~ACCEPTED_LIMITS) {
		/* Time, memory, working-set, process-count, affinity and
		 * priority limits are not enforced: refuse rather than
		 * pretend. */
		TRACE(process, "unsupported job limits %#x\n", flags & ~ACCEPTED_LIMITS);
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	kill = flags & JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	pthread_mutex_lock(&job->lock);
	if (kill != !!(job->limit_flags & JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE))
		for (size_t i = 0; i < job->n; i++)
			process_set_kill_with_parent(job->members[i], kill);
	job->limit_flags = flags;
	pthread_mutex_unlock(&job->lock);
	return TRUE;
}

BOOL WINAPI SetInformationJobObject(HANDLE hjob, JOBOBJECTINFOCLASS cls, LPVOID info, DWORD len)
{
	struct job *job;
	BOOL ok = FALSE;

	TRACE(process, "%p, class %d, %u bytes\n", hjob, cls, len);
	if (!info) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(job = get_job(hjob, JOB_OBJECT_SET_ATTRIBUTES)))
		return FALSE;
	switch (cls) {
	case JobObjectBasicLimitInformation:
		if (len != sizeof(JOBOBJECT_BASIC_LIMIT_INFORMATION))
			SetLastError(ERROR_BAD_LENGTH);
		else
			ok = set_limits(job, info, JOB_OBJECT_BASIC_LIMIT_VALID_FLAGS);
		break;
	case JobObjectExtendedLimitInformation:
		if (len != sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION))
			SetLastError(ERROR_BAD_LENGTH);
		else
			ok = set_limits(job, info, JOB_OBJECT_EXTENDED_LIMIT_VALID_FLAGS);
		break;
	default:
		TRACE(process, "information class %d not supported\n", cls);
		SetLastError(cls > 0 && cls < MaxJobObjectInfoClass ? ERROR_NOT_SUPPORTED
								     : ERROR_INVALID_PARAMETER);
		break;
	}
	object_unref(&job->obj);
	return ok;
}

static void accounting(struct job *job, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION *ai)
{
	uint64_t user = 0, kernel = 0;

	memset(ai, 0, sizeof(*ai));
	for (size_t i = 0; i < job->n; i++) {
		uint64_t u, k;

		process_times(job->members[i], &u, &k);
		user += u;
		kernel += k;
		if (alive(job->members[i]))
			ai->ActiveProcesses++;
	}
	ai->TotalUserTime.QuadPart = (LONGLONG)user;
	ai->TotalKernelTime.QuadPart = (LONGLONG)kernel;
	ai->ThisPeriodTotalUserTime = ai->TotalUserTime;
	ai->ThisPeriodTotalKernelTime = ai->TotalKernelTime;
	ai->TotalProcesses = (DWORD)job->n;
	/* Limit violations only, and no limit is enforced: 0. */
	ai->TotalTerminatedProcesses = 0;
}

BOOL WINAPI QueryInformationJobObject(HANDLE hjob, JOBOBJECTINFOCLASS cls, LPVOID info, DWORD len,
				      LPDWORD ret_len)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION *el = info;
	JOBOBJECT_BASIC_PROCESS_ID_LIST *pl = info;
	struct job *job;
	DWORD need = 0;
	BOOL ok = FALSE;

	if (!(job = get_job(hjob, JOB_OBJECT_QUERY)))
		return FALSE;
	pthread_mutex_lock(&job->lock);
	switch (cls) {
	case JobObjectBasicAccountingInformation:
		need = sizeof(JOBOBJECT_BASIC_ACCOUNTING_INFORMATION);
		if (len >= need) {
			accounting(job, info);
			ok = TRUE;
		}
		break;
	case JobObjectBasicLimitInformation:
	case JobObjectExtendedLimitInformation:
		need = cls == JobObjectBasicLimitInformation ? sizeof(JOBOBJECT_BASIC_LIMIT_INFORMATION)
							     : sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION);
		if (len >= need) {
			memset(info, 0, need);
			el->BasicLimitInformation.LimitFlags = job->limit_flags;
			ok = TRUE;
		}
		break;
	case JobObjectBasicProcessIdList: {
		DWORD active = 0, room;

		need = offsetof(JOBOBJECT_BASIC_PROCESS_ID_LIST, ProcessIdList);
		if (len < need)
			break;
		room = (DWORD)((len - need) / sizeof(ULONG_PTR));
		pl->NumberOfProcessIdsInList = 0;
		for (size_t i = 0; i < job->n; i++) {
			if (!alive(job->members[i]))
				continue;
			if (active < room)
				pl->ProcessIdList[pl->NumberOfProcessIdsInList++] =
					job->members[i]->pidfd < 0 ? (ULONG_PTR)GetCurrentProcessId()
								   : (ULONG_PTR)job->members[i]->pid;
			active++;
		}
		pl->NumberOfAssignedProcesses = active;
		need += pl->NumberOfProcessIdsInList * (DWORD)sizeof(ULONG_PTR);
		ok = active <= room;
		if (!ok) {
			pthread_mutex_unlock(&job->lock);
			object_unref(&job->obj);
			if (ret_len)
				*ret_len = need;
			SetLastError(ERROR_MORE_DATA);
			return FALSE;
		}
		break;
	}
	default:
		pthread_mutex_unlock(&job->lock);
		object_unref(&job->obj);
		TRACE(process, "information class %d not supported\n", cls);
		SetLastError(cls > 0 && cls < MaxJobObjectInfoClass ? ERROR_NOT_SUPPORTED
								     : ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	pthread_mutex_unlock(&job->lock);
	object_unref(&job->obj);
	if (!ok) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	if (ret_len)
		*ret_len = need;
	return TRUE;
}

/* job NULL: is the process in any job?  We know our own jobs, and a
 * process with a startup block knows whether its parent put it in one. */
BOOL WINAPI IsProcessInJob(HANDLE hprocess, HANDLE hjob, PBOOL result)
{
	struct object *obj = handle_get(hprocess, &process_ops);
	DWORD access = PROCESS_ALL_ACCESS;
	struct process *p;
	struct job *job;
	bool in = false;

	if (!obj)
		return FALSE;
	p = to_process(obj);
	if (hprocess != GetCurrentProcess())
		handle_get_info(hprocess, &access, NULL);
	if (!(access & (PROCESS_QUERY_INFORMATION | PROCESS_QUERY_LIMITED_INFORMATION))) {
		object_unref(obj);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	if (!hjob) {
		if (p->pidfd < 0)
			in = startup_in_job();
		else if (p->block)
			in = __atomic_load_n(&p->block->flags, __ATOMIC_ACQUIRE) & STARTUP_IN_JOB;
		object_unref(obj);
		*result = in;
		return TRUE;
	}
	if (!(job = get_job(hjob, JOB_OBJECT_QUERY))) {
		object_unref(obj);
		return FALSE;
	}
	pthread_mutex_lock(&job->lock);
	for (size_t i = 0; i < job->n && !in; i++)
		in = job->members[i] == p;
	pthread_mutex_unlock(&job->lock);
	object_unref(&job->obj);
	object_unref(obj);
	*result = in;
	return TRUE;
}
