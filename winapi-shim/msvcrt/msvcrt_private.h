/* Prototypes of msvcrt exports (named crt_* in C so they never clash with
 * glibc's own functions), and helpers shared by msvcrt's files.
 *
 * Every export is __cdecl (ms_abi).  Types follow the Windows x64 ABI:
 * long is 32-bit (use int/unsigned int here), wchar_t is WCHAR (16-bit),
 * va_list is __ms_va_list. */
#ifndef NDSHIM_MSVCRT_PRIVATE_H
#define NDSHIM_MSVCRT_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <windef.h>
#include <winbase.h>

#include "ntdll/ntdll_private.h" /* __C_specific_handler, exported here too */

typedef int(__cdecl *crt_onexit_t)(void);
typedef void(__cdecl *crt_pvfv)(void);
typedef int(__cdecl *crt_pifv)(void);
typedef void(__cdecl *crt_sighandler_t)(int);
typedef unsigned int(__stdcall *crt_thread_proc)(void *);
typedef int(__cdecl *crt_cmp_fn)(const void *, const void *);
typedef int64_t crt_time64;

/* msvcrt's public FILE: programs index __iob_func() with this stride. */
struct crt_file {
	char *_ptr;
	int _cnt;
	char *_base;
	int _flag;
	int _file;
	int _charbuf;
	int _bufsiz;
	char *_tmpfname;
};
_Static_assert(sizeof(struct crt_file) == 48, "msvcrt FILE is 48 bytes");
_Static_assert(offsetof(struct crt_file, _flag) == 24, "FILE._flag");
_Static_assert(offsetof(struct crt_file, _file) == 28, "FILE._file");
_Static_assert(offsetof(struct crt_file, _tmpfname) == 40, "FILE._tmpfname");

#define CRT_IOREAD 0x0001
#define CRT_IOWRT 0x0002
#define CRT_IOMYBUF 0x0008
#define CRT_IOEOF 0x0010
#define CRT_IOERR 0x0020
#define CRT_IOSTRG 0x0040
#define CRT_IORW 0x0080
/* msvcrt's own _flag bits (mingw's headers leave them out; its
 * _lock_file sets _IOLOCKED on an _iob entry it holds). */
#define CRT_IOUNBUF 0x0004   /* _IONBF: no buffer */
#define CRT_IOYOURBUF 0x0100 /* the program's buffer (setvbuf) */
#define CRT_IOLOCKED 0x8000
#define CRT_IOB_ENTRIES 20
/* _lock(CRT_STREAM_LOCKS + i) is _iob[i]'s lock (mingw's _lock_file relies on it). */
#define CRT_STREAM_LOCKS 16

/* msvcrt's struct lconv (C89 order, char* then char fields). */
struct crt_lconv {
	char *decimal_point;
	char *thousands_sep;
	char *grouping;
	char *int_curr_symbol;
	char *currency_symbol;
	char *mon_decimal_point;
	char *mon_thousands_sep;
	char *mon_grouping;
	char *positive_sign;
	char *negative_sign;
	char int_frac_digits;
	char frac_digits;
	char p_cs_precedes;
	char p_sep_by_space;
	char n_cs_precedes;
	char n_sep_by_space;
	char p_sign_posn;
	char n_sign_posn;
};

/* msvcrt's struct _stat64 (x64). */
struct crt_stat64 {
	unsigned int st_dev;
	unsigned short st_ino;
	unsigned short st_mode;
	short st_nlink;
	short st_uid;
	short st_gid;
	unsigned int st_rdev;
	int64_t st_size;
	crt_time64 atime;
	crt_time64 mtime;
	crt_time64 ctime_;
};
_Static_assert(sizeof(struct crt_stat64) == 56, "msvcrt struct _stat64");
_Static_assert(offsetof(struct crt_stat64, st_rdev) == 16, "_stat64.st_rdev");
_Static_assert(offsetof(struct crt_stat64, st_size) == 24, "_stat64.st_size");

struct crt_tm {
	int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};

typedef struct {
	int64_t pos;
} crt_fpos_t;

/* Windows' mbstate_t is 8 bytes; the CRT's use of it (mbconv.c). */
typedef struct {
	unsigned char bytes[3]; /* an unfinished UTF-8 sequence */
	unsigned char count;
	unsigned short low;     /* a surrogate half waiting to be returned or joined */
	unsigned char kind;     /* 0 empty, 1 partial bytes, 2 surrogate half */
	unsigned char unused;
} crt_mbstate_t;
_Static_assert(sizeof(crt_mbstate_t) == 8, "mbstate_t is 8 bytes");

struct crt_timespec64 {
	int64_t tv_sec;
	int tv_nsec;
};
_Static_assert(sizeof(struct crt_timespec64) == 16, "struct _timespec64");

/* Translation modes (_O_TEXT ...), for _fmode and _setmode. */
#define CRT_O_TEXT 0x4000
#define CRT_O_BINARY 0x8000
#define CRT_O_WTEXT 0x10000
#define CRT_O_U16TEXT 0x20000
#define CRT_O_U8TEXT 0x40000

/* Windows errno values that differ from Linux's. */
#define CRT_EDEADLK 36
#define CRT_ENAMETOOLONG 38
#define CRT_ENOLCK 39
#define CRT_ENOSYS 40
#define CRT_ENOTEMPTY 41
#define CRT_EILSEQ 42
#define CRT_STRUNCATE 80

/* Windows signal numbers. */
#define CRT_SIGINT 2
#define CRT_SIGILL 4
#define CRT_SIGFPE 8
#define CRT_SIGSEGV 11
#define CRT_SIGTERM 15
#define CRT_SIGBREAK 21
#define CRT_SIGABRT 22
#define CRT_SIGABRT_COMPAT 6
#define CRT_SIG_DFL ((crt_sighandler_t)0)
#define CRT_SIG_IGN ((crt_sighandler_t)1)
#define CRT_SIG_ERR ((crt_sighandler_t)-1)

/* ---- internal helpers ---------------------------------------------------- */
/* errno.c */
int crt_errno_from_host(int host_errno);
void crt_set_errno(int win_errno);
void crt_set_errno_host(int host_errno);
/* exit.c */
void crt_run_exit_handlers(void);
/* startup.c: argv and the environment, built once */
void crt_startup_init(void);
/* stdio.c */
void crt_flush_all_streams(void);
/* The builtin's stop hook: crt_flush_all_streams for a program ndrun is
 * ending, skipping streams whose lock stays taken (the stopped thread
 * may hold it: _lock_file, or a fault inside a stdio call). */
void crt_flush_at_stop(void);
struct crt_file *crt_stdout(void);
/* conv.c: the CRT's narrow encoding is UTF-8 (see conv.c) */
size_t crt_wide_to_utf8(const WCHAR *src, size_t srclen, char *dst, size_t dstsize);
size_t crt_utf8_to_wide(const char *src, size_t srclen, WCHAR *dst, size_t dstsize);
size_t crt_encode_wchar(unsigned int cp, char out[4]);
char *crt_wide_to_utf8_alloc(const WCHAR *s);
char *crt_wide_to_utf8_alloc_n(const WCHAR *s, size_t len);
WCHAR *crt_utf8_to_wide_alloc(const char *s);
/* file.c: a Windows path as a Linux one (malloc'ed) by core/path.h;
 * NULL with errno set (ENOENT, ENOMEM) */
char *crt_unix_path(const char *path);
/* file.c: _umask's value (_S_IWRITE 0x80, _S_IREAD 0x100) */
extern int crt_umask_value;
/* file.c: fd was opened with _O_* flags (its text mode) */
void crt_fd_opened(int fd, int flags);
/* file.c: fd's translation mode: CRT_O_BINARY, CRT_O_TEXT (the default),
 * CRT_O_U8TEXT, CRT_O_U16TEXT or CRT_O_WTEXT */
int crt_fd_mode(int fd);
/* file.c: a seek or close on fd: its text-mode end of file (Ctrl-Z) and
 * look-ahead byte are forgotten */
void crt_fd_reset(int fd);
/* stdio.c: n UTF-16 units written to a stream as its mode wants them
 * (the wide printf family); the count written */
size_t crt_stream_put_wide(struct crt_file *f, const WCHAR *s, size_t n);
/* osfhandle.c */
void crt_osf_closed(int fd);
intptr_t __cdecl crt__get_osfhandle(int fd);
intptr_t __cdecl ucrt__get_osfhandle(int fd);
int __cdecl crt__open_osfhandle(intptr_t handle, int flags);
/* locale.c: _locale_t objects */
typedef struct crt_locale *crt_locale_t;
crt_locale_t __cdecl crt__create_locale(int category, const char *name);
crt_locale_t __cdecl crt__wcreate_locale(int category, const WCHAR *name);
crt_locale_t __cdecl crt__get_current_locale(void);
void __cdecl crt__free_locale(crt_locale_t locale);
/* locale_forms.c: the _l functions */
double __cdecl crt__atof_l(const char *s, crt_locale_t locale);
int64_t __cdecl crt__atoi64_l(const char *s, crt_locale_t locale);
int __cdecl crt__atoi_l(const char *s, crt_locale_t locale);
int __cdecl crt__atol_l(const char *s, crt_locale_t locale);
int64_t __cdecl crt__atoll_l(const char *s, crt_locale_t locale);
int __cdecl crt__isalnum_l(int c, crt_locale_t locale);
int __cdecl crt__isalpha_l(int c, crt_locale_t locale);
int __cdecl crt__iscntrl_l(int c, crt_locale_t locale);
int __cdecl crt__isctype_l(int c, int mask, crt_locale_t locale);
int __cdecl crt__isdigit_l(int c, crt_locale_t locale);
int __cdecl crt__isgraph_l(int c, crt_locale_t locale);
int __cdecl crt__islower_l(int c, crt_locale_t locale);
int __cdecl crt__isprint_l(int c, crt_locale_t locale);
int __cdecl crt__ispunct_l(int c, crt_locale_t locale);
int __cdecl crt__isspace_l(int c, crt_locale_t locale);
int __cdecl crt__isupper_l(int c, crt_locale_t locale);
int __cdecl crt__iswalnum_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswalpha_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswcntrl_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswctype_l(WCHAR c, unsigned short mask, crt_locale_t locale);
int __cdecl crt__iswdigit_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswlower_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswprint_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswpunct_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswspace_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswupper_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__iswxdigit_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__isxdigit_l(int c, crt_locale_t locale);
size_t __cdecl crt__mbstowcs_l(WCHAR *d, const char *s, size_t n, crt_locale_t locale);
int __cdecl crt__strcoll_l(const char *a, const char *b, crt_locale_t locale);
size_t __cdecl crt__strftime_l(char *buf, size_t max, const char *fmt, const struct crt_tm *tm, crt_locale_t locale);
int __cdecl crt__stricmp_l(const char *a, const char *b, crt_locale_t locale);
char * __cdecl crt__strlwr_l(char *s, crt_locale_t locale);
int __cdecl crt__strnicmp_l(const char *a, const char *b, size_t n, crt_locale_t locale);
double __cdecl crt__strtod_l(const char *s, char **end, crt_locale_t locale);
float __cdecl crt__strtof_l(const char *s, char **end, crt_locale_t locale);
int64_t __cdecl crt__strtoi64_l(const char *s, char **end, int base, crt_locale_t locale);
int __cdecl crt__strtol_l(const char *s, char **end, int base, crt_locale_t locale);
double __cdecl crt__strtold_l(const char *s, char **end, crt_locale_t locale);
int64_t __cdecl crt__strtoll_l(const char *s, char **end, int base, crt_locale_t locale);
uint64_t __cdecl crt__strtoui64_l(const char *s, char **end, int base, crt_locale_t locale);
unsigned int __cdecl crt__strtoul_l(const char *s, char **end, int base, crt_locale_t locale);
uint64_t __cdecl crt__strtoull_l(const char *s, char **end, int base, crt_locale_t locale);
char * __cdecl crt__strupr_l(char *s, crt_locale_t locale);
size_t __cdecl crt__strxfrm_l(char *d, const char *s, size_t n, crt_locale_t locale);
int __cdecl crt__tolower_l(int c, crt_locale_t locale);
int __cdecl crt__toupper_l(int c, crt_locale_t locale);
WCHAR __cdecl crt__towlower_l(WCHAR c, crt_locale_t locale);
WCHAR __cdecl crt__towupper_l(WCHAR c, crt_locale_t locale);
int __cdecl crt__wcscoll_l(const WCHAR *a, const WCHAR *b, crt_locale_t locale);
size_t __cdecl crt__wcsftime_l(WCHAR *buf, size_t max, const WCHAR *fmt, const struct crt_tm *tm, crt_locale_t locale);
int __cdecl crt__wcsicmp_l(const WCHAR *a, const WCHAR *b, crt_locale_t locale);
WCHAR * __cdecl crt__wcslwr_l(WCHAR *s, crt_locale_t locale);
int __cdecl crt__wcsnicmp_l(const WCHAR *a, const WCHAR *b, size_t n, crt_locale_t locale);
double __cdecl crt__wcstod_l(const WCHAR *s, WCHAR **end, crt_locale_t locale);
float __cdecl crt__wcstof_l(const WCHAR *s, WCHAR **end, crt_locale_t locale);
int64_t __cdecl crt__wcstoi64_l(const WCHAR *s, WCHAR **end, int base, crt_locale_t locale);
int __cdecl crt__wcstol_l(const WCHAR *s, WCHAR **end, int base, crt_locale_t locale);
double __cdecl crt__wcstold_l(const WCHAR *s, WCHAR **end, crt_locale_t locale);
int64_t __cdecl crt__wcstoll_l(const WCHAR *s, WCHAR **end, int base, crt_locale_t locale);
size_t __cdecl crt__wcstombs_l(char *d, const WCHAR *s, size_t n, crt_locale_t locale);
uint64_t __cdecl crt__wcstoui64_l(const WCHAR *s, WCHAR **end, int base, crt_locale_t locale);
unsigned int __cdecl crt__wcstoul_l(const WCHAR *s, WCHAR **end, int base, crt_locale_t locale);
uint64_t __cdecl crt__wcstoull_l(const WCHAR *s, WCHAR **end, int base, crt_locale_t locale);
WCHAR * __cdecl crt__wcsupr_l(WCHAR *s, crt_locale_t locale);
size_t __cdecl crt__wcsxfrm_l(WCHAR *d, const WCHAR *s, size_t n, crt_locale_t locale);
int __cdecl crt__wtoi_l(const WCHAR *s, crt_locale_t locale);
int __cdecl crt__wtol_l(const WCHAR *s, crt_locale_t locale);
int __cdecl crt__vsprintf_l(char *buf, const char *fmt, crt_locale_t locale, __ms_va_list ap);
int __cdecl crt__sprintf_l(char *buf, const char *fmt, crt_locale_t locale, ...);
int __cdecl crt__vsnprintf_l(char *buf, size_t count, const char *fmt, crt_locale_t locale, __ms_va_list ap);
int __cdecl crt__snprintf_l(char *buf, size_t count, const char *fmt, crt_locale_t locale, ...);
int __cdecl crt__vprintf_l(const char *fmt, crt_locale_t locale, __ms_va_list ap);
int __cdecl crt__printf_l(const char *fmt, crt_locale_t locale, ...);
int __cdecl crt__vfprintf_l(struct crt_file *f, const char *fmt, crt_locale_t locale, __ms_va_list ap);
int __cdecl crt__fprintf_l(struct crt_file *f, const char *fmt, crt_locale_t locale, ...);
int __cdecl crt__vscprintf_l(const char *fmt, crt_locale_t locale, __ms_va_list ap);
int __cdecl crt__scprintf_l(const char *fmt, crt_locale_t locale, ...);
/* system.c */
/* "%ComSpec% /c cmd" (malloc'ed), the line system and _popen run */
WCHAR *crt_cmd_line(const WCHAR *cmd);
int crt_errno_from_spawn(DWORD err);
int __cdecl crt_system(const char *cmd);
/* scanf_msvcrt.c: msvcrt's scanf family, plain and _s */
#define PROTO_FAMILY(suffix)                                                                             \
	int __cdecl crt_sscanf##suffix(const char *, const char *, ...);                                   \
	int __cdecl crt_swscanf##suffix(const WCHAR *, const WCHAR *, ...);                                \
	int __cdecl crt__sscanf##suffix##_l(const char *, const char *, crt_locale_t, ...);                \
	int __cdecl crt__swscanf##suffix##_l(const WCHAR *, const WCHAR *, crt_locale_t, ...);             \
	int __cdecl crt__snscanf##suffix(const char *, size_t, const char *, ...);                         \
	int __cdecl crt__snwscanf##suffix(const WCHAR *, size_t, const WCHAR *, ...);                      \
	int __cdecl crt__snscanf##suffix##_l(const char *, size_t, const char *, crt_locale_t, ...);       \
	int __cdecl crt__snwscanf##suffix##_l(const WCHAR *, size_t, const WCHAR *, crt_locale_t, ...);    \
	int __cdecl crt_fscanf##suffix(struct crt_file *, const char *, ...);                              \
	int __cdecl crt_fwscanf##suffix(struct crt_file *, const WCHAR *, ...);                            \
	int __cdecl crt__fscanf##suffix##_l(struct crt_file *, const char *, crt_locale_t, ...);           \
	int __cdecl crt__fwscanf##suffix##_l(struct crt_file *, const WCHAR *, crt_locale_t, ...);         \
	int __cdecl crt_scanf##suffix(const char *, ...);                                                  \
	int __cdecl crt_wscanf##suffix(const WCHAR *, ...);                                                \
	int __cdecl crt__scanf##suffix##_l(const char *, crt_locale_t, ...);                               \
	int __cdecl crt__wscanf##suffix##_l(const WCHAR *, crt_locale_t, ...);

PROTO_FAMILY()
PROTO_FAMILY(_s)
#undef PROTO_FAMILY
/* time_forms.c */
struct crt_timeb64;
struct crt_timeb32;
struct crt_tm *__cdecl crt__gmtime32(const int *t);
struct crt_tm *__cdecl crt__localtime32(const int *t);
char *__cdecl crt__ctime32(const int *t);
int __cdecl crt__mktime32(struct crt_tm *tm);
double __cdecl crt__difftime32(int a, int b);
int __cdecl crt__gmtime32_s(struct crt_tm *out, const int *t);
int __cdecl crt__localtime32_s(struct crt_tm *out, const int *t);
crt_time64 __cdecl crt__mkgmtime64(struct crt_tm *tm);
int __cdecl crt__mkgmtime32(struct crt_tm *tm);
WCHAR *__cdecl crt__wasctime(const struct crt_tm *tm);
WCHAR *__cdecl crt__wctime64(const crt_time64 *t);
WCHAR *__cdecl crt__wctime32(const int *t);
int __cdecl crt_asctime_s(char *buf, size_t size, const struct crt_tm *tm);
int __cdecl crt__wasctime_s(WCHAR *buf, size_t size, const struct crt_tm *tm);
int __cdecl crt__ctime64_s(char *buf, size_t size, const crt_time64 *t);
int __cdecl crt__ctime32_s(char *buf, size_t size, const int *t);
int __cdecl crt__wctime64_s(WCHAR *buf, size_t size, const crt_time64 *t);
int __cdecl crt__wctime32_s(WCHAR *buf, size_t size, const int *t);
char *__cdecl crt__strdate(char *buf);
char *__cdecl crt__strtime(char *buf);
WCHAR *__cdecl crt__wstrdate(WCHAR *buf);
WCHAR *__cdecl crt__wstrtime(WCHAR *buf);
int __cdecl crt__strdate_s(char *buf, size_t size);
int __cdecl crt__strtime_s(char *buf, size_t size);
int __cdecl crt__wstrdate_s(WCHAR *buf, size_t size);
int __cdecl crt__wstrtime_s(WCHAR *buf, size_t size);
void __cdecl crt__ftime64(struct crt_timeb64 *tb);
void __cdecl crt__ftime32(struct crt_timeb32 *tb);
int __cdecl crt__ftime64_s(struct crt_timeb64 *tb);
int __cdecl crt__ftime32_s(struct crt_timeb32 *tb);
/* stat.c */
struct crt_stat32;
struct crt_stat32i64;
struct crt_stat64i32;
int __cdecl crt__stat64(const char *path, struct crt_stat64 *buf);
int __cdecl crt__wstat64(const WCHAR *path, struct crt_stat64 *buf);
#define STAT_FORMS(layout)                                                                                 \
	int __cdecl crt__stat##layout(const char *path, struct crt_stat##layout *buf);                     \
	int __cdecl crt__wstat##layout(const WCHAR *path, struct crt_stat##layout *buf);                   \
	int __cdecl crt__fstat##layout(int fd, struct crt_stat##layout *buf);
STAT_FORMS(32)
STAT_FORMS(32i64)
STAT_FORMS(64i32)
#undef STAT_FORMS
/* find.c */
struct crt_finddata32;
struct crt_wfinddata32;
intptr_t __cdecl crt__findfirst32(const char *pattern, struct crt_finddata32 *d);
int __cdecl crt__findnext32(intptr_t handle, struct crt_finddata32 *d);
intptr_t __cdecl crt__wfindfirst32(const WCHAR *pattern, struct crt_wfinddata32 *d);
int __cdecl crt__wfindnext32(intptr_t handle, struct crt_wfinddata32 *d);
struct crt_finddata32i64;
struct crt_wfinddata32i64;
intptr_t __cdecl crt__findfirst32i64(const char *pattern, struct crt_finddata32i64 *d);
int __cdecl crt__findnext32i64(intptr_t handle, struct crt_finddata32i64 *d);
intptr_t __cdecl crt__wfindfirst32i64(const WCHAR *pattern, struct crt_wfinddata32i64 *d);
int __cdecl crt__wfindnext32i64(intptr_t handle, struct crt_wfinddata32i64 *d);
struct crt_finddata64i32;
struct crt_wfinddata64i32;
intptr_t __cdecl crt__findfirst64i32(const char *pattern, struct crt_finddata64i32 *d);
int __cdecl crt__findnext64i32(intptr_t handle, struct crt_finddata64i32 *d);
intptr_t __cdecl crt__wfindfirst64i32(const WCHAR *pattern, struct crt_wfinddata64i32 *d);
int __cdecl crt__wfindnext64i32(intptr_t handle, struct crt_wfinddata64i32 *d);
struct crt_finddata64;
struct crt_wfinddata64;
intptr_t __cdecl crt__findfirst64(const char *pattern, struct crt_finddata64 *d);
int __cdecl crt__findnext64(intptr_t handle, struct crt_finddata64 *d);
intptr_t __cdecl crt__wfindfirst64(const WCHAR *pattern, struct crt_wfinddata64 *d);
int __cdecl crt__wfindnext64(intptr_t handle, struct crt_wfinddata64 *d);
int __cdecl crt__findclose(intptr_t handle);
/* splitpath.c */
void __cdecl crt__splitpath(const char *path, char *drive, char *dir, char *fname, char *ext);
void __cdecl crt__wsplitpath(const WCHAR *path, WCHAR *drive, WCHAR *dir, WCHAR *fname, WCHAR *ext);
int __cdecl crt__splitpath_s(const char *path, char *drive, size_t dsz, char *dir, size_t dirsz, char *fname,
			     size_t fsz, char *ext, size_t esz);
int __cdecl crt__wsplitpath_s(const WCHAR *path, WCHAR *drive, size_t dsz, WCHAR *dir, size_t dirsz, WCHAR *fname,
			      size_t fsz, WCHAR *ext, size_t esz);
void __cdecl crt__makepath(char *path, const char *drive, const char *dir, const char *fname, const char *ext);
void __cdecl crt__wmakepath(WCHAR *path, const WCHAR *drive, const WCHAR *dir, const WCHAR *fname, const WCHAR *ext);
int __cdecl crt__makepath_s(char *path, size_t size, const char *drive, const char *dir, const char *fname,
			    const char *ext);
int __cdecl crt__wmakepath_s(WCHAR *path, size_t size, const WCHAR *drive, const WCHAR *dir, const WCHAR *fname,
			     const WCHAR *ext);
/* thread.c */
uintptr_t __cdecl crt__beginthread(void(__cdecl *proc)(void *), unsigned int stack_size, void *arg);
void __cdecl crt__endthread(void) __attribute__((noreturn));
/* numtext.c */
WCHAR *__cdecl crt__ltow(int v, WCHAR *buf, int radix);
WCHAR *__cdecl crt__ultow(unsigned int v, WCHAR *buf, int radix);
WCHAR *__cdecl crt__i64tow(int64_t v, WCHAR *buf, int radix);
WCHAR *__cdecl crt__ui64tow(uint64_t v, WCHAR *buf, int radix);
int __cdecl crt__itoa_s(int v, void *buf, size_t size, int radix);
int __cdecl crt__ltoa_s(int v, void *buf, size_t size, int radix);
int __cdecl crt__ultoa_s(unsigned int v, void *buf, size_t size, int radix);
int __cdecl crt__i64toa_s(int64_t v, void *buf, size_t size, int radix);
int __cdecl crt__ui64toa_s(uint64_t v, void *buf, size_t size, int radix);
int __cdecl crt__itow_s(int v, void *buf, size_t size, int radix);
int __cdecl crt__ltow_s(int v, void *buf, size_t size, int radix);
int __cdecl crt__ultow_s(unsigned int v, void *buf, size_t size, int radix);
int __cdecl crt__i64tow_s(int64_t v, void *buf, size_t size, int radix);
int __cdecl crt__ui64tow_s(uint64_t v, void *buf, size_t size, int radix);
/* string_more.c */
char *__cdecl crt__strrev(char *s);
WCHAR *__cdecl crt__wcsrev(WCHAR *s);
char *__cdecl crt__strset(char *s, int c);
char *__cdecl crt__strnset(char *s, int c, size_t n);
WCHAR *__cdecl crt__wcsset(WCHAR *s, WCHAR c);
WCHAR *__cdecl crt__wcsnset(WCHAR *s, WCHAR c, size_t n);
int __cdecl crt__memicmp(const void *a, const void *b, size_t n);
void *__cdecl crt__memccpy(void *dst, const void *src, int c, size_t n);
void __cdecl crt__swab(char *src, char *dst, int n);
int __cdecl crt_strncat_s(char *dst, size_t size, const char *src, size_t count);
int __cdecl crt_wcsncat_s(WCHAR *dst, size_t size, const WCHAR *src, size_t count);
int __cdecl crt__strlwr_s(char *s, size_t size);
int __cdecl crt__strupr_s(char *s, size_t size);
int __cdecl crt__wcslwr_s(WCHAR *s, size_t size);
int __cdecl crt__wcsupr_s(WCHAR *s, size_t size);
int __cdecl crt__strset_s(char *s, size_t size, int c);
int __cdecl crt__strnset_s(char *s, size_t size, int c, size_t n);
int __cdecl crt__wcsset_s(WCHAR *s, size_t size, WCHAR c);
int __cdecl crt__wcsnset_s(WCHAR *s, size_t size, WCHAR c, size_t n);
int __cdecl crt_strerror_s(char *buf, size_t size, int err);
int __cdecl crt__wcserror_s(WCHAR *buf, size_t size, int err);
int __cdecl crt__strerror_s(char *buf, size_t size, const char *s);
int __cdecl crt__tolower(int c);
int __cdecl crt__toupper(int c);
int __cdecl crt___isascii(int c);
int __cdecl crt___toascii(int c);
int __cdecl crt___iscsymf(int c);
int __cdecl crt___iscsym(int c);
int __cdecl crt_iswascii(WCHAR c);
/* io_more.c */
int __cdecl crt__sopen(const char *path, int flags, int share, ...);
int __cdecl crt__wsopen(const WCHAR *path, int flags, int share, ...);
int __cdecl crt__sopen_s(int *fd, const char *path, int flags, int share, int pmode);
int __cdecl crt__wsopen_s(int *fd, const WCHAR *path, int flags, int share, int pmode);
int __cdecl crt__creat(const char *path, int pmode);
int __cdecl crt__wcreat(const WCHAR *path, int pmode);
int __cdecl crt__dup(int fd);
int __cdecl crt__dup2(int from, int to);
int __cdecl crt__eof(int fd);
int __cdecl crt__tell(int fd);
int64_t __cdecl crt__telli64(int fd);
int __cdecl crt__chsize(int fd, int size);
int __cdecl crt__chsize_s(int fd, int64_t size);
int __cdecl crt__commit(int fd);
int __cdecl crt__umask(int mode);
int __cdecl crt__umask_s(int mode, int *old);
int __cdecl crt__pipe(int *fds, unsigned int size, int mode);
int __cdecl crt__chmod(const char *path, int mode);
int __cdecl crt__wchmod(const WCHAR *path, int mode);
char *__cdecl crt__mktemp(char *tmpl);
WCHAR *__cdecl crt__wmktemp(WCHAR *tmpl);
int __cdecl crt__mktemp_s(char *tmpl, size_t size);
int __cdecl crt__wmktemp_s(WCHAR *tmpl, size_t size);
/* ucrt_stdio.c: _vsnprintf_s's rules with printf.c's options (CRT_PF_*) */
int crt_vsnprintf_s_opts(unsigned int pfopts, void *buf, size_t size, size_t count, int wide, const void *fmt,
			 __ms_va_list ap);
/* printf_s.c: msvcrt's printf _s family */
int __cdecl crt_vfprintf_s(struct crt_file *f, const char *fmt, __ms_va_list ap);
int __cdecl crt_vfwprintf_s(struct crt_file *f, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt_vprintf_s(const char *fmt, __ms_va_list ap);
int __cdecl crt_vwprintf_s(const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt_fprintf_s(struct crt_file *f, const char *fmt, ...);
int __cdecl crt_fwprintf_s(struct crt_file *f, const WCHAR *fmt, ...);
int __cdecl crt_printf_s(const char *fmt, ...);
int __cdecl crt_wprintf_s(const WCHAR *fmt, ...);
int __cdecl crt__vsnprintf_s(char *buf, size_t size, size_t count, const char *fmt, __ms_va_list ap);
int __cdecl crt__vsnwprintf_s(WCHAR *buf, size_t size, size_t count, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt_vswprintf_s(WCHAR *buf, size_t size, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__snprintf_s(char *buf, size_t size, size_t count, const char *fmt, ...);
int __cdecl crt__snwprintf_s(WCHAR *buf, size_t size, size_t count, const WCHAR *fmt, ...);
int __cdecl crt_swprintf_s(WCHAR *buf, size_t size, const WCHAR *fmt, ...);
/* c99_more.c */
int __cdecl crt_isblank(int c);
int __cdecl crt_iswblank(WCHAR c);
int __cdecl crt_iswgraph(WCHAR c);
WCHAR __cdecl crt_btowc(int c);
int __cdecl crt_wctob(WCHAR c);
int __cdecl crt_mblen(const char *s, size_t n);
int __cdecl crt_mbtowc(WCHAR *out, const char *s, size_t n);
int __cdecl crt_wctomb(char *out, WCHAR wc);
int64_t __cdecl crt_strtoimax(const char *s, char **end, int base);
uint64_t __cdecl crt_strtoumax(const char *s, char **end, int base);
int64_t __cdecl crt_wcstoimax(const WCHAR *s, WCHAR **end, int base);
uint64_t __cdecl crt_wcstoumax(const WCHAR *s, WCHAR **end, int base);
struct crt_lldiv_t __cdecl crt_imaxdiv(int64_t num, int64_t den);
int __cdecl crt_timespec_get(struct crt_timespec64 *ts, int base);
/* fenv.c */
struct crt_fenv;
int __cdecl crt_fegetround(void);
int __cdecl crt_fesetround(int mode);
void __cdecl crt__fpreset(void);
int __cdecl crt_fetestexcept(int mask);
int __cdecl crt_feclearexcept(int mask);
int __cdecl crt_fegetexceptflag(unsigned int *flags, int mask);
int __cdecl crt_fesetexceptflag(const unsigned int *flags, int mask);
int __cdecl crt_fegetenv(struct crt_fenv *env);
int __cdecl crt_fesetenv(const struct crt_fenv *env);
int __cdecl crt_feholdexcept(struct crt_fenv *env);
/* complex.c */
struct crt_dcomplex;
struct crt_fcomplex;
#define Z1(name)                                                                                           \
	struct crt_dcomplex __cdecl crt_##name(struct crt_dcomplex z);                                      \
	struct crt_fcomplex __cdecl crt_##name##f(struct crt_fcomplex z);
#define R1(name)                                                                                           \
	double __cdecl crt_##name(struct crt_dcomplex z);                                                   \
	float __cdecl crt_##name##f(struct crt_fcomplex z);
#include "msvcrt/complexfn.h"
#undef Z1
#undef R1
struct crt_dcomplex __cdecl crt_cpow(struct crt_dcomplex z, struct crt_dcomplex w);
struct crt_fcomplex __cdecl crt_cpowf(struct crt_fcomplex z, struct crt_fcomplex w);
double __cdecl crt_norm(struct crt_dcomplex z);
float __cdecl crt_normf(struct crt_fcomplex z);
struct crt_dcomplex __cdecl crt__Cbuild(double re, double im);
struct crt_fcomplex __cdecl crt__FCbuild(float re, float im);
struct crt_dcomplex __cdecl crt__Cmulcc(struct crt_dcomplex a, struct crt_dcomplex b);
struct crt_dcomplex __cdecl crt__Cmulcr(struct crt_dcomplex a, double b);
struct crt_fcomplex __cdecl crt__FCmulcc(struct crt_fcomplex a, struct crt_fcomplex b);
struct crt_fcomplex __cdecl crt__FCmulcr(struct crt_fcomplex a, float b);
/* spawn.c */
intptr_t __cdecl crt__spawnv(int mode, const char *path, const char *const *argv);
intptr_t __cdecl crt__wspawnv(int mode, const WCHAR *path, const WCHAR *const *argv);
intptr_t __cdecl crt__spawnvp(int mode, const char *path, const char *const *argv);
intptr_t __cdecl crt__wspawnvp(int mode, const WCHAR *path, const WCHAR *const *argv);
intptr_t __cdecl crt__spawnve(int mode, const char *path, const char *const *argv, const char *const *envp);
intptr_t __cdecl crt__wspawnve(int mode, const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp);
intptr_t __cdecl crt__spawnvpe(int mode, const char *path, const char *const *argv, const char *const *envp);
intptr_t __cdecl crt__wspawnvpe(int mode, const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp);
intptr_t __cdecl crt__spawnl(int mode, const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wspawnl(int mode, const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__spawnle(int mode, const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wspawnle(int mode, const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__spawnlp(int mode, const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wspawnlp(int mode, const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__spawnlpe(int mode, const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wspawnlpe(int mode, const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__execl(const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wexecl(const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__execle(const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wexecle(const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__execlp(const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wexeclp(const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__execlpe(const char *path, const char *arg0, ...);
intptr_t __cdecl crt__wexeclpe(const WCHAR *path, const WCHAR *arg0, ...);
intptr_t __cdecl crt__execv(const char *path, const char *const *argv);
intptr_t __cdecl crt__wexecv(const WCHAR *path, const WCHAR *const *argv);
intptr_t __cdecl crt__execvp(const char *path, const char *const *argv);
intptr_t __cdecl crt__wexecvp(const WCHAR *path, const WCHAR *const *argv);
intptr_t __cdecl crt__execve(const char *path, const char *const *argv, const char *const *envp);
intptr_t __cdecl crt__wexecve(const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp);
intptr_t __cdecl crt__execvpe(const char *path, const char *const *argv, const char *const *envp);
intptr_t __cdecl crt__wexecvpe(const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp);
intptr_t __cdecl crt__cwait(int *status, intptr_t handle, int action);
/* stdlib_more.c */
void __cdecl crt_qsort_s(void *base, size_t n, size_t size, int(__cdecl *cmp)(void *, const void *, const void *),
			 void *ctx);
void *__cdecl crt_bsearch_s(const void *key, const void *base, size_t n, size_t size,
			    int(__cdecl *cmp)(void *, const void *, const void *), void *ctx);
void *__cdecl crt__lfind(const void *key, const void *base, unsigned int *n, unsigned int size, crt_cmp_fn cmp);
void *__cdecl crt__lsearch(const void *key, void *base, unsigned int *n, unsigned int size, crt_cmp_fn cmp);
void *__cdecl crt__lfind_s(const void *key, const void *base, unsigned int *n, size_t size,
			   int(__cdecl *cmp)(void *, const void *, const void *), void *ctx);
void *__cdecl crt__lsearch_s(const void *key, void *base, unsigned int *n, size_t size,
			     int(__cdecl *cmp)(void *, const void *, const void *), void *ctx);
double __cdecl crt__wtof(const WCHAR *s);
int64_t __cdecl crt__wtoi64(const WCHAR *s);
int __cdecl crt__get_doserrno(unsigned int *value);
int __cdecl crt__set_doserrno(unsigned int value);
void __cdecl crt__sleep(unsigned int ms);
int __cdecl crt__heapchk(void);
int __cdecl crt__heapmin(void);
/* stdio_more.c */
struct crt_file *__cdecl crt__fsopen(const char *path, const char *mode, int share);
struct crt_file *__cdecl crt__wfsopen(const WCHAR *path, const WCHAR *mode, int share);
int __cdecl crt_freopen_s(struct crt_file **out, const char *path, const char *mode, struct crt_file *f);
int __cdecl crt__wfreopen_s(struct crt_file **out, const WCHAR *path, const WCHAR *mode, struct crt_file *f);
struct crt_file *__cdecl crt__wfdopen(int fd, const WCHAR *mode);
int __cdecl crt__flushall(void);
int __cdecl crt_clearerr_s(struct crt_file *f);
size_t __cdecl crt_fread_s(void *buf, size_t bufsize, size_t elsize, size_t count, struct crt_file *f);
char *__cdecl crt_gets_s(char *buf, size_t size);
WCHAR *__cdecl crt__getws_s(WCHAR *buf, size_t size);
void __cdecl crt__wperror(const WCHAR *s);
int __cdecl crt__getmaxstdio(void);
int __cdecl crt__setmaxstdio(int n);
/* mbconv_s.c */
int __cdecl crt_mbstowcs_s(size_t *converted, WCHAR *dst, size_t size, const char *src, size_t count);
int __cdecl crt_wcstombs_s(size_t *converted, char *dst, size_t size, const WCHAR *src, size_t count);
/* assert.c */
void __cdecl crt__assert(const char *expr, const char *file, unsigned int line) __attribute__((noreturn));
void __cdecl crt__wassert(const WCHAR *expr, const WCHAR *file, unsigned int line) __attribute__((noreturn));
/* tokens.c */
char *__cdecl crt_strtok_s(char *s, const char *delim, char **context);
WCHAR *__cdecl crt_wcstok_s(WCHAR *s, const WCHAR *delim, WCHAR **context);
WCHAR *__cdecl crt_wcstok(WCHAR *s, const WCHAR *delim);
WCHAR *__cdecl ucrt_wcstok(WCHAR *s, const WCHAR *delim, WCHAR **context);
/* errno.c */
char *__cdecl crt__strerror(const char *s);
/* tmpfile.c */
struct crt_file *__cdecl crt_tmpfile(void);
int __cdecl crt_tmpfile_s(struct crt_file **out);
/* popen.c */
struct crt_file *__cdecl crt__popen(const char *cmd, const char *mode);
struct crt_file *__cdecl crt__wpopen(const WCHAR *cmd, const WCHAR *mode);
int __cdecl crt__pclose(struct crt_file *f);
int __cdecl crt__wsystem(const WCHAR *cmd);

/* printf.c: one formatter for both runtimes.  The low bits are the UCRT's
 * __stdio_common_* option bits (_CRT_INTERNAL_PRINTF_*, corecrt_stdio_config.h);
 * the high ones say which runtime is formatting.  msvcrt.dll formats with 0. */
#define CRT_PF_LEGACY_VSPRINTF_NULL_TERMINATION 0x0001
#define CRT_PF_STANDARD_SNPRINTF_BEHAVIOR 0x0002
#define CRT_PF_LEGACY_WIDE_SPECIFIERS 0x0004
#define CRT_PF_LEGACY_MSVCRT_COMPATIBILITY 0x0008
#define CRT_PF_THREE_DIGIT_EXPONENTS 0x0010
#define CRT_PF_CALLER_OPTIONS 0x001f
#define CRT_PF_UCRT 0x10000         /* ucrtbase's rules: 2-digit exponents, "inf", %F, %n gated */
#define CRT_PF_COUNT_OUTPUT 0x20000 /* _set_printf_count_output(1): %n allowed */
#define CRT_PF_POSITIONAL 0x40000   /* the _p family: "%2$d" arguments */
#define CRT_PF_SECURE 0x80000       /* the _s family: %n refused */
/* Formats into a malloc'ed, terminated buffer of units; returns the length
 * or -1 (out of memory, or a refused conversion: errno EINVAL and the
 * invalid-parameter handler already called). */
int crt_pf_format(unsigned int opts, int wide, const void *fmt, __ms_va_list ap, void **text);
int crt_pf_stream(unsigned int opts, struct crt_file *f, int wide, const void *fmt, __ms_va_list ap);
/* ucrt_stdio.c: a __stdio_common_* options word as CRT_PF_* bits */
unsigned int ucrt_printf_opts(uint64_t options);
/* printf_p.c */
int __cdecl ucrt___stdio_common_vfprintf_p(uint64_t options, struct crt_file *f, const char *fmt, void *locale,
					    __ms_va_list ap);
int __cdecl ucrt___stdio_common_vfwprintf_p(uint64_t options, struct crt_file *f, const WCHAR *fmt, void *locale,
					     __ms_va_list ap);
int __cdecl ucrt___stdio_common_vsprintf_p(uint64_t options, char *buf, size_t size, const char *fmt, void *locale,
					    __ms_va_list ap);
int __cdecl ucrt___stdio_common_vswprintf_p(uint64_t options, WCHAR *buf, size_t size, const WCHAR *fmt,
					     void *locale, __ms_va_list ap);
int __cdecl crt__vfprintf_p(struct crt_file *f, const char *fmt, __ms_va_list ap);
int __cdecl crt__fprintf_p(struct crt_file *f, const char *fmt, ...);
int __cdecl crt__vprintf_p(const char *fmt, __ms_va_list ap);
int __cdecl crt__printf_p(const char *fmt, ...);
int __cdecl crt__vsprintf_p(char *buf, size_t size, const char *fmt, __ms_va_list ap);
int __cdecl crt__sprintf_p(char *buf, size_t size, const char *fmt, ...);
int __cdecl crt__vscprintf_p(const char *fmt, __ms_va_list ap);
int __cdecl crt__scprintf_p(const char *fmt, ...);
int __cdecl crt__vfwprintf_p(struct crt_file *f, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__fwprintf_p(struct crt_file *f, const WCHAR *fmt, ...);
int __cdecl crt__vwprintf_p(const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__wprintf_p(const WCHAR *fmt, ...);
int __cdecl crt__vswprintf_p(WCHAR *buf, size_t size, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__swprintf_p(WCHAR *buf, size_t size, const WCHAR *fmt, ...);
int __cdecl crt__vscwprintf_p(const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__scwprintf_p(const WCHAR *fmt, ...);
int __cdecl crt__vsprintf_p_l(char *buf, size_t size, const char *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vswprintf_p_l(WCHAR *buf, size_t size, const WCHAR *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vscprintf_p_l(const char *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vscwprintf_p_l(const WCHAR *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vfprintf_p_l(struct crt_file *f, const char *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vfwprintf_p_l(struct crt_file *f, const WCHAR *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vprintf_p_l(const char *fmt, void *locale, __ms_va_list ap);
int __cdecl crt__vwprintf_p_l(const WCHAR *fmt, void *locale, __ms_va_list ap);
/* scanf.c: one reader for both runtimes and both widths; input is a
 * string of len units ((size_t)-1: up to its terminator) or a stream.
 * The low bits are the UCRT's _CRT_INTERNAL_SCANF_* options. */
#define CRT_SF_SECURECRT 0x0001
#define CRT_SF_LEGACY_WIDE_SPECIFIERS 0x0002
#define CRT_SF_LEGACY_MSVCRT_COMPATIBILITY 0x0004
#define CRT_SF_CALLER_OPTIONS 0x0007
#define CRT_SF_UCRT 0x10000
int crt_scan(unsigned int opts, int wide, const void *input, size_t len, struct crt_file *file, const void *fmt,
	     __ms_va_list ap);
/* invalid.c: report an invalid parameter through the program's handler,
 * or end the process as the UCRT's default handler does. */
void crt_invalid_parameter_noinfo(void);
/* An invalid argument to a function that answers -1: the handler, then
 * errno EINVAL, then -1 for the caller to return. */
int crt_invalid_arg(void);

/* ---- exports ------------------------------------------------------------- */
/* startup.c */
extern char *crt__acmdln;
extern WCHAR *crt__wcmdln;
extern int crt___argc;
extern char **crt___argv;
extern WCHAR **crt___wargv;
extern char **crt__environ;
extern WCHAR **crt__wenviron;
extern char **crt___initenv;
extern WCHAR **crt___winitenv;
extern int crt__commode;
extern int crt__fmode;
extern unsigned int crt__osver, crt__winver, crt__winmajor, crt__winminor;
int __cdecl crt___getmainargs(int *argc, char ***argv, char ***envp, int expand_wildcards, int *startinfo);
int __cdecl crt___wgetmainargs(int *argc, WCHAR ***argv, WCHAR ***envp, int expand_wildcards, int *startinfo);
int *__cdecl crt___p___argc(void);
char ***__cdecl crt___p___argv(void);
WCHAR ***__cdecl crt___p___wargv(void);
char **__cdecl crt___p__acmdln(void);
WCHAR **__cdecl crt___p__wcmdln(void);
char ***__cdecl crt___p__environ(void);
WCHAR ***__cdecl crt___p__wenviron(void);
int *__cdecl crt___p__commode(void);
int *__cdecl crt___p__fmode(void);
void __cdecl crt___set_app_type(int type);
void __cdecl crt___setusermatherr(void *handler);
char *__cdecl crt_getenv(const char *name);
WCHAR *__cdecl crt__wgetenv(const WCHAR *name);
/* environ.c */
int __cdecl crt__putenv(const char *s);
int __cdecl crt__wputenv(const WCHAR *s);
int __cdecl crt__putenv_s(const char *name, const char *value);
int __cdecl crt__wputenv_s(const WCHAR *name, const WCHAR *value);
/* Split a Windows command line by the C runtime's rules (exposed for tests):
 * returns a NULL-terminated argv in one allocation. */
WCHAR **crt_split_command_line(const WCHAR *cmdline, int *argc);
/* Build the CRT's environment from a Windows environment block (tests). */
void crt_init_environment(const WCHAR *block);

/* exit.c */
void __cdecl crt__initterm(crt_pvfv *start, crt_pvfv *end);
int __cdecl crt__initterm_e(crt_pifv *start, crt_pifv *end);
crt_onexit_t __cdecl crt__onexit(crt_onexit_t func);
int __cdecl crt_atexit(crt_pvfv func);
crt_onexit_t __cdecl crt___dllonexit(crt_onexit_t func, crt_onexit_t **start, crt_onexit_t **end);
void __cdecl crt_exit(int code) __attribute__((noreturn));
void __cdecl crt__exit(int code) __attribute__((noreturn));
void __cdecl crt__cexit(void);
void __cdecl crt__c_exit(void);
void __cdecl crt__amsg_exit(int code) __attribute__((noreturn));
void __cdecl crt_abort(void) __attribute__((noreturn));
void __cdecl crt__register_thread_local_exe_atexit_callback(void *callback);

/* lock.c */
void __cdecl crt__lock(int locknum);
void __cdecl crt__unlock(int locknum);
CRITICAL_SECTION *crt_lock_section(int locknum);

/* errno.c */
int *__cdecl crt__errno(void);
unsigned int *__cdecl crt___doserrno(void);
char *__cdecl crt_strerror(int err);
WCHAR *__cdecl crt__wcserror(int err);
void __cdecl crt_perror(const char *s);
int __cdecl crt__get_errno(int *value);
int __cdecl crt__set_errno(int value);

/* signal.c */
crt_sighandler_t __cdecl crt_signal(int sig, crt_sighandler_t handler);
int __cdecl crt_raise(int sig);

/* locale.c */
unsigned int __cdecl crt____lc_codepage_func(void);
int __cdecl crt____mb_cur_max_func(void);
extern int crt___mb_cur_max;
int __cdecl crt___lconv_init(void);
char *__cdecl crt_setlocale(int category, const char *locale);
WCHAR *__cdecl crt__wsetlocale(int category, const WCHAR *locale);
struct crt_lconv *__cdecl crt_localeconv(void);

/* thread.c */
uintptr_t __cdecl crt__beginthreadex(void *security, unsigned int stack_size, crt_thread_proc proc,
				     void *arg, unsigned int flags, unsigned int *thread_id);
void __cdecl crt__endthreadex(unsigned int code) __attribute__((noreturn));

/* setjmp.S */
int __cdecl crt__setjmp(void *buf, void *frame);
void __cdecl crt_longjmp(void *buf, int value) __attribute__((noreturn));



/* heap.c */
void *__cdecl crt_malloc(size_t size);
void *__cdecl crt_calloc(size_t count, size_t size);
void __cdecl crt_free(void *p);
void *__cdecl crt_realloc(void *p, size_t size);
size_t __cdecl crt__msize(void *p);
char *__cdecl crt__strdup(const char *s);
WCHAR *__cdecl crt__wcsdup(const WCHAR *s);

/* printf.c */
int __cdecl crt_printf(const char *fmt, ...);
int __cdecl crt_fprintf(struct crt_file *f, const char *fmt, ...);
int __cdecl crt_vprintf(const char *fmt, __ms_va_list ap);
int __cdecl crt_vfprintf(struct crt_file *f, const char *fmt, __ms_va_list ap);
int __cdecl crt_sprintf(char *buf, const char *fmt, ...);
int __cdecl crt_vsprintf(char *buf, const char *fmt, __ms_va_list ap);
int __cdecl crt__snprintf(char *buf, size_t count, const char *fmt, ...);
int __cdecl crt__vsnprintf(char *buf, size_t count, const char *fmt, __ms_va_list ap);
int __cdecl crt_snprintf(char *buf, size_t count, const char *fmt, ...);
int __cdecl crt_vsnprintf(char *buf, size_t count, const char *fmt, __ms_va_list ap);
int __cdecl crt__scprintf(const char *fmt, ...);
int __cdecl crt__vscprintf(const char *fmt, __ms_va_list ap);
int __cdecl crt_wprintf(const WCHAR *fmt, ...);
int __cdecl crt_fwprintf(struct crt_file *f, const WCHAR *fmt, ...);
int __cdecl crt_vwprintf(const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt_vfwprintf(struct crt_file *f, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt_swprintf(WCHAR *buf, const WCHAR *fmt, ...);
int __cdecl crt_vswprintf(WCHAR *buf, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__snwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, ...);
int __cdecl crt__vsnwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, __ms_va_list ap);
int __cdecl crt__scwprintf(const WCHAR *fmt, ...);
int __cdecl crt__vscwprintf(const WCHAR *fmt, __ms_va_list ap);

/* stdio.c */
extern struct crt_file crt__iob[CRT_IOB_ENTRIES];
struct crt_file *__cdecl crt___iob_func(void);
void __cdecl crt__lock_file(struct crt_file *f);
void __cdecl crt__unlock_file(struct crt_file *f);
int __cdecl crt__filbuf(struct crt_file *f);
/* wstdio.c */
int __cdecl crt_fputws(const WCHAR *s, struct crt_file *f);
WCHAR *__cdecl crt_fgetws(WCHAR *buf, int n, struct crt_file *f);
WCHAR __cdecl crt_putwchar(WCHAR c);
WCHAR __cdecl crt_getwchar(void);
WCHAR __cdecl crt__fputwchar(WCHAR c);
WCHAR __cdecl crt__fgetwchar(void);
int __cdecl crt__fputchar(int c);
int __cdecl crt__fgetchar(void);
int __cdecl crt__putws(const WCHAR *s);
char *__cdecl crt_gets(char *buf);
WCHAR *__cdecl crt__getws(WCHAR *buf);
int __cdecl crt__putw(int v, struct crt_file *f);
int __cdecl crt__getw(struct crt_file *f);
int __cdecl crt__flsbuf(int c, struct crt_file *f);
struct crt_file *__cdecl crt_fopen(const char *path, const char *mode);
struct crt_file *__cdecl crt__wfopen(const WCHAR *path, const WCHAR *mode);
struct crt_file *__cdecl crt__fdopen(int fd, const char *mode);
int __cdecl crt_fclose(struct crt_file *f);
struct crt_file *__cdecl crt_freopen(const char *path, const char *mode, struct crt_file *f);
struct crt_file *__cdecl crt__wfreopen(const WCHAR *path, const WCHAR *mode, struct crt_file *f);
int __cdecl crt__fcloseall(void);
int __cdecl crt_fflush(struct crt_file *f);
size_t __cdecl crt_fwrite(const void *p, size_t size, size_t count, struct crt_file *f);
size_t __cdecl crt_fread(void *p, size_t size, size_t count, struct crt_file *f);
int __cdecl crt_fputc(int c, struct crt_file *f);
int __cdecl crt_putc(int c, struct crt_file *f);
int __cdecl crt_putchar(int c);
int __cdecl crt_fputs(const char *s, struct crt_file *f);
int __cdecl crt_puts(const char *s);
int __cdecl crt_fgetc(struct crt_file *f);
int __cdecl crt_getc(struct crt_file *f);
int __cdecl crt_getchar(void);
char *__cdecl crt_fgets(char *buf, int n, struct crt_file *f);
int __cdecl crt_ungetc(int c, struct crt_file *f);
WCHAR __cdecl crt_fputwc(WCHAR c, struct crt_file *f);
WCHAR __cdecl crt_putwc(WCHAR c, struct crt_file *f);
WCHAR __cdecl crt_fgetwc(struct crt_file *f);
WCHAR __cdecl crt_getwc(struct crt_file *f);
WCHAR __cdecl crt_ungetwc(WCHAR c, struct crt_file *f);
int __cdecl crt_setvbuf(struct crt_file *f, char *buf, int mode, size_t size);
void __cdecl crt_setbuf(struct crt_file *f, char *buf);
int __cdecl crt_fseek(struct crt_file *f, int off, int whence);
int __cdecl crt__fseeki64(struct crt_file *f, int64_t off, int whence);
int __cdecl crt_ftell(struct crt_file *f);
int64_t __cdecl crt__ftelli64(struct crt_file *f);
void __cdecl crt_rewind(struct crt_file *f);
int __cdecl crt_fgetpos(struct crt_file *f, crt_fpos_t *pos);
int __cdecl crt_fsetpos(struct crt_file *f, const crt_fpos_t *pos);
int __cdecl crt_feof(struct crt_file *f);
int __cdecl crt_ferror(struct crt_file *f);
void __cdecl crt_clearerr(struct crt_file *f);
int __cdecl crt__fileno(struct crt_file *f);

/* file.c */
int __cdecl crt__open(const char *path, int flags, ...);
int __cdecl crt__wopen(const WCHAR *path, int flags, ...);
int __cdecl crt__read(int fd, void *buf, unsigned int count);
int __cdecl crt__write(int fd, const void *buf, unsigned int count);
int __cdecl crt__close(int fd);
int __cdecl crt__lseek(int fd, int off, int whence);
int64_t __cdecl crt__lseeki64(int fd, int64_t off, int whence);
int64_t __cdecl crt__filelengthi64(int fd);
int __cdecl crt__filelength(int fd);
int __cdecl crt__fstat64(int fd, struct crt_stat64 *buf);
int __cdecl crt__isatty(int fd);
int __cdecl crt__setmode(int fd, int mode);
int __cdecl crt_remove(const char *path);

/* wrappers.c */
#define X(ret, name, params, args) ret __cdecl crt_##name params;
#include "msvcrt/wrappers.h"
#undef X
/* math.c */
#define M(ret, name, params, args) ret __cdecl crt_##name params;
#include "msvcrt/mathfn.h"
#undef M
double __cdecl crt_scalbln(double x, int n);
float __cdecl crt_scalblnf(float x, int n);
int __cdecl crt_lrintf(float x);
int __cdecl crt_lroundf(float x);
int64_t __cdecl crt_llrintf(float x);
int64_t __cdecl crt_llroundf(float x);
float __cdecl crt_nanf(const char *tag);

/* string.c */
int __cdecl crt_strcoll(const char *a, const char *b);
size_t __cdecl crt_strxfrm(char *d, const char *s, size_t n);
int __cdecl crt__stricmp(const char *a, const char *b);
int __cdecl crt__strnicmp(const char *a, const char *b, size_t n);
char *__cdecl crt__strlwr(char *s);
char *__cdecl crt__strupr(char *s);
char *__cdecl crt_strtok(char *s, const char *delim);
int __cdecl crt_tolower(int c);
int __cdecl crt_toupper(int c);
int __cdecl crt_isalpha(int c);
int __cdecl crt_isdigit(int c);
int __cdecl crt_isalnum(int c);
int __cdecl crt_isspace(int c);
int __cdecl crt_isupper(int c);
int __cdecl crt_islower(int c);
int __cdecl crt_isxdigit(int c);
int __cdecl crt_ispunct(int c);
int __cdecl crt_isprint(int c);
int __cdecl crt_isgraph(int c);
int __cdecl crt_iscntrl(int c);
int __cdecl crt_isascii(int c);
int __cdecl crt__isctype(int c, int mask);
const unsigned short *__cdecl crt___pctype_func(void);
extern const unsigned short *crt__pctype;

/* wstring.c */
size_t __cdecl crt_wcslen(const WCHAR *s);
size_t __cdecl crt_wcsnlen(const WCHAR *s, size_t n);
int __cdecl crt_wcscmp(const WCHAR *a, const WCHAR *b);
int __cdecl crt_wcsncmp(const WCHAR *a, const WCHAR *b, size_t n);
WCHAR *__cdecl crt_wcscpy(WCHAR *d, const WCHAR *s);
WCHAR *__cdecl crt_wcsncpy(WCHAR *d, const WCHAR *s, size_t n);
WCHAR *__cdecl crt_wcscat(WCHAR *d, const WCHAR *s);
WCHAR *__cdecl crt_wcsncat(WCHAR *d, const WCHAR *s, size_t n);
WCHAR *__cdecl crt_wcschr(const WCHAR *s, WCHAR c);
WCHAR *__cdecl crt_wcsrchr(const WCHAR *s, WCHAR c);
WCHAR *__cdecl crt_wcsstr(const WCHAR *h, const WCHAR *n);
size_t __cdecl crt_wcsspn(const WCHAR *s, const WCHAR *a);
size_t __cdecl crt_wcscspn(const WCHAR *s, const WCHAR *a);
WCHAR *__cdecl crt_wcspbrk(const WCHAR *s, const WCHAR *a);
int __cdecl crt__wcsicmp(const WCHAR *a, const WCHAR *b);
int __cdecl crt__wcsnicmp(const WCHAR *a, const WCHAR *b, size_t n);
int __cdecl crt_wcscoll(const WCHAR *a, const WCHAR *b);
size_t __cdecl crt_wcsxfrm(WCHAR *d, const WCHAR *s, size_t n);
WCHAR *__cdecl crt__wcslwr(WCHAR *s);
WCHAR *__cdecl crt__wcsupr(WCHAR *s);
WCHAR __cdecl crt_towlower(WCHAR c);
WCHAR __cdecl crt_towupper(WCHAR c);
int __cdecl crt_iswctype(WCHAR c, unsigned short mask);
int __cdecl crt_iswalpha(WCHAR c);
int __cdecl crt_iswdigit(WCHAR c);
int __cdecl crt_iswspace(WCHAR c);
int __cdecl crt_iswupper(WCHAR c);
int __cdecl crt_iswlower(WCHAR c);
int __cdecl crt_iswalnum(WCHAR c);
int __cdecl crt_iswxdigit(WCHAR c);
int __cdecl crt_iswpunct(WCHAR c);
int __cdecl crt_iswprint(WCHAR c);
int __cdecl crt_iswcntrl(WCHAR c);
size_t __cdecl crt_wcstombs(char *d, const WCHAR *s, size_t n);
size_t __cdecl crt_mbstowcs(WCHAR *d, const char *s, size_t n);

/* stdlib.c */
int __cdecl crt_atoi(const char *s);
int __cdecl crt_atol(const char *s);
int64_t __cdecl crt__atoi64(const char *s);
double __cdecl crt_atof(const char *s);
int __cdecl crt_strtol(const char *s, char **end, int base);
unsigned int __cdecl crt_strtoul(const char *s, char **end, int base);
int64_t __cdecl crt__strtoi64(const char *s, char **end, int base);
uint64_t __cdecl crt__strtoui64(const char *s, char **end, int base);
double __cdecl crt_strtod(const char *s, char **end);
int __cdecl crt_wcstol(const WCHAR *s, WCHAR **end, int base);
unsigned int __cdecl crt_wcstoul(const WCHAR *s, WCHAR **end, int base);
double __cdecl crt_wcstod(const WCHAR *s, WCHAR **end);
int __cdecl crt__wtoi(const WCHAR *s);
int __cdecl crt__wtol(const WCHAR *s);
int __cdecl crt_labs(int x);
int64_t __cdecl crt__abs64(int64_t x);
char *__cdecl crt__itoa(int v, char *buf, int radix);
char *__cdecl crt__ltoa(int v, char *buf, int radix);
char *__cdecl crt__ultoa(unsigned int v, char *buf, int radix);
char *__cdecl crt__i64toa(int64_t v, char *buf, int radix);
char *__cdecl crt__ui64toa(uint64_t v, char *buf, int radix);
WCHAR *__cdecl crt__itow(int v, WCHAR *buf, int radix);
void __cdecl crt_qsort(void *base, size_t n, size_t size, crt_cmp_fn cmp);
void *__cdecl crt_bsearch(const void *key, const void *base, size_t n, size_t size, crt_cmp_fn cmp);
int __cdecl crt_rand(void);
void __cdecl crt_srand(unsigned int seed);

/* time.c */
crt_time64 __cdecl crt__time64(crt_time64 *t);
int __cdecl crt__time32(int *t);
int __cdecl crt_clock(void);
struct crt_tm *__cdecl crt__localtime64(const crt_time64 *t);
struct crt_tm *__cdecl crt__gmtime64(const crt_time64 *t);
crt_time64 __cdecl crt__mktime64(struct crt_tm *tm);
double __cdecl crt__difftime64(crt_time64 a, crt_time64 b);
size_t __cdecl crt_strftime(char *buf, size_t max, const char *fmt, const struct crt_tm *tm);
/* tzset.c: the time zone variables (Windows' long is 32-bit: int here),
 * set by _tzset, and on first use */
extern int crt__daylight, crt__timezone, crt__dstbias;
extern char *crt__tzname[2];
void __cdecl crt__tzset(void);
int *__cdecl crt___daylight(void);
int *__cdecl crt___timezone(void);
int *__cdecl crt___dstbias(void);
char **__cdecl crt___tzname(void);
int __cdecl crt__get_dstbias(int *seconds);
int __cdecl crt__get_tzname(size_t *len, char *buf, size_t size, int index);
size_t __cdecl crt_wcsftime(WCHAR *buf, size_t max, const WCHAR *fmt, const struct crt_tm *tm);

/* invalid.c */
typedef void(__cdecl *crt_invalid_handler)(const WCHAR *expr, const WCHAR *func, const WCHAR *file,
					   unsigned int line, uintptr_t reserved);
crt_invalid_handler __cdecl crt__set_invalid_parameter_handler(crt_invalid_handler handler);
crt_invalid_handler __cdecl crt__get_invalid_parameter_handler(void);
void __cdecl crt__invalid_parameter(const WCHAR *expr, const WCHAR *func, const WCHAR *file, unsigned int line,
				    uintptr_t reserved);
void __cdecl crt__invalid_parameter_noinfo(void);
void __cdecl crt__invalid_parameter_noinfo_noreturn(void) __attribute__((noreturn));

/* secure.c */
int __cdecl crt_memcpy_s(void *dst, size_t size, const void *src, size_t count);
int __cdecl crt_memmove_s(void *dst, size_t size, const void *src, size_t count);
int __cdecl crt_strcpy_s(char *dst, size_t size, const char *src);
int __cdecl crt_strcat_s(char *dst, size_t size, const char *src);
int __cdecl crt_strncpy_s(char *dst, size_t size, const char *src, size_t count);
int __cdecl crt_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src);
int __cdecl crt_msvcrt_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src);
int __cdecl crt_wcscat_s(WCHAR *dst, size_t size, const WCHAR *src);
int __cdecl crt_wcsncpy_s(WCHAR *dst, size_t size, const WCHAR *src, size_t count);
int __cdecl crt_getenv_s(size_t *needed, char *buf, size_t size, const char *name);
int __cdecl crt__dupenv_s(char **out, size_t *len, const char *name);
int __cdecl crt__wgetenv_s(size_t *needed, WCHAR *buf, size_t size, const WCHAR *name);
int __cdecl crt__wdupenv_s(WCHAR **out, size_t *len, const WCHAR *name);

/* mbconv.c */
size_t __cdecl crt_mbrtowc(WCHAR *out, const char *s, size_t n, crt_mbstate_t *state);
size_t __cdecl crt_mbrlen(const char *s, size_t n, crt_mbstate_t *state);
size_t __cdecl crt_wcrtomb(char *out, WCHAR wc, crt_mbstate_t *state);

/* heap.c, time.c: functions only ucrtbase exports so far */
void *__cdecl crt__aligned_malloc(size_t size, size_t align);
void __cdecl crt__aligned_free(void *p);
void *__cdecl crt__aligned_realloc(void *p, size_t size, size_t align);
void *__cdecl crt__recalloc(void *p, size_t count, size_t size);
int __cdecl crt__callnewh(size_t size);
int __cdecl crt__localtime64_s(struct crt_tm *out, const crt_time64 *t);
int __cdecl crt__gmtime64_s(struct crt_tm *out, const crt_time64 *t);
int __cdecl crt__get_timezone(int *seconds);
char *__cdecl crt_asctime(const struct crt_tm *tm);
char *__cdecl crt__ctime64(const crt_time64 *t);
int __cdecl crt__get_daylight(int *hours);
int __cdecl crt__timespec64_get(struct crt_timespec64 *ts, int base);

/* dir.c */
WCHAR *__cdecl crt__wgetcwd(WCHAR *buf, int size);
char *__cdecl crt__getcwd(char *buf, int size);
int __cdecl crt__getdrive(void);
int __cdecl crt__wchdir(const WCHAR *path);
int __cdecl crt__wmkdir(const WCHAR *path);
int __cdecl crt__wrmdir(const WCHAR *path);
int __cdecl crt__wunlink(const WCHAR *path);
int __cdecl crt__waccess(const WCHAR *path, int mode);
int __cdecl crt__chdir(const char *path);
int __cdecl crt__mkdir(const char *path);
int __cdecl crt__rmdir(const char *path);
int __cdecl crt__unlink(const char *path);
int __cdecl crt__access(const char *path, int mode);
int __cdecl crt_rename(const char *from, const char *to);
int __cdecl crt__wrename(const WCHAR *from, const WCHAR *to);
char *__cdecl crt__fullpath(char *out, const char *rel, size_t size);
int __cdecl crt__get_pgmptr(char **out);
int __cdecl crt__get_wpgmptr(WCHAR **out);

/* numconv.c */
float __cdecl crt_strtof(const char *s, char **end);
float __cdecl crt_wcstof(const WCHAR *s, WCHAR **end);
int64_t __cdecl crt__wcstoi64(const WCHAR *s, WCHAR **end, int base);
uint64_t __cdecl crt__wcstoui64(const WCHAR *s, WCHAR **end, int base);
int64_t __cdecl crt_atoll(const char *s);

/* utility.c */
struct crt_div_t {
	int quot, rem;
};
struct crt_lldiv_t {
	int64_t quot, rem;
};
unsigned short __cdecl crt__byteswap_ushort(unsigned short v);
unsigned int __cdecl crt__byteswap_ulong(unsigned int v);
uint64_t __cdecl crt__byteswap_uint64(uint64_t v);
unsigned int __cdecl crt__rotl(unsigned int v, int shift);
unsigned int __cdecl crt__rotr(unsigned int v, int shift);
uint64_t __cdecl crt__rotl64(uint64_t v, int shift);
uint64_t __cdecl crt__rotr64(uint64_t v, int shift);
int64_t __cdecl crt_llabs(int64_t v);
struct crt_div_t __cdecl crt_div(int num, int den);
struct crt_lldiv_t __cdecl crt_lldiv(int64_t num, int64_t den);
short __cdecl crt__dclass(double x);
short __cdecl crt__fdclass(float x);
short __cdecl crt__dtest(const double *x);
short __cdecl crt__fdtest(const float *x);
int __cdecl crt__dsign(double x);
int __cdecl crt__finite(double x);
int __cdecl crt__isnan(double x);
double __cdecl crt__chgsign(double x);
double __cdecl crt_nan(const char *tag);
int __cdecl crt_lround(double x);
int64_t __cdecl crt_llround(double x);
int __cdecl crt_lrint(double x);
int64_t __cdecl crt_llrint(double x);
int __cdecl crt_rand_s(unsigned int *out);
int __cdecl crt__getpid(void);
unsigned int __cdecl crt__set_abort_behavior(unsigned int flags, unsigned int mask);

/* ucrt_stdio.c: the UCRT's stdio entry points */
int __cdecl ucrt_fopen_s(struct crt_file **out, const char *path, const char *mode);
int __cdecl ucrt__wfopen_s(struct crt_file **out, const WCHAR *path, const WCHAR *mode);
struct crt_file *__cdecl ucrt___acrt_iob_func(unsigned int index);
int __cdecl ucrt___stdio_common_vfprintf(uint64_t options, struct crt_file *f, const char *fmt, void *locale,
					  __ms_va_list ap);
int __cdecl ucrt___stdio_common_vfwprintf(uint64_t options, struct crt_file *f, const WCHAR *fmt, void *locale,
					   __ms_va_list ap);
int __cdecl ucrt___stdio_common_vsprintf(uint64_t options, char *buf, size_t count, const char *fmt, void *locale,
					  __ms_va_list ap);
int __cdecl ucrt___stdio_common_vswprintf(uint64_t options, WCHAR *buf, size_t count, const WCHAR *fmt,
					   void *locale, __ms_va_list ap);
int __cdecl ucrt___stdio_common_vsprintf_s(uint64_t options, char *buf, size_t size, const char *fmt, void *locale,
					    __ms_va_list ap);
int __cdecl ucrt___stdio_common_vswprintf_s(uint64_t options, WCHAR *buf, size_t size, const WCHAR *fmt,
					     void *locale, __ms_va_list ap);
int __cdecl ucrt___stdio_common_vsnprintf_s(uint64_t options, char *buf, size_t size, size_t count, const char *fmt,
					     void *locale, __ms_va_list ap);
int __cdecl ucrt___stdio_common_vsnwprintf_s(uint64_t options, WCHAR *buf, size_t size, size_t count,
					      const WCHAR *fmt, void *locale, __ms_va_list ap);
int __cdecl ucrt___stdio_common_vsscanf(uint64_t options, const char *input, size_t len, const char *fmt,
					 void *locale, __ms_va_list ap);
int __cdecl ucrt___stdio_common_vswscanf(uint64_t options, const WCHAR *input, size_t len, const WCHAR *fmt,
					  void *locale, __ms_va_list ap);
int __cdecl ucrt___stdio_common_vfscanf(uint64_t options, struct crt_file *f, const char *fmt, void *locale,
					 __ms_va_list ap);
int __cdecl ucrt___stdio_common_vfwscanf(uint64_t options, struct crt_file *f, const WCHAR *fmt, void *locale,
					  __ms_va_list ap);
int __cdecl ucrt__get_printf_count_output(void);
int __cdecl ucrt__set_printf_count_output(int enable);

/* ucrt_startup.c: the UCRT's start-up and exit entry points */
typedef struct {
	crt_pvfv *first, *last, *end;
} crt_onexit_table;
int __cdecl ucrt__configure_narrow_argv(int mode);
int __cdecl ucrt__configure_wide_argv(int mode);
int __cdecl ucrt__initialize_narrow_environment(void);
int __cdecl ucrt__initialize_wide_environment(void);
char **__cdecl ucrt__get_initial_narrow_environment(void);
WCHAR **__cdecl ucrt__get_initial_wide_environment(void);
void __cdecl ucrt__set_app_type(int type);
int __cdecl ucrt__set_fmode(int mode);
int __cdecl ucrt__get_fmode(int *mode);
int __cdecl ucrt__set_new_mode(int mode);
int __cdecl ucrt__configthreadlocale(int mode);
int __cdecl ucrt__crt_atexit(crt_pvfv func);
int __cdecl ucrt__crt_at_quick_exit(crt_pvfv func);
void __cdecl ucrt_quick_exit(int code) __attribute__((noreturn));
int __cdecl ucrt__initialize_onexit_table(crt_onexit_table *table);
int __cdecl ucrt__register_onexit_function(crt_onexit_table *table, crt_pvfv func);
int __cdecl ucrt__execute_onexit_table(crt_onexit_table *table);
void __cdecl ucrt__register_thread_local_exe_atexit_callback(void *callback);
int __cdecl ucrt__seh_filter_exe(DWORD code, EXCEPTION_POINTERS *ptrs);
int __cdecl ucrt__seh_filter_dll(DWORD code, EXCEPTION_POINTERS *ptrs);
void __cdecl ucrt_terminate(void) __attribute__((noreturn));

/* conio.c */
int __cdecl crt__kbhit(void);
int __cdecl crt__getch(void);
int __cdecl crt__getche(void);
WCHAR __cdecl crt__getwch(void);
WCHAR __cdecl crt__getwche(void);
int __cdecl crt__putch(int c);
WCHAR __cdecl crt__putwch(WCHAR c);
int __cdecl crt__ungetch(int c);
WCHAR __cdecl crt__ungetwch(WCHAR c);

#endif
