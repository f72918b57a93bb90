/* ucrtbase's file-system calls follow the same path rules as kernel32
 * (tests/pe/path_policy.c): case-insensitive names (_mkdir, _access,
 * fopen, rename, _unlink, _rmdir), devices (_fullpath of "nul", _open
 * and fopen of NUL), drives (_chdir to Z:, _getcwd, a missing drive). */
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "test.h"

int main(void)
{
	char start[MAX_PATH], buf[MAX_PATH], name[32];
	DWORD mask = GetLogicalDrives();
	char d = 0;
	FILE *f;
	int fd;

	_getcwd(start, sizeof(start));
	/* case-insensitive */
	_rmdir("UcrtPaths.dir");
	ok(_mkdir("UcrtPaths.dir") == 0, "_mkdir errno %d\n", errno);
	ok(_access("ucrtpaths.DIR", 0) == 0, "_access in another case: errno %d\n", errno);
	errno = 0;
	ok(_mkdir("UCRTPATHS.DIR") == -1 && errno == EEXIST, "_mkdir of the same folder: errno %d\n", errno);
	f = fopen("UCRTPATHS.DIR\\File.Txt", "w");
	ok(f != NULL, "fopen in the folder: errno %d\n", errno);
	if (f)
		fclose(f);
	ok(_access("ucrtpaths.dir\\FILE.TXT", 0) == 0, "_access: errno %d\n", errno);
	ok(rename("ucrtpaths.dir\\file.txt", "UcrtPaths.dir\\moved.txt") == 0, "rename: errno %d\n", errno);
	ok(_unlink("UCRTPATHS.DIR\\MOVED.TXT") == 0, "_unlink: errno %d\n", errno);
	ok(_rmdir("ucrtpaths.dir") == 0, "_rmdir: errno %d\n", errno);
	ok(_access("UcrtPaths.dir", 0) == -1, "the folder is still there\n");

	/* devices */
	ok(_fullpath(buf, "nul", sizeof(buf)) && !strcmp(buf, "\\\\.\\nul"), "_fullpath(nul) [%s]\n", buf);
	ok(_fullpath(buf, "C:\\x\\com1.txt", sizeof(buf)) && !strcmp(buf, "\\\\.\\com1"), "_fullpath(com1.txt) [%s]\n",
	   buf);
	fd = _open("NUL", _O_WRONLY | _O_CREAT | _O_TRUNC, 0666);
	ok(fd >= 0 && _write(fd, "x", 1) == 1, "_open(NUL): errno %d\n", errno);
	if (fd >= 0)
		_close(fd);
	/* a device name in any folder, existing or not, is the device (its
	 * full path is \\.\nul, under Wine too); Wine's open still looks
	 * for the folders */
	f = fopen("sub\\dir\\nul.txt", "w");
	ok_todo_wine(f != NULL, "fopen(sub\\dir\\nul.txt): errno %d\n", errno);
	if (f)
		fclose(f);
	ok(_access("sub", 0) == -1, "a folder was made\n");

	/* drives */
	ok(_chdir("Z:\\tmp") == 0, "_chdir(Z:\\tmp): errno %d\n", errno);
	ok(_getcwd(buf, sizeof(buf)) && !_stricmp(buf, "Z:\\tmp"), "_getcwd [%s]\n", buf);
	ok(_chdir(start) == 0, "back: errno %d\n", errno);
	for (char c = 'Y'; c > 'C' && !d; c--)
		if (!(mask & (1u << (c - 'A'))))
			d = c;
	snprintf(name, sizeof(name), "%c:\\ucrt_paths.txt", d);
	errno = 0;
	f = fopen(name, "w");
	ok(!f && errno == ENOENT, "fopen(%s): errno %d\n", name, errno);
	if (f)
		fclose(f);
	snprintf(name, sizeof(name), "%c:\\ucrt_paths", d);
	errno = 0;
	ok(_mkdir(name) == -1 && errno == ENOENT, "_mkdir(%s): errno %d\n", name, errno);
	return test_summary();
}
