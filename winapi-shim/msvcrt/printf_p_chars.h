/* The positional printf entry points for one character type, included
 * twice by printf_p.c: once with CH char, once with CH WCHAR.  The
 * includer defines
 *   CH           the character type
 *   WIDE         0 for char, 1 for WCHAR (printf.c's engine argument)
 *   NAME(n, w)   n for char, w for WCHAR: each export keeps its name
 * and to_buffer, to_stream and count (printf_p.c).  No include guard:
 * that is the point. */

/* ---- ucrtbase ------------------------------------------------------------ */

int __cdecl NAME(ucrt___stdio_common_vfprintf_p, ucrt___stdio_common_vfwprintf_p)(uint64_t options, struct crt_file *f,
										   const CH *fmt, void *locale,
										   __ms_va_list ap)
{
	return to_stream(ucrt_printf_opts(options), f, WIDE, fmt, ap);
}

int __cdecl NAME(ucrt___stdio_common_vsprintf_p, ucrt___stdio_common_vswprintf_p)(uint64_t options, CH *buf, size_t size,
										   const CH *fmt, void *locale,
										   __ms_va_list ap)
{
	return to_buffer(ucrt_printf_opts(options), buf, size, WIDE, fmt, ap);
}

/* ---- msvcrt -------------------------------------------------------------- */

int __cdecl NAME(crt__vfprintf_p, crt__vfwprintf_p)(struct crt_file *f, const CH *fmt, __ms_va_list ap)
{
	return to_stream(0, f, WIDE, fmt, ap);
}

int __cdecl NAME(crt__fprintf_p, crt__fwprintf_p)(struct crt_file *f, const CH *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_stream(0, f, WIDE, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl NAME(crt__vprintf_p, crt__vwprintf_p)(const CH *fmt, __ms_va_list ap)
{
	return to_stream(0, crt_stdout(), WIDE, fmt, ap);
}

int __cdecl NAME(crt__printf_p, crt__wprintf_p)(const CH *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_stream(0, crt_stdout(), WIDE, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl NAME(crt__vsprintf_p, crt__vswprintf_p)(CH *buf, size_t size, const CH *fmt, __ms_va_list ap)
{
	return to_buffer(0, buf, size, WIDE, fmt, ap);
}

int __cdecl NAME(crt__sprintf_p, crt__swprintf_p)(CH *buf, size_t size, const CH *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_buffer(0, buf, size, WIDE, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl NAME(crt__vscprintf_p, crt__vscwprintf_p)(const CH *fmt, __ms_va_list ap)
{
	return count(WIDE, fmt, ap);
}

int __cdecl NAME(crt__scprintf_p, crt__scwprintf_p)(const CH *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = count(WIDE, fmt, ap);
	__ms_va_end(ap);
	return r;
}

/* The _l forms: the CRT has the "C" locale only, whichever is passed. */
int __cdecl NAME(crt__vsprintf_p_l, crt__vswprintf_p_l)(CH *buf, size_t size, const CH *fmt, void *locale,
							 __ms_va_list ap)
{
	return to_buffer(0, buf, size, WIDE, fmt, ap);
}

int __cdecl NAME(crt__vscprintf_p_l, crt__vscwprintf_p_l)(const CH *fmt, void *locale, __ms_va_list ap)
{
	return count(WIDE, fmt, ap);
}

int __cdecl NAME(crt__vfprintf_p_l, crt__vfwprintf_p_l)(struct crt_file *f, const CH *fmt, void *locale,
							 __ms_va_list ap)
{
	return to_stream(0, f, WIDE, fmt, ap);
}

int __cdecl NAME(crt__vprintf_p_l, crt__vwprintf_p_l)(const CH *fmt, void *locale, __ms_va_list ap)
{
	return to_stream(0, crt_stdout(), WIDE, fmt, ap);
}

#undef CH
#undef WIDE
#undef NAME
