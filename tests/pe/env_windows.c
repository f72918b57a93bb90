/* The environment a Windows program starts with: the variables every
 * Windows installation sets, the folders they name existing, PATH in
 * Windows form, names case-insensitive, the C runtime's getenv/_environ/
 * _wenviron agreeing with GetEnvironmentVariable, and a child process
 * seeing the same values (plus what the parent set).  Under ndrun, the
 * Linux values the Windows ones replaced stay reachable
 * (docs/environment.md). */
#define __USE_MINGW_ANSI_STDIO 0

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"
#include "self_child.h"

/* Variables that name folders which exist. */
static const char *const folders[] = {
	"SystemRoot", "windir", "TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
	"ProgramData", "ProgramFiles", "ALLUSERSPROFILE", "PUBLIC", "CommonProgramFiles",
};
/* Variables that are just set. */
static const char *const values[] = {
	"SystemDrive", "COMPUTERNAME", "USERNAME", "USERDOMAIN", "ComSpec", "PATHEXT", "OS",
	"NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", "PROCESSOR_IDENTIFIER", "PROCESSOR_LEVEL",
	"PROCESSOR_REVISION", "PATH",
};
/* What the child prints, for the parent to compare. */
static const char *const shared[] = { "SystemRoot", "TEMP", "USERPROFILE", "PATH", "PE_ENV_FROM_PARENT" };

static const char *get(const char *name)
{
	static char buf[8][4096];
	static int i;
	char *b = buf[i++ & 7];
	DWORD n = GetEnvironmentVariableA(name, b, 4096);

	return n && n < 4096 ? b : NULL;
}

static void test_variables(void)
{
	char win[MAX_PATH], sys[MAX_PATH];
	const char *v;
	SYSTEM_INFO si;

	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++) {
		DWORD a;

		v = get(folders[i]);
		ok(v != NULL, "%s is not set\n", folders[i]);
		if (!v)
			continue;
		ok(v[1] == ':' && v[2] == '\\', "%s=%s is not a drive path\n", folders[i], v);
		a = GetFileAttributesA(v);
		ok(a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY), "%s=%s: no folder (%lu)\n",
		   folders[i], v, GetLastError());
	}
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		ok(get(values[i]) != NULL, "%s is not set\n", values[i]);
	/* HOMEDRIVE + HOMEPATH: the profile (Windows sets them at logon;
	 * Wine does not) */
	v = get("HOMEDRIVE");
	ok_todo_wine(v && !strcmp(v, get("SystemDrive")), "HOMEDRIVE %s\n", v ? v : "(not set)");
	if (v && get("HOMEPATH")) {
		char home[MAX_PATH];

		snprintf(home, sizeof(home), "%s%s", v, get("HOMEPATH"));
		ok(!_stricmp(home, get("USERPROFILE")), "HOMEDRIVE+HOMEPATH %s\n", home);
	}

	GetWindowsDirectoryA(win, sizeof(win));
	GetSystemDirectoryA(sys, sizeof(sys));
	ok(get("SystemRoot") && !_stricmp(get("SystemRoot"), win), "SystemRoot %s, Windows folder %s\n",
	   get("SystemRoot"), win);
	ok(get("windir") && !_stricmp(get("windir"), win), "windir %s\n", get("windir"));
	ok(get("SystemDrive") && !_strnicmp(get("SystemDrive"), win, 2) && strlen(get("SystemDrive")) == 2,
	   "SystemDrive %s\n", get("SystemDrive"));
	ok(get("OS") && !strcmp(get("OS"), "Windows_NT"), "OS %s\n", get("OS"));
	ok(get("PROCESSOR_ARCHITECTURE") && !strcmp(get("PROCESSOR_ARCHITECTURE"), "AMD64"),
	   "PROCESSOR_ARCHITECTURE %s\n", get("PROCESSOR_ARCHITECTURE"));
	GetSystemInfo(&si);
	ok(get("NUMBER_OF_PROCESSORS") && strtoul(get("NUMBER_OF_PROCESSORS"), NULL, 10) == si.dwNumberOfProcessors,
	   "NUMBER_OF_PROCESSORS %s, GetSystemInfo %lu\n", get("NUMBER_OF_PROCESSORS"), si.dwNumberOfProcessors);
	{
		char name[MAX_COMPUTERNAME_LENGTH + 1];
		DWORD n = sizeof(name);

		GetComputerNameA(name, &n);
		ok(get("COMPUTERNAME") && !strcmp(get("COMPUTERNAME"), name), "COMPUTERNAME %s, GetComputerName %s\n",
		   get("COMPUTERNAME"), name);
	}
	{
		char ext[512];

		snprintf(ext, sizeof(ext), "%s", get("PATHEXT") ? get("PATHEXT") : "");
		ok(strstr(_strupr(ext), ".EXE") != NULL, "PATHEXT %s\n", ext);
	}

	/* PATH: ';'-separated Windows folders, the system folder among them */
	v = get("PATH");
	if (v) {
		char copy[4096], *save = NULL;
		int has_system = 0;

		strcpy(copy, v);
		for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
			ok(!strchr(e + 2, ':') && !strchr(e, '/'), "PATH entry %s is not a Windows folder\n", e);
			has_system |= !_stricmp(e, sys);
		}
		ok(has_system, "PATH lacks %s: %s\n", sys, v);
	}

	/* names are case-insensitive */
	ok(get("systemroot") && get("WINDIR") && get("Path"), "lower/upper-case names not found\n");
}

static void test_crt_agrees(void)
{
	int n = 0, bad = 0;

	for (char **e = _environ; *e; e++, n++) {
		const char *eq = strchr(**e == '=' ? *e + 1 : *e, '=');
		char name[256];
		const char *v;

		if (!eq || eq - *e >= (int)sizeof(name))
			continue;
		memcpy(name, *e, eq - *e);
		name[eq - *e] = 0;
		v = get(name);
		if (!v && !eq[1] && GetEnvironmentVariableA(name, NULL, 0) == 1)
			v = ""; /* set, and empty: the size of its terminator */
		if (!v || strcmp(v, eq + 1)) {
			if (bad++ < 5)
				ok(0, "_environ %s, GetEnvironmentVariableA %s\n", *e, v ? v : "(not set)");
		}
	}
	ok(n > 10 && !bad, "%d of %d _environ entries differ\n", bad, n);
	n = bad = 0;
	if (!_wenviron) {
		/* msvcrt makes it for wide programs (or on _wputenv) */
		printf("_wenviron not made by this C runtime: not compared\n");
		return;
	}
	for (wchar_t **e = _wenviron; *e; e++, n++) {
		const wchar_t *eq = wcschr(**e == '=' ? *e + 1 : *e, '=');
		wchar_t name[256], v[4096];
		DWORD got;

		if (!eq || eq - *e >= 256)
			continue;
		wmemcpy(name, *e, eq - *e);
		name[eq - *e] = 0;
		got = GetEnvironmentVariableW(name, v, 4096);
		if (!got && !eq[1] && GetEnvironmentVariableW(name, NULL, 0) == 1)
			continue; /* set, and empty */
		bad += !got || wcscmp(v, eq + 1);
	}
	ok(n > 10 && !bad, "%d of %d _wenviron entries differ\n", bad, n);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		const char *crt = getenv(values[i]), *k32 = get(values[i]);

		ok(crt && k32 && !strcmp(crt, k32), "getenv(%s) %s, kernel32 %s\n", values[i], crt ? crt : "(null)",
		   k32 ? k32 : "(null)");
	}
	ok(getenv("systemroot") && getenv("TeMp"), "getenv is case-sensitive\n");
}

static void test_child(void)
{
	struct self_child c;
	char out[16384] = { 0 };
	DWORD n, total = 0;

	SetEnvironmentVariableA("PE_ENV_FROM_PARENT", "inherited");
	if (!self_child_start(&c, "child"))
		return;
	CloseHandle(c.in_w);
	c.in_w = NULL;
	while (total < sizeof(out) - 1 && ReadFile(c.out_r, out + total, sizeof(out) - 1 - total, &n, NULL) && n)
		total += n;
	c.in_w = CreateEventA(NULL, FALSE, FALSE, NULL); /* self_child_finish closes it */
	ok(self_child_finish(&c) == 0, "child failed\n");
	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
		char line[4200];
		const char *v = get(shared[i]);

		snprintf(line, sizeof(line), "%s=%s\n", shared[i], v ? v : "");
		ok(strstr(out, line) != NULL, "the child has not %s", line);
	}
}

/* Under ndrun: the Linux values behind the Windows ones. */
static void test_linux_values(void)
{
	char unix_buf[4096];
	const char *unix_path = NULL;

	if (test_on_wine())
		return;
	if (get("NDSHIM_UNIX_PATH"))
		unix_path = strcpy(unix_buf, get("NDSHIM_UNIX_PATH")); /* get()'s buffers rotate */
	ok(get("NDSHIM_WINENV") != NULL, "NDSHIM_WINENV is not set\n");
	ok(unix_path && unix_path[0] == '/', "NDSHIM_UNIX_PATH %s\n", unix_path ? unix_path : "(not set)");
	if (unix_path) {
		/* each absolute Linux entry is in PATH as a drive path */
		char copy[4096], *save = NULL, want[MAX_PATH];

		strcpy(copy, unix_path);
		for (char *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
			if (e[0] != '/' || GetFileAttributesA(e) == INVALID_FILE_ATTRIBUTES)
				continue;
			GetFullPathNameA(e, sizeof(want), want, NULL); /* Z:\usr\bin */
			ok(strstr(get("PATH"), want) != NULL, "PATH lacks %s\n", want);
		}
	}
	/* a Linux program started from here gets the Linux values back */
	{
		SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
		STARTUPINFOA si = { .cb = sizeof(si) };
		PROCESS_INFORMATION pi;
		char line[] = "sh -c \"printf %s \\\"$PATH|${NDSHIM_WINENV:-none}\\\"\"", out[8192] = { 0 }, want[4200];
		HANDLE r, w;
		DWORD n, total = 0;

		CreatePipe(&r, &w, &sa, 0);
		SetHandleInformation(r, HANDLE_FLAG_INHERIT, 0);
		si.dwFlags = STARTF_USESTDHANDLES;
		si.hStdOutput = w;
		si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
		if (!ok(CreateProcessA("Z:\\bin\\sh", line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi),
			"starting /bin/sh: %lu\n", GetLastError())) {
			CloseHandle(r);
			CloseHandle(w);
			return;
		}
		CloseHandle(w);
		while (total < sizeof(out) - 1 && ReadFile(r, out + total, sizeof(out) - 1 - total, &n, NULL) && n)
			total += n;
		CloseHandle(r);
		ok(process_finish(&pi) == 0, "sh failed\n");
		snprintf(want, sizeof(want), "%s|none", unix_path ? unix_path : "");
		ok(!strcmp(out, want), "the Linux child has [%s], want [%s]\n", out, want);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child")) {
		/* WriteFile: no text-mode translation */
		for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
			char line[4200];
			const char *v = get(shared[i]);
			DWORD n;

			snprintf(line, sizeof(line), "%s=%s\n", shared[i], v ? v : "");
			WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), line, (DWORD)strlen(line), &n, NULL);
		}
		return 0;
	}
	test_variables();
	test_crt_agrees();
	test_child();
	test_linux_values();
	return test_summary();
}
