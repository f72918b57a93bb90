/* ucrtbase's stdio entry points for one character type, included twice
 * by ucrt_stdio.c: once with CH char, once with CH WCHAR.  The includer
 * defines
 *   CH           the character type
 *   WIDE         0 for char, 1 for WCHAR (printf.c's and scanf.c's argument)
 *   NAME(n, w)   n for char, w for WCHAR: each export keeps its name
 *   CH_FOPEN     crt_fopen or crt__wfopen
 * and common_vsprintf, common_vsnprintf_s, MUST_FIT and scan_opts
 * (ucrt_stdio.c).  No include guard: that is the point. */

int __cdecl NAME(ucrt___stdio_common_vfprintf, ucrt___stdio_common_vfwprintf)(uint64_t options, struct crt_file *f,
									       const CH *fmt, void *locale,
									       __ms_va_list ap)
{
	if (!f || !fmt)
		return crt_invalid_arg();
	return crt_pf_stream(ucrt_printf_opts(options), f, WIDE, fmt, ap);
}

int __cdecl NAME(ucrt___stdio_common_vsprintf, ucrt___stdio_common_vswprintf)(uint64_t options, CH *buf, size_t count,
									       const CH *fmt, void *locale,
									       __ms_va_list ap)
{
	return common_vsprintf(options, buf, count, WIDE, fmt, ap);
}

int __cdecl NAME(ucrt___stdio_common_vsprintf_s, ucrt___stdio_common_vswprintf_s)(uint64_t options, CH *buf,
										   size_t size, const CH *fmt,
										   void *locale, __ms_va_list ap)
{
	return common_vsnprintf_s(options, buf, size, MUST_FIT, WIDE, fmt, ap);
}

int __cdecl NAME(ucrt___stdio_common_vsnprintf_s, ucrt___stdio_common_vsnwprintf_s)(uint64_t options, CH *buf,
										     size_t size, size_t count,
										     const CH *fmt, void *locale,
										     __ms_va_list ap)
{
	return common_vsnprintf_s(options, buf, size, count == MUST_FIT ? size : count, WIDE, fmt, ap);
}

int __cdecl NAME(ucrt___stdio_common_vsscanf, ucrt___stdio_common_vswscanf)(uint64_t options, const CH *input,
									     size_t len, const CH *fmt, void *locale,
									     __ms_va_list ap)
{
	if (!input || !fmt)
		return crt_invalid_arg();
	return crt_scan(scan_opts(options), WIDE, input, len, NULL, fmt, ap);
}

int __cdecl NAME(ucrt___stdio_common_vfscanf, ucrt___stdio_common_vfwscanf)(uint64_t options, struct crt_file *f,
									     const CH *fmt, void *locale,
									     __ms_va_list ap)
{
	int r;

	if (!f || !fmt)
		return crt_invalid_arg();
	crt__lock_file(f);
	r = crt_scan(scan_opts(options), WIDE, NULL, 0, f, fmt, ap);
	crt__unlock_file(f);
	return r;
}

int __cdecl NAME(ucrt_fopen_s, ucrt__wfopen_s)(struct crt_file **out, const CH *path, const CH *mode)
{
	if (!out || !path || !mode) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	*out = CH_FOPEN(path, mode);
	if (*out)
		return 0;
	return *crt__errno() ? *crt__errno() : EINVAL;
}

#undef CH
#undef WIDE
#undef NAME
#undef CH_FOPEN
