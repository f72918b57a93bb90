/* CreateFile dispositions and errors, ReadFile/WriteFile, sizes and file
 * pointers, attributes, directories, file types, console refusals. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "k32_test.h"
#include "core/file.h"
#include "core/handle.h"

static char dir[64];
static WCHAR wdir[64];

static void wpath(WCHAR *out, const char *name)
{
	char tmp[128];

	snprintf(tmp, sizeof(tmp), "%s/%s", dir, name);
	for (size_t i = 0;; i++) {
		out[i] = (unsigned char)tmp[i];
		if (!tmp[i])
			break;
	}
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/k32test.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	for (size_t i = 0; i <= strlen(dir); i++)
		wdir[i] = (unsigned char)dir[i];
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_dispositions(void **state)
{
	WCHAR name[128];
	HANDLE h;

	wpath(name, "disp.txt");
	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(name, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	assert_ptr_equal(h, INVALID_HANDLE_VALUE);
	assert_last_error(ERROR_FILE_NOT_FOUND);

	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	assert_ptr_not_equal(h, INVALID_HANDLE_VALUE);
	assert_true(handle_close(h));
	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	assert_ptr_equal(h, INVALID_HANDLE_VALUE);
	assert_last_error(ERROR_FILE_EXISTS);

	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, OPEN_ALWAYS, 0, NULL);
	assert_last_error(ERROR_ALREADY_EXISTS);
	handle_close(h);
	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	assert_last_error(ERROR_ALREADY_EXISTS);
	handle_close(h);
	wpath(name, "disp2.txt");
	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	assert_ptr_not_equal(h, INVALID_HANDLE_VALUE);
	assert_last_error(ERROR_SUCCESS);
	handle_close(h);

	wpath(name, "no/such/dir/file");
	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(name, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	assert_ptr_equal(h, INVALID_HANDLE_VALUE);
	assert_last_error(ERROR_PATH_NOT_FOUND);
	SetLastError(SENTINEL_ERROR);
	h = CreateFileW(wdir, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	assert_ptr_equal(h, INVALID_HANDLE_VALUE);
	assert_last_error(ERROR_ACCESS_DENIED);
	h = CreateFileW(wdir, GENERIC_READ, 0, NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
	assert_ptr_not_equal(h, INVALID_HANDLE_VALUE);
	handle_close(h);
}

static void test_read_write_seek(void **state)
{
	WCHAR name[128];
	char buf[32];
	DWORD n = 99, high = 7;
	LARGE_INTEGER li, pos;
	HANDLE h;

	wpath(name, "rw.bin");
	h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	assert_true(WriteFile(h, "hello world", 11, &n, NULL));
	assert_int_equal(n, 11);
	assert_int_equal(GetFileSize(h, &high), 11);
	assert_int_equal(high, 0);
	assert_true(GetFileSizeEx(h, &li));
	assert_int_equal(li.QuadPart, 11);
	assert_int_equal(SetFilePointer(h, 6, NULL, FILE_BEGIN), 6);
	assert_true(ReadFile(h, buf, sizeof(buf), &n, NULL));
	assert_int_equal(n, 5);
	assert_memory_equal(buf, "world", 5);
	assert_true(ReadFile(h, buf, sizeof(buf), &n, NULL)); /* end of file: TRUE, 0 bytes */
	assert_int_equal(n, 0);
	assert_int_equal(SetFilePointer(h, -5, NULL, FILE_END), 6);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(SetFilePointer(h, -100, NULL, FILE_CURRENT), INVALID_SET_FILE_POINTER);
	assert_last_error(ERROR_NEGATIVE_SEEK);
	li.QuadPart = 5;
	assert_true(SetFilePointerEx(h, li, &pos, FILE_BEGIN));
	assert_int_equal(pos.QuadPart, 5);
	assert_true(SetEndOfFile(h));
	assert_int_equal(GetFileSize(h, NULL), 5);
	assert_true(FlushFileBuffers(h));
	assert_int_equal(GetFileType(h), FILE_TYPE_DISK);

	/* a synchronous handle with an OVERLAPPED: I/O at its offset */
	OVERLAPPED ov = { 0 };
	ov.Offset = 1;
	assert_true(ReadFile(h, buf, 3, &n, &ov));
	assert_int_equal(n, 3);
	assert_memory_equal(buf, "ell", 3);
	assert_int_equal(ov.InternalHigh, 3);
	assert_true(handle_close(h));

	h = CreateFileW(name, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	SetLastError(SENTINEL_ERROR);
	assert_false(WriteFile(h, "x", 1, &n, NULL));
	assert_last_error(ERROR_ACCESS_DENIED);
	handle_close(h);
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, TRUNCATE_EXISTING, 0, NULL);
	assert_int_equal(GetFileSize(h, NULL), 0);
	handle_close(h);
}

static void test_append_only(void **state)
{
	WCHAR name[128];
	DWORD n;
	HANDLE h;

	wpath(name, "append.txt");
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	WriteFile(h, "abc", 3, &n, NULL);
	handle_close(h);
	h = CreateFileW(name, FILE_APPEND_DATA, 0, NULL, OPEN_EXISTING, 0, NULL);
	assert_true(WriteFile(h, "de", 2, &n, NULL));
	handle_close(h);
	h = CreateFileW(name, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	assert_int_equal(GetFileSize(h, NULL), 5);
	handle_close(h);
}

static void test_delete_on_close_and_attributes(void **state)
{
	WCHAR name[128];
	WIN32_FILE_ATTRIBUTE_DATA data;
	HANDLE h;

	wpath(name, "temp.txt");
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_FLAG_DELETE_ON_CLOSE, NULL);
	assert_ptr_not_equal(h, INVALID_HANDLE_VALUE);
	assert_int_equal(GetFileAttributesW(name), FILE_ATTRIBUTE_ARCHIVE);
	assert_true(GetFileAttributesExW(name, GetFileExInfoStandard, &data));
	assert_int_equal(data.nFileSizeLow, 0);
	handle_close(h);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetFileAttributesW(name), INVALID_FILE_ATTRIBUTES);
	assert_last_error(ERROR_FILE_NOT_FOUND);

	assert_int_equal(GetFileAttributesW(wdir), FILE_ATTRIBUTE_DIRECTORY);
	wpath(name, "ro.txt");
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_READONLY, NULL);
	handle_close(h);
	assert_int_equal(GetFileAttributesW(name), FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_READONLY);
	assert_true(SetFileAttributesW(name, FILE_ATTRIBUTE_NORMAL));
	assert_int_equal(GetFileAttributesW(name), FILE_ATTRIBUTE_ARCHIVE);
	assert_true(DeleteFileW(name));
	SetLastError(SENTINEL_ERROR);
	assert_false(DeleteFileW(name));
	assert_last_error(ERROR_FILE_NOT_FOUND);
}

static void test_directories(void **state)
{
	WCHAR name[128], file[128];
	HANDLE h;

	wpath(name, "sub");
	assert_true(CreateDirectoryW(name, NULL));
	SetLastError(SENTINEL_ERROR);
	assert_false(CreateDirectoryW(name, NULL));
	assert_last_error(ERROR_ALREADY_EXISTS);
	wpath(file, "sub/f");
	h = CreateFileW(file, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	handle_close(h);
	SetLastError(SENTINEL_ERROR);
	assert_false(RemoveDirectoryW(name));
	assert_last_error(ERROR_DIR_NOT_EMPTY);
	SetLastError(SENTINEL_ERROR);
	assert_false(DeleteFileW(name));
	assert_last_error(ERROR_ACCESS_DENIED);
	assert_true(DeleteFileW(file));
	assert_true(RemoveDirectoryW(name));
	wpath(name, "a/b");
	SetLastError(SENTINEL_ERROR);
	assert_false(CreateDirectoryW(name, NULL));
	assert_last_error(ERROR_PATH_NOT_FOUND);
}

static void test_ansi_names(void **state)
{
	char name[128];
	HANDLE h;

	snprintf(name, sizeof(name), "%s\\caf\xe9.txt", dir); /* 1252 e-acute, backslash */
	h = CreateFileA(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	assert_ptr_not_equal(h, INVALID_HANDLE_VALUE);
	handle_close(h);
	snprintf(name, sizeof(name), "%s/caf\xc3\xa9.txt", dir); /* the Linux name is UTF-8 */
	assert_int_equal(access(name, F_OK), 0);
	snprintf(name, sizeof(name), "%s/caf\xe9.txt", dir);
	assert_true(DeleteFileA(name));
}

static void test_types_and_console(void **state)
{
	int fds[2];
	HANDLE r, w, nul;
	DWORD n, mode;

	assert_int_equal(pipe(fds), 0);
	r = file_create_handle(fds[0], GENERIC_READ, 0, true);
	w = file_create_handle(fds[1], GENERIC_WRITE, 0, true);
	assert_int_equal(GetFileType(r), FILE_TYPE_PIPE);
	assert_true(WriteFile(w, "ping", 4, &n, NULL));
	/* not a console: the console functions refuse it like Windows does */
	SetLastError(SENTINEL_ERROR);
	assert_false(GetConsoleMode(w, &mode));
	assert_last_error(ERROR_INVALID_HANDLE);
	SetLastError(SENTINEL_ERROR);
	assert_false(WriteConsoleW(w, u"x", 1, &n, NULL));
	assert_last_error(ERROR_INVALID_HANDLE);
	handle_close(w);
	char buf[8];
	assert_true(ReadFile(r, buf, 8, &n, NULL));
	assert_int_equal(n, 4);
	assert_true(ReadFile(r, buf, 8, &n, NULL)); /* writer gone */
	assert_int_equal(n, 0);
	handle_close(r);

	nul = CreateFileW(u"NUL", GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
	assert_int_equal(GetFileType(nul), FILE_TYPE_CHAR);
	assert_true(WriteFile(nul, "x", 1, &n, NULL));
	handle_close(nul);

	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetFileType((HANDLE)0x12344), FILE_TYPE_UNKNOWN);
	assert_last_error(ERROR_INVALID_HANDLE);
	assert_true(SetConsoleOutputCP(65001));
	assert_int_equal(GetConsoleOutputCP(), 65001);
	assert_false(SetConsoleOutputCP(932));
	assert_true(SetConsoleOutputCP(437));
}

/* An overlapped handle needs an OVERLAPPED; on a disk file the request
 * completes at once and reports through it. */
static void test_overlapped_handle(void **state)
{
	WCHAR name[128];
	OVERLAPPED ov = { 0 };
	DWORD n;
	HANDLE h;

	wpath(name, "ov.bin");
	h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_OVERLAPPED, NULL);
	SetLastError(SENTINEL_ERROR);
	assert_false(WriteFile(h, "x", 1, &n, NULL));
	assert_last_error(ERROR_INVALID_PARAMETER);
	assert_true(WriteFile(h, "x", 1, NULL, &ov));
	assert_int_equal(ov.Internal, 0);
	assert_int_equal(ov.InternalHigh, 1);
	handle_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dispositions),
		cmocka_unit_test(test_read_write_seek),
		cmocka_unit_test(test_append_only),
		cmocka_unit_test(test_delete_on_close_and_attributes),
		cmocka_unit_test(test_directories),
		cmocka_unit_test(test_ansi_names),
		cmocka_unit_test(test_types_and_console),
		cmocka_unit_test(test_overlapped_handle),
	};
	/* test_ansi_names is about the 1252 page, whatever the locale */
	setenv("NDSHIM_ACP", "1252", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
