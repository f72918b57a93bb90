/* msvcrt functions that are glibc's exactly, up to the calling
 * convention: X(return type, name, parameter list, argument list).
 * Expanded into prototypes by msvcrt_private.h and into ms_abi wrappers
 * by wrappers.c.  Nothing here may involve long, wchar_t or callbacks. */
X(void *, memcpy, (void *d, const void *s, size_t n), (d, s, n))
X(void *, memmove, (void *d, const void *s, size_t n), (d, s, n))
X(void *, memset, (void *d, int c, size_t n), (d, c, n))
X(int, memcmp, (const void *a, const void *b, size_t n), (a, b, n))
X(void *, memchr, (const void *s, int c, size_t n), (s, c, n))
X(size_t, strlen, (const char *s), (s))
X(int, strcmp, (const char *a, const char *b), (a, b))
X(int, strncmp, (const char *a, const char *b, size_t n), (a, b, n))
X(char *, strcpy, (char *d, const char *s), (d, s))
X(char *, strncpy, (char *d, const char *s, size_t n), (d, s, n))
X(char *, strcat, (char *d, const char *s), (d, s))
X(char *, strncat, (char *d, const char *s, size_t n), (d, s, n))
X(char *, strchr, (const char *s, int c), (s, c))
X(char *, strrchr, (const char *s, int c), (s, c))
X(char *, strstr, (const char *h, const char *n), (h, n))
X(size_t, strspn, (const char *s, const char *a), (s, a))
X(size_t, strcspn, (const char *s, const char *a), (s, a))
X(char *, strpbrk, (const char *s, const char *a), (s, a))
X(size_t, strnlen, (const char *s, size_t n), (s, n))
X(int, abs, (int x), (x))
