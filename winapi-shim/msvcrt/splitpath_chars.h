/* _splitpath and _makepath (and their _s forms) for one character type,
 * included twice by splitpath.c: CH char or WCHAR, NAME(n, w) the export
 * for each.  Paths are only taken apart or put together here: no file is
 * looked at. */

/* Copies src[0..n) to dst (size units with its NUL): 0, or ERANGE when it
 * does not fit. */
static int NAME(put_part, wput_part)(CH *dst, size_t size, const CH *src, size_t n)
{
	if (!dst)
		return 0;
	if (n + 1 > size) {
		if (size)
			dst[0] = 0;
		return ERANGE;
	}
	memcpy(dst, src, n * sizeof(CH));
	dst[n] = 0;
	return 0;
}

/* The parts of path: drive "X:", folder up to its last separator, name,
 * extension from the name's last dot.  msvcrt cuts each part to its
 * _MAX_ size; the _s form fails with ERANGE instead (every part emptied). */
static int NAME(split, wsplit)(const CH *path, CH *drive, size_t dsz, CH *dir, size_t dirsz, CH *fname,
			       size_t fsz, CH *ext, size_t esz, bool secure)
{
	const CH *p = path, *last_sep = NULL, *dot = NULL, *end;
	size_t n[4];
	const CH *from[4];
	CH *to[4] = { drive, dir, fname, ext };
	size_t sizes[4] = { dsz, dirsz, fsz, esz };

	if (p[0] && p[1] == ':') {
		from[0] = p;
		n[0] = 2;
		p += 2;
	} else {
		from[0] = p;
		n[0] = 0;
	}
	for (end = p; *end; end++) {
		if (*end == '\\' || *end == '/')
			last_sep = end;
		else if (*end == '.')
			dot = end;
	}
	from[1] = p;
	n[1] = last_sep ? (size_t)(last_sep + 1 - p) : 0;
	from[2] = last_sep ? last_sep + 1 : p;
	if (dot && dot < from[2])
		dot = NULL;
	n[2] = (size_t)((dot ? dot : end) - from[2]);
	from[3] = dot ? dot : end;
	n[3] = (size_t)(end - from[3]);
	for (int i = 0; i < 4; i++) {
		if (!secure && n[i] + 1 > sizes[i])
			n[i] = sizes[i] - 1; /* cut, as msvcrt does */
		if (NAME(put_part, wput_part)(to[i], sizes[i], from[i], n[i])) {
			for (int k = 0; k < 4; k++)
				if (to[k] && sizes[k])
					to[k][0] = 0;
			return ERANGE;
		}
	}
	return 0;
}

void __cdecl NAME(crt__splitpath, crt__wsplitpath)(const CH *path, CH *drive, CH *dir, CH *fname, CH *ext)
{
	if (!path) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return;
	}
	NAME(split, wsplit)(path, drive, CRT_MAX_DRIVE, dir, CRT_MAX_DIR, fname, CRT_MAX_FNAME, ext, CRT_MAX_EXT,
			    false);
}

int __cdecl NAME(crt__splitpath_s, crt__wsplitpath_s)(const CH *path, CH *drive, size_t dsz, CH *dir, size_t dirsz,
						      CH *fname, size_t fsz, CH *ext, size_t esz)
{
	int err;

	/* a part asked for with no room, or room given for none */
	if (!path || (!drive) != (!dsz) || (!dir) != (!dirsz) || (!fname) != (!fsz) || (!ext) != (!esz)) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	err = NAME(split, wsplit)(path, drive, dsz, dir, dirsz, fname, fsz, ext, esz, true);
	if (err) {
		crt_set_errno(err);
		crt_invalid_parameter_noinfo();
	}
	return err;
}

/* drive (its letter and ':'), dir (with a separator added), fname, ext
 * (with a '.' added) into path[size]: 0, or ERANGE when it does not fit. */
static int NAME(make, wmake)(CH *path, size_t size, const CH *drive, const CH *dir, const CH *fname, const CH *ext)
{
	size_t o = 0;
	CH sep_or_dot;

#define PUT(c)                                   \
	do {                                     \
		if (o + 1 >= size)               \
			goto range;              \
		path[o++] = (c);                 \
	} while (0)
	if (drive && *drive) {
		PUT(drive[0]);
		PUT(':');
	}
	if (dir && *dir) {
		const CH *d = dir;

		while (*d)
			PUT(*d++);
		sep_or_dot = d[-1];
		if (sep_or_dot != '\\' && sep_or_dot != '/')
			PUT('\\');
	}
	if (fname)
		for (const CH *f = fname; *f; f++)
			PUT(*f);
	if (ext && *ext) {
		if (*ext != '.')
			PUT('.');
		for (const CH *e = ext; *e; e++)
			PUT(*e);
	}
	path[o] = 0;
	return 0;
range:
	path[0] = 0;
	return ERANGE;
#undef PUT
}

void __cdecl NAME(crt__makepath, crt__wmakepath)(CH *path, const CH *drive, const CH *dir, const CH *fname,
						 const CH *ext)
{
	if (!path) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return;
	}
	NAME(make, wmake)(path, (size_t)-1, drive, dir, fname, ext);
}

int __cdecl NAME(crt__makepath_s, crt__wmakepath_s)(CH *path, size_t size, const CH *drive, const CH *dir,
						    const CH *fname, const CH *ext)
{
	int err;

	if (!path || !size) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	err = NAME(make, wmake)(path, size, drive, dir, fname, ext);
	if (err) {
		crt_set_errno(err);
		crt_invalid_parameter_noinfo();
	}
	return err;
}
