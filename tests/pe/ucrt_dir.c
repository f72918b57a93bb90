/* ucrtbase's filesystem set: _getcwd/_chdir, _getdrive, _mkdir/_rmdir,
 * _unlink, rename, _access, _fullpath and _get_pgmptr, with their errno
 * values.  _getdrive: the current directory's drive, 1 for A: to 26 for
 * Z:, as the Z: drive (when there is one) shows after moving there. */
#define __USE_MINGW_ANSI_STDIO 0

#include <direct.h>
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !_stricmp(s + a - b, tail);
}

int main(void)
{
	char tmp[MAX_PATH], start[MAX_PATH], cwd[MAX_PATH], full[MAX_PATH], *p, *pgm = NULL;
	FILE *f;

	ok(_getcwd(start, sizeof(start)) != NULL, "_getcwd errno %d\n", errno);
	ok(start[1] == ':' && start[2] == '\\', "not a drive path [%s]\n", start);
	p = _getcwd(NULL, 0);
	ok(p && !strcmp(p, start), "_getcwd(NULL) [%s]\n", p ? p : "(null)");
	free(p);
	errno = 0;
	ok(_getcwd(cwd, 2) == NULL && errno == ERANGE, "short buffer: errno %d\n", errno);
	ok(_getdrive() == (start[0] | 0x20) - 'a' + 1, "_getdrive %d in [%s]\n", _getdrive(), start);
	if (GetLogicalDrives() & (1u << 25)) {
		ok(_chdir("Z:\\") == 0 && _getdrive() == 26, "_getdrive on Z: %d\n", _getdrive());
	} else {
		printf("ucrt_dir: no Z: drive here: _getdrive's second check not made\n");
	}

	GetTempPathA(sizeof(tmp), tmp);
	ok(_chdir(tmp) == 0, "_chdir(%s) errno %d\n", tmp, errno);
	_rmdir("ndshim_ucrt_dir");
	ok(_mkdir("ndshim_ucrt_dir") == 0, "_mkdir errno %d\n", errno);
	errno = 0;
	ok(_mkdir("ndshim_ucrt_dir") == -1 && errno == EEXIST, "second _mkdir errno %d\n", errno);
	ok(_chdir("ndshim_ucrt_dir") == 0, "_chdir into it\n");
	ok(_getcwd(cwd, sizeof(cwd)) && ends_with(cwd, "\\ndshim_ucrt_dir"), "cwd [%s]\n", cwd);
	ok(_fullpath(full, "file.txt", sizeof(full)) && !strncmp(full, cwd, strlen(cwd)) &&
		   !strcmp(full + strlen(cwd), "\\file.txt"),
	   "_fullpath [%s]\n", full);

	f = fopen("file.txt", "w");
	ok(f != NULL, "fopen\n");
	if (f)
		fclose(f);
	ok(_access("file.txt", 0) == 0 && _access("file.txt", 6) == 0, "_access\n");
	errno = 0;
	ok(_access("missing.txt", 0) == -1 && errno == ENOENT, "_access missing: errno %d\n", errno);
	ok(rename("file.txt", "moved.txt") == 0 && _access("moved.txt", 0) == 0, "rename errno %d\n", errno);
	ok(_wrename(L"moved.txt", L"renamed.txt") == 0 && _access("renamed.txt", 0) == 0, "_wrename errno %d\n", errno);
	f = fopen("other.txt", "w");
	if (f)
		fclose(f);
	/* Rule: rename does not replace an existing file */
	errno = 0;
	ok(rename("other.txt", "renamed.txt") == -1 && errno == EEXIST, "rename onto a file: errno %d\n", errno);
	ok(_unlink("renamed.txt") == 0 && _unlink("other.txt") == 0, "_unlink errno %d\n", errno);
	errno = 0;
	ok(_unlink("renamed.txt") == -1 && errno == ENOENT, "_unlink missing: errno %d\n", errno);

	ok(_chdir("..") == 0, "_chdir ..\n");
	ok(_rmdir("ndshim_ucrt_dir") == 0, "_rmdir errno %d\n", errno);
	errno = 0;
	ok(_rmdir("ndshim_ucrt_dir") == -1 && errno == ENOENT, "_rmdir missing: errno %d\n", errno);
	ok(_chdir(start) == 0, "back to the start folder\n");

	ok(_get_pgmptr(&pgm) == 0 && pgm && ends_with(pgm, "\\ucrt_dir.exe"), "_get_pgmptr [%s]\n",
	   pgm ? pgm : "(null)");
	return test_summary();
}
