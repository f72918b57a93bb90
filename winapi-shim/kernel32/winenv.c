/* The Windows environment a program starts with (docs/environment.md):
 * made once per process tree from the Linux one.
 *
 * The Windows variables (SystemRoot, TEMP, USERPROFILE, APPDATA, PATH, ...)
 * name folders on the system drive C:, made when missing; PATH is the
 * Windows folders followed by the Linux PATH's entries as drive paths.  A
 * Linux variable they replace keeps its value as NDSHIM_UNIX_<name> (so
 * does a TZ naming a zone file, which Windows programs do not see), and
 * NDSHIM_WINENV=1 marks the block as built: a child ndrun inherits it as
 * it is (the parent's block is the child's, as on Windows), and a Linux
 * program started by CreateProcess gets the Linux values back
 * (winenv_for_linux). */
#include <cpuid.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/datadir.h"
#include "core/drives.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

#define MARKER u"NDSHIM_WINENV"
#define UNIX_PREFIX "NDSHIM_UNIX_"

/* The Linux user's name, as advapi32's GetUserName gives it (getpwuid,
 * else $USER). */
static void user_name(char *out, size_t size)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	const char *name = NULL;

	if (!getpwuid_r(getuid(), &pw, buf, sizeof(buf), &res) && res)
		name = res->pw_name;
	if (!name)
		name = getenv("USER");
	snprintf(out, size, "%s", name && *name ? name : "user");
}

/* PROCESSOR_IDENTIFIER, PROCESSOR_LEVEL, PROCESSOR_REVISION as Windows
 * writes them from cpuid: "Intel64 Family 6 Model 85 Stepping 7,
 * GenuineIntel", the family, and model << 8 | stepping in hex. */
static void processor(char *ident, size_t isize, char *level, size_t lsize, char *rev, size_t rsize)
{
	unsigned int a = 0, b = 0, c = 0, d = 0, family, model, stepping;
	char vendor[13] = "Unknown";

	if (__get_cpuid(0, &a, &b, &c, &d)) {
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &d, 4);
		memcpy(vendor + 8, &c, 4);
		vendor[12] = 0;
	}
	__get_cpuid(1, &a, &b, &c, &d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	stepping = a & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family == 6 || family >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	snprintf(ident, isize, "%s Family %u Model %u Stepping %u, %s",
		 strcmp(vendor, "AuthenticAMD") ? "Intel64" : "AMD64", family, model, stepping, vendor);
	snprintf(level, lsize, "%u", family);
	snprintf(rev, rsize, "%04x", (model << 8 | stepping) & 0xffff);
}

/* Sets name (UTF-8) to value (UTF-8), keeping a different Linux value
 * of the same name as NDSHIM_UNIX_<name>. */
static void put(const struct winenv_ops *ops, const char *name, const char *value)
{
	WCHAR *wn = utf8_to_utf16_dup(name), *wv = utf8_to_utf16_dup(value), *old;

	if (!wn || !wv)
		goto out;
	if ((old = ops->get(wn)) && wstr_cmp(old, wv)) {
		char *keep = NULL;
		WCHAR *wkeep;

		if (asprintf(&keep, UNIX_PREFIX "%s", name) >= 0 && (wkeep = utf8_to_utf16_dup(keep))) {
			ops->put(wkeep, old);
			free(wkeep);
		}
		free(keep);
	}
	free(old);
	ops->put(wn, wv);
out:
	free(wn);
	free(wv);
}

/* The Windows form of a Linux PATH: each absolute entry as a drive path
 * (Z:\usr\bin), after the Windows folders. */
static char *windows_path(const char *linux_path, const char *sysroot)
{
	size_t cap = strlen(sysroot) * 3 + 64 + (linux_path ? strlen(linux_path) * 2 : 0), len;
	char *out = malloc(cap), *copy, *save = NULL;

	if (!out)
		return NULL;
	len = (size_t)snprintf(out, cap, "%s\\system32;%s;%s\\system32\\wbem", sysroot, sysroot, sysroot);
	if (!linux_path || !(copy = strdup(linux_path)))
		return out;
	for (char *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		WCHAR *w = e[0] == '/' ? path_from_unix(e) : NULL;
		char *a = w ? utf16_to_utf8_dup(w) : NULL;
		size_t n;

		free(w);
		if (!a)
			continue; /* a relative entry means nothing to Windows */
		n = strlen(a);
		if (len + n + 2 > cap) {
			char *bigger = realloc(out, (cap = (len + n + 2) * 2));

			if (!bigger) {
				free(a);
				break;
			}
			out = bigger;
		}
		out[len++] = ';';
		memcpy(out + len, a, n + 1);
		len += n;
		free(a);
	}
	free(copy);
	return out;
}

/* Makes the folder a Windows path names, unless the system drive is the
 * Linux root (the fallback mapping: nothing is created there). */
static void make_folder(const char *win)
{
	const char *root = drive_root('C');
	WCHAR *w;
	char *u;
	DWORD err;

	if (!root || !strcmp(root, "/") || !(w = utf8_to_utf16_dup(win)))
		return;
	if ((u = path_to_unix(w, &err))) {
		datadir_mkdirs(u);
		free(u);
	}
	free(w);
}

void winenv_build(const struct winenv_ops *ops)
{
	char user[256], profile[300], buf[600], ident[128], level[16], rev[16], *path;
	const char *sysroot = "C:\\windows";
	WCHAR *old_path, computer[MAX_COMPUTERNAME_LENGTH + 1], *marker;
	DWORD n = MAX_COMPUTERNAME_LENGTH + 1;
	SYSTEM_INFO si;
	char *linux_path = NULL;

	if ((marker = ops->get(MARKER))) {
		free(marker); /* inherited from an ndrun parent: already Windows */
		return;
	}
	user_name(user, sizeof(user));
	snprintf(profile, sizeof(profile), "C:\\users\\%s", user);

	put(ops, "SystemDrive", "C:");
	put(ops, "SystemRoot", sysroot);
	put(ops, "windir", sysroot);
	put(ops, "ComSpec", "C:\\windows\\system32\\cmd.exe");
	put(ops, "PATHEXT", ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC");
	put(ops, "OS", "Windows_NT");
	put(ops, "ProgramData", "C:\\ProgramData");
	put(ops, "ALLUSERSPROFILE", "C:\\ProgramData");
	put(ops, "PUBLIC", "C:\\users\\Public");
	put(ops, "ProgramFiles", "C:\\Program Files");
	put(ops, "ProgramW6432", "C:\\Program Files");
	put(ops, "ProgramFiles(x86)", "C:\\Program Files (x86)");
	put(ops, "CommonProgramFiles", "C:\\Program Files\\Common Files");
	put(ops, "CommonProgramW6432", "C:\\Program Files\\Common Files");
	put(ops, "CommonProgramFiles(x86)", "C:\\Program Files (x86)\\Common Files");
	put(ops, "USERNAME", user);
	put(ops, "USERPROFILE", profile);
	put(ops, "HOMEDRIVE", "C:");
	put(ops, "HOMEPATH", profile + 2);
	snprintf(buf, sizeof(buf), "%s\\AppData\\Roaming", profile);
	put(ops, "APPDATA", buf);
	snprintf(buf, sizeof(buf), "%s\\AppData\\Local", profile);
	put(ops, "LOCALAPPDATA", buf);
	snprintf(buf, sizeof(buf), "%s\\AppData\\Local\\Temp", profile);
	put(ops, "TEMP", buf);
	put(ops, "TMP", buf);
	if (GetComputerNameW(computer, &n)) {
		char *c = utf16_to_utf8_dup(computer);

		if (c) {
			put(ops, "COMPUTERNAME", c);
			put(ops, "USERDOMAIN", c); /* a local account's domain */
			free(c);
		}
	}
	GetSystemInfo(&si);
	snprintf(buf, sizeof(buf), "%lu", (unsigned long)si.dwNumberOfProcessors);
	put(ops, "NUMBER_OF_PROCESSORS", buf);
	put(ops, "PROCESSOR_ARCHITECTURE", "AMD64");
	processor(ident, sizeof(ident), level, sizeof(level), rev, sizeof(rev));
	put(ops, "PROCESSOR_IDENTIFIER", ident);
	put(ops, "PROCESSOR_LEVEL", level);
	put(ops, "PROCESSOR_REVISION", rev);

	if ((old_path = ops->get(u"PATH")))
		linux_path = utf16_to_utf8_dup(old_path);
	free(old_path);
	if ((path = windows_path(linux_path, sysroot))) {
		put(ops, "PATH", path);
		free(path);
	}
	free(linux_path);
	/* A Linux TZ naming a zone file means nothing to Windows programs,
	 * whose C runtime would read it as its own "PST8PDT" syntax: the zone
	 * reaches them through GetTimeZoneInformation */
	{
		WCHAR *tz = ops->get(u"TZ");
		bool zone_file = tz && tz[0] == ':';

		for (WCHAR *c = tz; c && *c; c++)
			zone_file |= *c == '/';
		if (zone_file) {
			ops->put(u"NDSHIM_UNIX_TZ", tz);
			ops->put(u"TZ", NULL);
		}
		free(tz);
	}
	ops->put(MARKER, u"1");

	/* the folders those name, on the system drive (cheap when the
	 * deepest already exists) */
	snprintf(buf, sizeof(buf), "%s\\AppData\\Local\\Temp", profile);
	{
		WCHAR *w = utf8_to_utf16_dup(buf);
		DWORD err;
		char *u = w ? path_to_unix(w, &err) : NULL;

		free(w);
		if (u && !access(u, F_OK)) {
			free(u);
			return;
		}
		free(u);
	}
	static const char *const folders[] = {
		"C:\\windows\\system32", "C:\\windows\\temp", "C:\\ProgramData", "C:\\users\\Public",
		"C:\\Program Files\\Common Files", "C:\\Program Files (x86)\\Common Files",
	};
	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++)
		make_folder(folders[i]);
	snprintf(buf, sizeof(buf), "%s\\AppData\\Roaming", profile);
	make_folder(buf);
	snprintf(buf, sizeof(buf), "%s\\Desktop", profile);
	make_folder(buf);
	snprintf(buf, sizeof(buf), "%s\\Documents", profile);
	make_folder(buf);
	snprintf(buf, sizeof(buf), "%s\\AppData\\Local\\Temp", profile);
	make_folder(buf);
}

/* envp: "NAME=value" strings (malloc'd, NULL-terminated, from the
 * Windows block).  NDSHIM_UNIX_<name>=v becomes <name>=v again, and the
 * marker and the kept copies go: a Linux program sees Linux values, and
 * an ndrun it starts builds the Windows ones afresh. */
void winenv_for_linux(char **envp)
{
	size_t plen = strlen(UNIX_PREFIX), out = 0;

	for (size_t i = 0; envp[i]; i++) {
		const char *e = envp[i], *name = e + plen, *eq;
		bool replaced = false;

		if (strncmp(e, UNIX_PREFIX, plen) || !(eq = strchr(name, '=')))
			continue;
		for (size_t j = 0; envp[j]; j++) {
			size_t nlen = (size_t)(eq - name);
			char *fresh;

			if (j == i || strncasecmp(envp[j], name, nlen) || envp[j][nlen] != '=' || !(fresh = strdup(name)))
				continue;
			free(envp[j]);
			envp[j] = fresh;
			replaced = true;
		}
		/* a variable the Windows block lacks (TZ): this entry becomes it */
		if (!replaced)
			memmove(envp[i], name, strlen(name) + 1);
	}
	for (size_t i = 0; envp[i]; i++) {
		if (!strncmp(envp[i], UNIX_PREFIX, plen) || !strncmp(envp[i], "NDSHIM_WINENV=", 14)) {
			free(envp[i]);
			continue;
		}
		envp[out++] = envp[i];
	}
	envp[out] = NULL;
}
