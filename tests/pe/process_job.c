/* Job objects: membership, TerminateJobObject, basic accounting, and
 * KILL_ON_JOB_CLOSE, both when the job's last handle is closed and when
 * the process holding it dies.  The program starts copies of itself
 * ("process_job child MODE"); every wait is bounded. */
#include <windows.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "self_child.h"

#define CHILD_TIMEOUT 20000

static char self[MAX_PATH];

static BOOL start_io(const char *args, DWORD flags, HANDLE in, HANDLE out, PROCESS_INFORMATION *pi)
{
	STARTUPINFOA si = { .cb = sizeof(si) };
	char line[1024];

	snprintf(line, sizeof(line), "\"%s\" child %s", self, args);
	if (out) {
		si.dwFlags = STARTF_USESTDHANDLES;
		si.hStdInput = in ? in : GetStdHandle(STD_INPUT_HANDLE);
		si.hStdOutput = out;
		si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	}
	return CreateProcessA(NULL, line, NULL, NULL, out != NULL, flags, NULL, NULL, &si, pi);
}

static BOOL start(const char *args, DWORD flags, HANDLE out, PROCESS_INFORMATION *pi)
{
	return start_io(args, flags, NULL, out, pi);
}

static HANDLE kill_on_close_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
	HANDLE job = CreateJobObjectW(NULL, NULL);

	memset(&li, 0, sizeof(li));
	li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	if (!job || !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof(li)))
		return NULL;
	return job;
}

/* The launcher: a kill-on-close job with a sleeping child in it; tells
 * its parent the child's pid on stdout, then waits to be killed. */
static int child_launcher(bool stay)
{
	HANDLE job = kill_on_close_job();
	PROCESS_INFORMATION pi;
	char buf[32];
	DWORD n;

	if (!job || !start("sleep", CREATE_SUSPENDED, NULL, &pi) || !AssignProcessToJobObject(job, pi.hProcess))
		return 90;
	ResumeThread(pi.hThread);
	n = (DWORD)snprintf(buf, sizeof(buf), "%lu\n", pi.dwProcessId);
	WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), buf, n, &n, NULL);
	if (!stay) {
		/* Exits (closing the job with it) once the parent has
		 * opened the member and says so on our stdin. */
		ReadFile(GetStdHandle(STD_INPUT_HANDLE), buf, 1, &n, NULL);
		return 0;
	}
	Sleep(CHILD_TIMEOUT * 2);
	return 91;
}

static int child_main(char **argv)
{
	if (!strcmp(argv[2], "sleep")) {
		Sleep(CHILD_TIMEOUT * 2);
		return 3;
	}
	if (!strcmp(argv[2], "exit"))
		return atoi(argv[3]);
	if (!strcmp(argv[2], "injob")) {
		BOOL in = 2;

		return IsProcessInJob(GetCurrentProcess(), NULL, &in) ? 10 + in : 99;
	}
	if (!strcmp(argv[2], "launcher"))
		return child_launcher(true);
	if (!strcmp(argv[2], "launcher-exits"))
		return child_launcher(false);
	return 99;
}

static JOBOBJECT_BASIC_ACCOUNTING_INFORMATION accounting(HANDLE job)
{
	JOBOBJECT_BASIC_ACCOUNTING_INFORMATION ai;
	DWORD len = 0;

	memset(&ai, 0xcc, sizeof(ai));
	ok(QueryInformationJobObject(job, JobObjectBasicAccountingInformation, &ai, sizeof(ai), &len),
	   "QueryInformationJobObject: %lu\n", GetLastError());
	ok(len == sizeof(ai), "length %lu\n", len);
	return ai;
}

/* Members, the process id list, accounting, TerminateJobObject. */
static void test_members(void)
{
	JOBOBJECT_BASIC_ACCOUNTING_INFORMATION ai;
	struct {
		JOBOBJECT_BASIC_PROCESS_ID_LIST l;
		ULONG_PTR more[7];
	} ids;
	PROCESS_INFORMATION a, b;
	HANDLE job = CreateJobObjectW(NULL, NULL);
	DWORD code = 0, len;
	char small[4];
	BOOL ret;

	ok(job != NULL, "CreateJobObjectW: %lu\n", GetLastError());
	ai = accounting(job);
	ok(ai.TotalProcesses == 0 && ai.ActiveProcesses == 0 && ai.TotalTerminatedProcesses == 0,
	   "empty job: %lu %lu %lu\n", ai.TotalProcesses, ai.ActiveProcesses, ai.TotalTerminatedProcesses);
	SetLastError(0xdeadbeef);
	ret = QueryInformationJobObject(job, JobObjectBasicAccountingInformation, small, sizeof(small), NULL);
	ok(!ret && GetLastError() == ERROR_BAD_LENGTH, "short buffer: %d, %lu\n", ret, GetLastError());

	ok(start("sleep", CREATE_SUSPENDED, NULL, &a), "CreateProcess: %lu\n", GetLastError());
	ok(start("exit 3", CREATE_SUSPENDED, NULL, &b), "CreateProcess: %lu\n", GetLastError());
	ok(AssignProcessToJobObject(job, a.hProcess), "assign: %lu\n", GetLastError());
	ok(AssignProcessToJobObject(job, b.hProcess), "assign: %lu\n", GetLastError());
	ResumeThread(a.hThread);
	ResumeThread(b.hThread);
	ok(WaitForSingleObject(b.hProcess, CHILD_TIMEOUT) == WAIT_OBJECT_0, "member did not end\n");
	ai = accounting(job);
	ok(ai.TotalProcesses == 2 && ai.ActiveProcesses == 1, "two members, one left: %lu %lu\n",
	   ai.TotalProcesses, ai.ActiveProcesses);

	memset(&ids, 0, sizeof(ids));
	ok(QueryInformationJobObject(job, JobObjectBasicProcessIdList, &ids, sizeof(ids), &len),
	   "process id list: %lu\n", GetLastError());
	ok(ids.l.NumberOfAssignedProcesses == 1 && ids.l.NumberOfProcessIdsInList == 1 &&
		   ids.l.ProcessIdList[0] == a.dwProcessId,
	   "ids: %lu %lu %lu\n", ids.l.NumberOfAssignedProcesses, ids.l.NumberOfProcessIdsInList,
	   (DWORD)ids.l.ProcessIdList[0]);

	ok(TerminateJobObject(job, 55), "TerminateJobObject: %lu\n", GetLastError());
	ok(WaitForSingleObject(a.hProcess, CHILD_TIMEOUT) == WAIT_OBJECT_0, "member not terminated\n");
	GetExitCodeProcess(a.hProcess, &code);
	ok(code == 55, "terminated member's code %lu\n", code);
	ai = accounting(job);
	/* TotalTerminatedProcesses counts limit violations only, not
	 * TerminateJobObject. */
	ok(ai.ActiveProcesses == 0 && ai.TotalProcesses == 2 && ai.TotalTerminatedProcesses == 0,
	   "after TerminateJobObject: %lu %lu %lu\n", ai.ActiveProcesses, ai.TotalProcesses,
	   ai.TotalTerminatedProcesses);
	ok(process_finish(&a) == 55 && process_finish(&b) == 3, "exit codes\n");
	CloseHandle(job);
}

/* Closing the last handle of a KILL_ON_JOB_CLOSE job ends its members. */
static void test_kill_on_close(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
	HANDLE job = kill_on_close_job();
	PROCESS_INFORMATION pi;
	DWORD len = 0, code;

	ok(job != NULL, "kill-on-close job: %lu\n", GetLastError());
	memset(&li, 0xcc, sizeof(li));
	ok(QueryInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof(li), &len),
	   "query limits: %lu\n", GetLastError());
	/* The limits set are the limits read back; Wine 8 reports none. */
	ok(len == sizeof(li), "length %lu\n", len);
	ok_todo_wine(li.BasicLimitInformation.LimitFlags == JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		     "limits %#lx\n", li.BasicLimitInformation.LimitFlags);
	ok(start("sleep", CREATE_SUSPENDED, NULL, &pi), "CreateProcess: %lu\n", GetLastError());
	ok(AssignProcessToJobObject(job, pi.hProcess), "assign: %lu\n", GetLastError());
	ResumeThread(pi.hThread);
	ok(WaitForSingleObject(pi.hProcess, 300) == WAIT_TIMEOUT, "member ended early\n");
	CloseHandle(job);
	/* Ended by the job's close, with exit code 0 (as Wine does too). */
	code = process_finish(&pi);
	ok(code == 0, "member's code %#lx\n", code);
}

/* The same when the process holding the job is killed, or exits
 * without closing it: the job's member (our grandchild) must not
 * outlive it. */
static void test_launcher_dies(bool killed)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	PROCESS_INFORMATION pi;
	HANDLE rd, wr, in_r, in_w, grandchild;
	char buf[32] = "";
	DWORD n = 0, w;

	ok(CreatePipe(&rd, &wr, &sa, 0), "CreatePipe: %lu\n", GetLastError());
	ok(CreatePipe(&in_r, &in_w, &sa, 0), "CreatePipe: %lu\n", GetLastError());
	SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
	SetHandleInformation(in_w, HANDLE_FLAG_INHERIT, 0);
	ok(start_io(killed ? "launcher" : "launcher-exits", 0, in_r, wr, &pi), "CreateProcess: %lu\n",
	   GetLastError());
	CloseHandle(wr);
	CloseHandle(in_r);
	ok(ReadFile(rd, buf, sizeof(buf) - 1, &n, NULL) && n > 1, "no pid from the launcher: %lu\n",
	   GetLastError());
	buf[n] = 0;
	CloseHandle(rd);
	grandchild = OpenProcess(SYNCHRONIZE | PROCESS_TERMINATE, FALSE, strtoul(buf, NULL, 10));
	ok(grandchild != NULL, "OpenProcess(%s): %lu\n", buf, GetLastError());
	if (killed)
		ok(TerminateProcess(pi.hProcess, 9), "TerminateProcess: %lu\n", GetLastError());
	else
		WriteFile(in_w, "x", 1, &n, NULL);
	CloseHandle(in_w);
	ok(process_finish(&pi) == (killed ? 9 : 0), "launcher's code\n");
	if (!grandchild)
		return;
	w = WaitForSingleObject(grandchild, CHILD_TIMEOUT / 2);
	ok(w == WAIT_OBJECT_0, "the job's member outlived the launcher: %#lx\n", w);
	if (w != WAIT_OBJECT_0)
		TerminateProcess(grandchild, 1);
	CloseHandle(grandchild);
}

/* IsProcessInJob: against one job, and "any job", also as the member
 * itself sees it. */
static void test_is_in_job(void)
{
	HANDLE job = CreateJobObjectW(NULL, NULL), other = CreateJobObjectW(NULL, NULL);
	PROCESS_INFORMATION in, out;
	BOOL r;

	ok(start("injob", CREATE_SUSPENDED, NULL, &in), "CreateProcess: %lu\n", GetLastError());
	ok(start("injob", 0, NULL, &out), "CreateProcess: %lu\n", GetLastError());
	ok(AssignProcessToJobObject(job, in.hProcess), "assign: %lu\n", GetLastError());
	r = 2;
	ok(IsProcessInJob(in.hProcess, job, &r) && r == TRUE, "member: %d\n", r);
	r = 2;
	ok(IsProcessInJob(in.hProcess, other, &r) && r == FALSE, "other job: %d\n", r);
	r = 2;
	ok(IsProcessInJob(in.hProcess, NULL, &r) && r == TRUE, "any job: %d\n", r);
	r = 2;
	ok(IsProcessInJob(out.hProcess, job, &r) && r == FALSE, "not a member: %d\n", r);
	ResumeThread(in.hThread);
	ok(process_finish(&in) == 11, "the member does not see its job\n");
	ok(process_finish(&out) == 10, "a process outside any job sees one\n");
	CloseHandle(job);
	CloseHandle(other);
}

static void test_bad_limits(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
	HANDLE job = CreateJobObjectA(NULL, NULL);
	BOOL ret;

	memset(&li, 0, sizeof(li));
	li.BasicLimitInformation.LimitFlags = 0x80000000;
	SetLastError(0xdeadbeef);
	ret = SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof(li));
	ok(!ret && GetLastError() == ERROR_INVALID_PARAMETER, "invalid flag: %d, %lu\n", ret, GetLastError());
	CloseHandle(job);
}

int main(int argc, char **argv)
{
	GetModuleFileNameA(NULL, self, sizeof(self));
	if (argc >= 3 && !strcmp(argv[1], "child"))
		return child_main(argv);

	test_members();
	test_kill_on_close();
	test_launcher_dies(true);
	test_launcher_dies(false);
	test_is_in_job();
	test_bad_limits();
	return test_summary();
}
