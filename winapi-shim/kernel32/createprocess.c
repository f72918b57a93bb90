/* CreateProcessA/W (processthreadsapi.h): finding the program, the
 * child's command line, environment, current directory, standard and
 * inherited handles.  The fork/exec is core/spawn.c; docs/processes.md
 * has the whole design. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/path.h"
#include "core/process.h"
#include "core/progfile.h"
#include "core/spawn.h"
#include "core/startup.h"
#include "core/sync.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

#pragma weak loader_peb

enum exe_kind { EXE_NONE, EXE_PE, EXE_LINUX };

static bool is_sep(WCHAR c)
{
	return c == '\\' || c == '/';
}

static bool is_blank(WCHAR c)
{
	return c == ' ' || c == '\t';
}

static bool has_path(const WCHAR *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (is_sep(name[i]) || name[i] == ':')
			return true;
	return false;
}

/* What the file at path is: a PE32+ x86-64 image, a Linux executable
 * (ELF or #! script, executable), or neither (*err says why). */
static enum exe_kind exe_kind(const char *path, DWORD *err)
{
	unsigned char h[64], pe[6];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	enum exe_kind kind = EXE_NONE;
	ssize_t n;

	*err = ERROR_BAD_EXE_FORMAT;
	if (fd < 0) {
		*err = errno == EACCES ? ERROR_ACCESS_DENIED : ERROR_FILE_NOT_FOUND;
		return EXE_NONE;
	}
	n = read(fd, h, sizeof(h));
	if (n == sizeof(h) && h[0] == 'M' && h[1] == 'Z') {
		uint32_t lfanew = h[0x3c] | h[0x3d] << 8 | h[0x3e] << 16 | (uint32_t)h[0x3f] << 24;

		if (pread(fd, pe, sizeof(pe), lfanew) == sizeof(pe) && !memcmp(pe, "PE\0\0", 4) &&
		    (pe[4] | pe[5] << 8) == IMAGE_FILE_MACHINE_AMD64)
			kind = EXE_PE;
	} else if (n >= 4 && (!memcmp(h, "\177ELF", 4) || (h[0] == '#' && h[1] == '!'))) {
		if (!access(path, X_OK))
			kind = EXE_LINUX;
		else
			*err = ERROR_ACCESS_DENIED;
	}
	close(fd);
	return kind;
}

/* The folder of the running program (Windows path, malloc'd). */
static WCHAR *program_dir(void)
{
	const UNICODE_STRING *img;
	WCHAR *d;
	size_t n;

	if (!loader_peb || !loader_peb()->ProcessParameters)
		return NULL;
	img = &loader_peb()->ProcessParameters->ImagePathName;
	n = img->Length / sizeof(WCHAR);
	while (n && !is_sep(img->Buffer[n - 1]))
		n--;
	if (!n || !(d = malloc((n + 1) * sizeof(WCHAR))))
		return NULL;
	memcpy(d, img->Buffer, n * sizeof(WCHAR));
	d[n] = 0;
	return d;
}

/* Each PATH entry in turn; a Linux PATH entry (starts with '/', no
 * '\\') is split at ':' too. */
static char *try_path(const WCHAR *name, size_t len, bool add_exe)
{
	DWORD n = GetEnvironmentVariableW(u"PATH", NULL, 0);
	WCHAR *path, *p;
	char *u = NULL;

	if (!n || !(path = malloc(n * sizeof(WCHAR))))
		return NULL;
	GetEnvironmentVariableW(u"PATH", path, n);
	for (p = path; *p; p++) {
		if (*p != ';')
			continue;
		*p = 0;
	}
	for (p = path; p < path + n - 1 && !u; p += wstr_len(p) + 1) {
		bool linux_style = p[0] == '/';

		for (WCHAR *c = p; *c; c++)
			if (*c == '\\')
				linux_style = false;
		if (!linux_style) {
			if (*p)
				u = progfile_find(p, name, len, add_exe);
			continue;
		}
		for (WCHAR *c = p, *end; *c && !u; c = end) {
			WCHAR save;

			for (end = c; *end && *end != ':'; end++)
				;
			save = *end;
			*end = 0;
			if (end > c)
				u = progfile_find(c, name, len, add_exe);
			*end = save;
			if (save)
				end++;
		}
	}
	free(path);
	return u;
}

/* CreateProcess's search for a program named name[0..len): a name with
 * a path is used as it is; else the program's folder, the current
 * directory, then PATH (the system folders do not exist here).  In each
 * place the file is matched as core/progfile.h says (".exe" added, any
 * letter case), as ndrun's own command line is. */
static char *search(const WCHAR *name, size_t len)
{
	bool add_exe = !progfile_has_ext(name, len);
	WCHAR *dir;
	char *u;

	if (!len)
		return NULL;
	if (has_path(name, len))
		return progfile_find(NULL, name, len, add_exe);
	if ((dir = program_dir())) {
		u = progfile_find(dir, name, len, add_exe);
		free(dir);
		if (u)
			return u;
	}
	if ((u = progfile_find(NULL, name, len, add_exe)))
		return u;
	return try_path(name, len, add_exe);
}

/* The program a command line names (no application name given): the
 * quoted first token, or the shortest prefix ending before a blank that
 * names a file ("C:\Program Files\x" tries "C:\Program" first). */
static char *find_in_command_line(const WCHAR *cmd)
{
	const WCHAR *p = cmd, *end;
	char *u;

	while (is_blank(*p))
		p++;
	if (*p == '"') {
		for (end = p + 1; *end && *end != '"'; end++)
			;
		return search(p + 1, (size_t)(end - p - 1));
	}
	for (end = p;; end++) {
		if (!*end || is_blank(*end)) {
			if (end > p && (u = search(p, (size_t)(end - p))))
				return u;
			if (!*end)
				return NULL;
		}
	}
}

/* ---- the child's pieces ------------------------------------------------------ */

/* One argument of cmd by the Windows rules (the C runtime's), UTF-16
 * into out; returns where the next one starts, NULL at the end.  first:
 * the program name, which ends at its closing quote with no escapes. */
static const WCHAR *next_arg(const WCHAR *p, WCHAR *out, size_t *olen, bool first)
{
	bool quoted = false;
	size_t o = 0;

	while (is_blank(*p))
		p++;
	if (!*p)
		return NULL;
	if (first) {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				out[o++] = *p;
			if (*p)
				p++;
		} else {
			for (; *p && !is_blank(*p); p++)
				out[o++] = *p;
		}
		*olen = o;
		return p;
	}
	while (*p && (quoted || !is_blank(*p))) {
		size_t bs = 0;

		while (*p == '\\') {
			bs++;
			p++;
		}
		if (*p == '"') {
			for (size_t i = 0; i < bs / 2; i++)
				out[o++] = '\\';
			if (bs % 2) {
				out[o++] = '"';
				p++;
			} else if (quoted && p[1] == '"') {
				/* "" inside quotes: a literal quote. */
				out[o++] = '"';
				p += 2;
			} else {
				quoted = !quoted;
				p++;
			}
		} else {
			for (size_t i = 0; i < bs; i++)
				out[o++] = '\\';
			if (*p && (quoted || !is_blank(*p)))
				out[o++] = *p++;
		}
	}
	*olen = o;
	return p;
}

/* A Linux program's argv from the command line, UTF-8, NULL-ended. */
static char **split_args(const WCHAR *cmd)
{
	size_t len = wstr_len(cmd), n = 0, olen;
	WCHAR *buf = malloc((len + 1) * sizeof(WCHAR));
	char **argv = calloc(len / 2 + 2, sizeof(char *));
	const WCHAR *p = cmd;

	if (!buf || !argv)
		goto fail;
	while ((p = next_arg(p, buf, &olen, n == 0))) {
		buf[olen] = 0;
		if (!(argv[n++] = utf16_to_utf8_dup(buf)))
			goto fail;
	}
	free(buf);
	return argv;
fail:
	for (size_t i = 0; argv && i < n; i++)
		free(argv[i]);
	free(argv);
	free(buf);
	return NULL;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The child's Linux environment from an environment block (ours when
 * block is NULL). */
static char **make_envp(const void *block, bool unicode)
{
	WCHAR *own = NULL;
	size_t n = 0, i = 0;
	char **envp;

	if (!block) {
		if (!(own = GetEnvironmentStringsW()))
			return NULL;
		block = own;
		unicode = true;
	}
	if (unicode)
		for (const WCHAR *p = block; *p; p += wstr_len(p) + 1)
			n++;
	else
		for (const char *p = block; *p; p += strlen(p) + 1)
			n++;
	envp = calloc(n + 1, sizeof(char *));
	if (envp) {
		if (unicode) {
			for (const WCHAR *p = block; *p && envp; p += wstr_len(p) + 1)
				if (!(envp[i++] = utf16_to_utf8_dup(p)))
					break;
		} else {
			for (const char *p = block; *p; p += strlen(p) + 1) {
				WCHAR *w = cp_to_utf16_dup(CP_ACP, p);

				envp[i] = w ? utf16_to_utf8_dup(w) : NULL;
				free(w);
				if (!envp[i++])
					break;
			}
		}
		if (i && !envp[i - 1]) {
			free_strv(envp);
			envp = NULL;
		}
	}
	if (own)
		FreeEnvironmentStringsW(own);
	return envp;
}

/* The fd behind a handle to a Linux-backed file (-1: none), with a
 * reference on the file in *ref. */
static int handle_fd(HANDLE h, struct object **ref)
{
	struct object *obj;

	*ref = NULL;
	if (!h || h == INVALID_HANDLE_VALUE || !(obj = handle_get(h, &file_ops)))
		return -1;
	if (to_file(obj)->fd < 0) {
		object_unref(obj);
		return -1;
	}
	*ref = obj;
	return to_file(obj)->fd;
}

struct inherit_list {
	struct spawn_inherit *v;
	struct object **refs;
	size_t n, cap;
	bool oom;
};

/* Under the handle table lock: every inheritable handle with an fd. */
static void collect_inherit(HANDLE h, struct object *obj, DWORD access, void *ctx)
{
	struct inherit_list *l = ctx;
	struct spawn_inherit si;
	struct file *f;

	if (obj->ops == &file_ops && (f = to_file(obj))->fd >= 0) {
		si = (struct spawn_inherit){ .handle = h, .access = access, .options = f->options,
					     .kind = f->anon_pipe ? STARTUP_KIND_PIPE : STARTUP_KIND_FILE,
					     .fd = f->fd };
	} else if (!duphandle_inherit_segment(obj, &si)) {
		TRACE(process, "handle %p (%s) is not inherited: no Linux fd behind it\n", h,
		      obj->ops->type_name);
		return;
	} else {
		si.handle = h;
		si.access = access;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap * 2 + 8;
		struct spawn_inherit *v = realloc(l->v, cap * sizeof(*v));
		struct object **r = v ? realloc(l->refs, cap * sizeof(*r)) : NULL;

		if (v)
			l->v = v;
		if (!r) {
			l->oom = true;
			if (si.kind >= STARTUP_KIND_SYNC)
				close(si.fd);
			return;
		}
		l->refs = r;
		l->cap = cap;
	}
	l->v[l->n] = si;
	l->refs[l->n++] = object_ref(obj);
}

struct local_sync {
	struct object **v;
	size_t n, cap;
};

/* Under the handle table lock: inheritable unnamed events, semaphores
 * and mutexes. */
static void collect_local_sync(HANDLE h, struct object *obj, DWORD access, void *ctx)
{
	struct local_sync *l = ctx;

	if (!sync_is_local(obj))
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap * 2 + 8;
		struct object **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return; /* not inherited, as any object that cannot be */
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = object_ref(obj);
}

/* A child inherits an unnamed event, semaphore or mutex as a shared
 * one: each is promoted (core/promote.c) before the handles are
 * collected, as that re-points handles and so needs the table lock. */
static void share_inherited_sync(const HANDLE *only, size_t n_only)
{
	struct local_sync l = { 0 };

	if (only) {
		for (size_t i = 0; i < n_only; i++) {
			struct object *obj = handle_get(only[i], NULL);
			DWORD hflags = 0;

			if (obj && sync_is_local(obj) && handle_get_info(only[i], NULL, &hflags) &&
			    (hflags & HANDLE_FLAG_INHERIT))
				collect_local_sync(only[i], obj, 0, &l);
			if (obj)
				object_unref(obj);
		}
	} else {
		handle_for_each(HANDLE_FLAG_INHERIT, collect_local_sync, &l);
	}
	for (size_t i = 0; i < l.n; i++) {
		struct object *twin = sync_share(l.v[i]);

		if (twin)
			object_unref(twin);
		else
			TRACE(process, "%s %p stays in this process: error %u\n", l.v[i]->ops->type_name,
			      (void *)l.v[i], GetLastError());
		object_unref(l.v[i]);
	}
	free(l.v);
}

#define SUPPORTED_FLAGS                                                                            \
	(CREATE_SUSPENDED | CREATE_NEW_CONSOLE | DETACHED_PROCESS | CREATE_NO_WINDOW |             \
	 CREATE_NEW_PROCESS_GROUP | CREATE_UNICODE_ENVIRONMENT | CREATE_DEFAULT_ERROR_MODE |       \
	 CREATE_BREAKAWAY_FROM_JOB | CREATE_PRESERVE_CODE_AUTHZ_LEVEL | NORMAL_PRIORITY_CLASS |    \
	 IDLE_PRIORITY_CLASS | HIGH_PRIORITY_CLASS | BELOW_NORMAL_PRIORITY_CLASS |                 \
	 ABOVE_NORMAL_PRIORITY_CLASS | CREATE_SEPARATE_WOW_VDM | CREATE_SHARED_WOW_VDM |              \
	 EXTENDED_STARTUPINFO_PRESENT)

BOOL WINAPI CreateProcessW(LPCWSTR app, LPWSTR cmdline, LPSECURITY_ATTRIBUTES psa,
			   LPSECURITY_ATTRIBUTES tsa, BOOL inherit, DWORD flags, LPVOID env,
			   LPCWSTR cwd, LPSTARTUPINFOW si, LPPROCESS_INFORMATION pi)
{
	struct spawn_params sp = { 0 };
	struct inherit_list inh = { 0 };
	struct object *std_refs[3] = { 0 }, *thread = NULL;
	int relay_fds[3] = { -1, -1, -1 };
	const HANDLE *only = NULL, *jobs = NULL; /* PROC_THREAD_ATTRIBUTE_HANDLE_LIST, _JOB_LIST */
	size_t n_only = 0, n_jobs = 0;
	const WCHAR *line = cmdline ? cmdline : app;
	char *exe = NULL, *ucwd = NULL, **argv = NULL, **envp = NULL;
	struct process *p = NULL;
	HANDLE hp = NULL, ht = NULL;
	enum exe_kind kind;
	DWORD err = 0;
	BOOL ok = FALSE;
	struct stat st;

	TRACE(process, "app %s, cmdline %s, inherit %d, flags %#x, cwd %s\n", debugstr_w(app),
	      debugstr_w(cmdline), inherit, flags, debugstr_w(cwd));
	if (!si || !pi || (!app && !cmdline)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if ((flags & CREATE_NEW_CONSOLE) && (flags & DETACHED_PROCESS)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (flags & ~SUPPORTED_FLAGS) {
		/* Debugging a child, protected processes: not here. */
		TRACE(process, "unsupported creation flags %#x\n", flags & ~SUPPORTED_FLAGS);
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}

	if (flags & EXTENDED_STARTUPINFO_PRESENT) {
		if (si->cb < sizeof(STARTUPINFOEXW)) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return FALSE;
		}
		if (!proc_attr_list_get(((STARTUPINFOEXW *)si)->lpAttributeList, &only, &n_only, &jobs,
					&n_jobs))
			return FALSE;
	}

	exe = app ? progfile_try(NULL, app, wstr_len(app), NULL) : find_in_command_line(cmdline);
	if (!exe) {
		SetLastError(ERROR_FILE_NOT_FOUND);
		return FALSE;
	}
	kind = exe_kind(exe, &err);
	if (kind == EXE_NONE)
		goto fail;
	err = 0;
	if (cwd) {
		if (!(ucwd = path_to_unix(cwd, &err)))
			goto fail;
		if (stat(ucwd, &st) || !S_ISDIR(st.st_mode)) {
			err = ERROR_DIRECTORY;
			goto fail;
		}
	}
	if (!(envp = make_envp(env, flags & CREATE_UNICODE_ENVIRONMENT)) ||
	    (kind == EXE_LINUX && !(argv = split_args(line)))) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	if (kind == EXE_LINUX)
		winenv_for_linux(envp); /* PATH and the rest as Linux had them */

	sp.exe = exe;
	sp.pe = kind == EXE_PE;
	sp.argv = argv;
	sp.envp = envp;
	sp.cwd = ucwd;
	sp.cmdline = line;
	/* Held until its jobs have it, as Windows puts it in them first. */
	sp.suspended = (flags & CREATE_SUSPENDED) || n_jobs;
	sp.startf = si->cb >= sizeof(STARTUPINFOW) ? si->dwFlags : 0;
	sp.show_window = si->wShowWindow;
	for (int i = 0; i < 3; i++) {
		HANDLE h;

		if (sp.startf & STARTF_USESTDHANDLES)
			h = i == 0 ? si->hStdInput : i == 1 ? si->hStdOutput : si->hStdError;
		else
			h = GetStdHandle(STD_INPUT_HANDLE - (DWORD)i);
		sp.std_handles[i] = h;
		sp.std_fds[i] = handle_fd(h, &std_refs[i]);
		if (sp.std_fds[i] >= 0 || i == 0 || !h)
			continue;
		/* Output to a named pipe end (stdout and stderr often share
		 * one): a relay. */
		if (i == 2 && h == sp.std_handles[1] && relay_fds[1] >= 0)
			sp.std_fds[i] = relay_fds[1];
		else
			sp.std_fds[i] = relay_fds[i] = stdrelay_start(h);
	}
	if (inherit && sp.pe)
		share_inherited_sync(only, n_only);
	if (inherit && sp.pe && only) {
		/* Exactly these, each of which must be inheritable. */
		for (size_t i = 0; i < n_only && !err; i++) {
			struct object *obj = handle_get(only[i], NULL);
			DWORD access = 0, hflags = 0;

			if (!obj || !handle_get_info(only[i], &access, &hflags) || !(hflags & HANDLE_FLAG_INHERIT))
				err = ERROR_INVALID_PARAMETER;
			else
				collect_inherit(only[i], obj, access, &inh);
			if (obj)
				object_unref(obj);
		}
		if (inh.oom)
			err = ERROR_NOT_ENOUGH_MEMORY;
		if (err)
			goto fail;
		sp.inherit = inh.v;
		sp.n_inherit = inh.n;
	} else if (inherit && sp.pe) {
		handle_for_each(HANDLE_FLAG_INHERIT, collect_inherit, &inh);
		if (inh.oom) {
			err = ERROR_NOT_ENOUGH_MEMORY;
			goto fail;
		}
		sp.inherit = inh.v;
		sp.n_inherit = inh.n;
	}

	if (!(p = process_spawn(&sp)))
		goto fail_set;
	if (!(thread = process_thread_create(p, sp.suspended)))
		goto fail_kill;
	hp = handle_create(&p->obj, PROCESS_ALL_ACCESS, psa && psa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
	if (!hp)
		goto fail_kill;
	ht = handle_create(thread, THREAD_ALL_ACCESS, tsa && tsa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
	if (!ht) {
		CloseHandle(hp);
		goto fail_kill;
	}
	for (size_t i = 0; i < n_jobs; i++) {
		if (!AssignProcessToJobObject(jobs[i], hp)) {
			err = GetLastError();
			CloseHandle(ht);
			CloseHandle(hp);
			SetLastError(err);
			goto fail_kill;
		}
	}
	if (n_jobs && !(flags & CREATE_SUSPENDED))
		ResumeThread(ht);
	pi->hProcess = hp;
	pi->hThread = ht;
	pi->dwProcessId = (DWORD)p->pid;
	/* Linux's main thread has the process's id. */
	pi->dwThreadId = (DWORD)p->pid;
	ok = TRUE;
	goto out;

fail_kill:
	err = GetLastError();
	process_terminate(p, 1);
	SetLastError(err);
	goto out;
fail:
	SetLastError(err ? err : ERROR_FILE_NOT_FOUND);
fail_set:
out:
	if (thread)
		object_unref(thread);
	if (p)
		object_unref(&p->obj);
	for (int i = 0; i < 3; i++) {
		if (std_refs[i])
			object_unref(std_refs[i]);
		/* The child has its copy; ours would keep the relay going. */
		if (relay_fds[i] >= 0)
			close(relay_fds[i]);
	}
	for (size_t i = 0; i < inh.n; i++) {
		/* The child has its own descriptor of a segment now. */
		if (inh.v[i].kind >= STARTUP_KIND_SYNC)
			close(inh.v[i].fd);
		object_unref(inh.refs[i]);
	}
	free(inh.v);
	free(inh.refs);
	free_strv(argv);
	free_strv(envp);
	free(ucwd);
	free(exe);
	TRACE(process, "-> %d (pid %d)\n", ok, ok ? (int)pi->dwProcessId : 0);
	return ok;
}

/* ---- ANSI ------------------------------------------------------------------- */

BOOL WINAPI CreateProcessA(LPCSTR app, LPSTR cmdline, LPSECURITY_ATTRIBUTES psa,
			   LPSECURITY_ATTRIBUTES tsa, BOOL inherit, DWORD flags, LPVOID env,
			   LPCSTR cwd, LPSTARTUPINFOA si, LPPROCESS_INFORMATION pi)
{
	WCHAR *wapp = NULL, *wcmd = NULL, *wcwd = NULL;
	STARTUPINFOEXW six;
	STARTUPINFOW siw;
	BOOL ret = FALSE;

	if (!si) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if ((app && !(wapp = cp_to_utf16_dup(CP_ACP, app))) ||
	    (cmdline && !(wcmd = cp_to_utf16_dup(CP_ACP, cmdline))) ||
	    (cwd && !(wcwd = cp_to_utf16_dup(CP_ACP, cwd)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		goto out;
	}
	/* Desktop and title do not travel (see GetStartupInfo): only the
	 * fields that do are converted. */
	memset(&siw, 0, sizeof(siw));
	siw.cb = si->cb >= sizeof(*si) ? sizeof(siw) : 0;
	siw.dwFlags = si->dwFlags;
	siw.wShowWindow = si->wShowWindow;
	siw.hStdInput = si->hStdInput;
	siw.hStdOutput = si->hStdOutput;
	siw.hStdError = si->hStdError;
	/* An ANSI environment block stays ANSI unless the caller said
	 * otherwise: CreateProcessW converts it with the ANSI code page. */
	if (flags & EXTENDED_STARTUPINFO_PRESENT) {
		six.StartupInfo = siw;
		six.StartupInfo.cb = si->cb >= sizeof(STARTUPINFOEXA) ? sizeof(six) : 0;
		six.lpAttributeList = si->cb >= sizeof(STARTUPINFOEXA) ? ((STARTUPINFOEXA *)si)->lpAttributeList : NULL;
		ret = CreateProcessW(wapp, wcmd, psa, tsa, inherit, flags, env, wcwd, &six.StartupInfo, pi);
		goto out;
	}
	ret = CreateProcessW(wapp, wcmd, psa, tsa, inherit, flags, env, wcwd, &siw, pi);
out:
	free(wapp);
	free(wcmd);
	free(wcwd);
	return ret;
}
