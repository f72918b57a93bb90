/* FormatMessageA/W (winbase.h).
 *
 * Sources: FORMAT_MESSAGE_FROM_STRING, and FROM_SYSTEM from the table in
 * sysmsg.c (English only: language 0, LANG_NEUTRAL and English ids).
 * Message tables in modules (FROM_HMODULE alone) are not read.
 * Inserts %1..%99 with an optional !printf-format! (s, S, c, C, d, i, u,
 * x, X, o, p, e, f, g; h, l, ll, w, I, I32, I64 sizes; '*' width and
 * precision take the following arguments), from a va_list or, with
 * FORMAT_MESSAGE_ARGUMENT_ARRAY, a DWORD_PTR array; %0 ends the message,
 * %n %r %t %% %. %! %space are escapes.  FORMAT_MESSAGE_MAX_WIDTH_MASK
 * bits turn the text's own line breaks into spaces; lines are not
 * re-wrapped at a given width. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "kernel32/sysmsg.h"

struct out {
	WCHAR *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct out *o, const WCHAR *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		WCHAR *b = realloc(o->buf, cap * sizeof(WCHAR));

		if (!b) {
			o->oom = true;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n * sizeof(WCHAR));
	o->len += n;
	o->buf[o->len] = 0;
}

static void put_ascii(struct out *o, const char *s)
{
	for (; *s; s++) {
		WCHAR c = (unsigned char)*s;

		put(o, &c, 1);
	}
}

struct args {
	const DWORD_PTR *slots; /* NULL: no arguments */
	bool ansi;              /* FormatMessageA: %s is a char* */
};

/* Appends a string insert with printf's width/precision/'-' rules. */
static void put_padded(struct out *o, const WCHAR *s, size_t n, int width, bool left)
{
	static const WCHAR space = ' ';

	if (!left)
		for (int i = (int)n; i < width; i++)
			put(o, &space, 1);
	put(o, s, n);
	if (left)
		for (int i = (int)n; i < width; i++)
			put(o, &space, 1);
}

/* One insert: index (1-based), spec between the '!'s (or "s").  Returns
 * false for an unusable format. */
static bool format_insert(struct out *o, const struct args *a, unsigned int index, const WCHAR *spec,
			  size_t spec_len)
{
	char fmt[32], num[512];
	size_t f = 0, i = 0;
	unsigned int slot = index - 1;
	int width = -1, prec = -1, size = 32;
	bool left = false, wide;
	WCHAR conv;

	fmt[f++] = '%';
	for (; i < spec_len && strchr("-+ #0", (char)spec[i]); i++) {
		if (spec[i] == '-')
			left = true;
		if (f < 8)
			fmt[f++] = (char)spec[i];
	}
	if (i < spec_len && spec[i] == '*') {
		width = (int)a->slots[slot++];
		i++;
	} else {
		for (width = 0; i < spec_len && spec[i] >= '0' && spec[i] <= '9'; i++)
			width = width * 10 + (spec[i] - '0');
	}
	if (i < spec_len && spec[i] == '.') {
		i++;
		if (i < spec_len && spec[i] == '*') {
			prec = (int)a->slots[slot++];
			i++;
		} else {
			for (prec = 0; i < spec_len && spec[i] >= '0' && spec[i] <= '9'; i++)
				prec = prec * 10 + (spec[i] - '0');
		}
	}
	wide = !a->ansi;
	for (; i < spec_len; i++) {
		WCHAR c = spec[i];

		if (c == 'h') {
			size = 16;
			wide = false;
		} else if (c == 'l' || c == 'w') {
			size = size == 32 && c == 'l' && i + 1 < spec_len && spec[i + 1] == 'l' ? 64 : 32;
			if (i + 1 < spec_len && spec[i + 1] == 'l')
				i++;
			wide = true;
		} else if (c == 'I') {
			if (i + 2 < spec_len && spec[i + 1] == '6' && spec[i + 2] == '4') {
				size = 64;
				i += 2;
			} else if (i + 2 < spec_len && spec[i + 1] == '3' && spec[i + 2] == '2') {
				size = 32;
				i += 2;
			} else {
				size = 64;
			}
		} else {
			break;
		}
	}
	if (i + 1 != spec_len)
		return false;
	conv = spec[i];
	DWORD_PTR v = a->slots[slot];

	switch (conv) {
	case 's':
	case 'S': {
		bool w = conv == 'S' ? !wide : wide;
		WCHAR *tmp = NULL;
		const WCHAR *s;
		size_t n;

		if (!v) {
			s = u"(null)";
		} else if (w) {
			s = (const WCHAR *)v;
		} else {
			tmp = cp_to_utf16_dup(CP_ACP, (const char *)v);
			s = tmp ? tmp : u"";
		}
		n = wstr_len(s);
		if (prec >= 0 && (size_t)prec < n)
			n = (size_t)prec;
		put_padded(o, s, n, width, left);
		free(tmp);
		return true;
	}
	case 'c':
	case 'C': {
		bool w = conv == 'C' ? !wide : wide;
		WCHAR c = w ? (WCHAR)v : 0;

		if (!w) {
			char ch = (char)v;

			cp_to_utf16(cp_ansi(), 0, &ch, 1, &c, 1);
		}
		put_padded(o, &c, 1, width, left);
		return true;
	}
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
	case 'o':
	case 'p':
	case 'e':
	case 'E':
	case 'f':
	case 'g':
	case 'G':
		break;
	default:
		return false;
	}
	if (width > 0)
		f += (size_t)snprintf(fmt + f, sizeof(fmt) - f, "%d", width);
	if (prec >= 0)
		f += (size_t)snprintf(fmt + f, sizeof(fmt) - f, ".%d", prec);
	if (conv == 'p') {
		snprintf(num, sizeof(num), "%016llX", (unsigned long long)v);
	} else if (strchr("eEfgG", (char)conv)) {
		double d;

		memcpy(&d, &v, sizeof(d));
		fmt[f++] = (char)conv;
		fmt[f] = 0;
		snprintf(num, sizeof(num), fmt, d);
	} else {
		fmt[f++] = 'l';
		fmt[f++] = 'l';
		fmt[f++] = (char)conv;
		fmt[f] = 0;
		if (conv == 'd' || conv == 'i') {
			long long s = size == 64 ? (long long)v : size == 16 ? (short)v : (int)v;

			snprintf(num, sizeof(num), fmt, s);
		} else {
			unsigned long long u = size == 64 ? (unsigned long long)v
					       : size == 16 ? (unsigned short)v
							    : (unsigned int)v;

			snprintf(num, sizeof(num), fmt, u);
		}
	}
	put_ascii(o, num);
	return true;
}

/* Formats text into o; 0 or a Win32 error. */
static DWORD format(struct out *o, const WCHAR *text, DWORD flags, const struct args *a)
{
	bool ignore_inserts = flags & FORMAT_MESSAGE_IGNORE_INSERTS;
	bool no_breaks = flags & FORMAT_MESSAGE_MAX_WIDTH_MASK;
	const WCHAR *p = text;

	while (*p && !o->oom) {
		if (*p != '%') {
			if (no_breaks && (*p == '\r' || *p == '\n')) {
				if (*p == '\r' && p[1] == '\n')
					p++;
				put(o, u" ", 1);
			} else {
				put(o, p, 1);
			}
			p++;
			continue;
		}
		const WCHAR *start = p++;

		if (*p >= '1' && *p <= '9') {
			unsigned int index = *p++ - '0';
			const WCHAR *spec = u"s", *bang;
			size_t spec_len = 1;

			if (*p >= '0' && *p <= '9')
				index = index * 10 + (*p++ - '0');
			if (*p == '!') {
				for (bang = p + 1; *bang && *bang != '!'; bang++)
					;
				if (!*bang)
					return ERROR_INVALID_PARAMETER;
				spec = p + 1;
				spec_len = (size_t)(bang - spec);
				p = bang + 1;
			}
			if (ignore_inserts) {
				put(o, start, (size_t)(p - start));
				continue;
			}
			if (!a->slots || !spec_len)
				return ERROR_INVALID_PARAMETER;
			if (!format_insert(o, a, index, spec, spec_len))
				return ERROR_INVALID_PARAMETER;
			continue;
		}
		switch (*p) {
		case '0':
			return o->oom ? ERROR_NOT_ENOUGH_MEMORY : 0;
		case 'n':
			put(o, u"\r\n", 2);
			break;
		case 'r':
			put(o, u"\r", 1);
			break;
		case 't':
			put(o, u"\t", 1);
			break;
		case 0:
			continue; /* a lone '%' at the end is dropped */
		default:
			put(o, p, 1); /* %% %. %! %space and the rest: the character */
			break;
		}
		p++;
	}
	return o->oom ? ERROR_NOT_ENOUGH_MEMORY : 0;
}

static bool english(DWORD lang)
{
	return !lang || PRIMARYLANGID(lang) == LANG_NEUTRAL || PRIMARYLANGID(lang) == LANG_ENGLISH;
}

/* The formatted message, malloc'd, or NULL with the last error set. */
static WCHAR *format_message(DWORD flags, LPCVOID source, DWORD id, DWORD lang, const struct args *a,
			     size_t *len)
{
	struct out o = { 0 };
	WCHAR *text = NULL;
	DWORD err;

	if (flags & FORMAT_MESSAGE_FROM_STRING) {
		if (!source) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return NULL;
		}
		text = a->ansi ? cp_to_utf16_dup(CP_ACP, source) : wstr_dup(source);
		if (!text) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return NULL;
		}
	} else if (flags & FORMAT_MESSAGE_FROM_SYSTEM) {
		const char *msg;
		size_t n;

		if (!english(lang)) {
			SetLastError(ERROR_RESOURCE_LANG_NOT_FOUND);
			return NULL;
		}
		if (!(msg = sysmsg_lookup(id))) {
			SetLastError(ERROR_MR_MID_NOT_FOUND);
			return NULL;
		}
		n = strlen(msg);
		if (!(text = malloc((n + 3) * sizeof(WCHAR)))) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return NULL;
		}
		for (size_t i = 0; i < n; i++)
			text[i] = (unsigned char)msg[i];
		text[n] = '\r';
		text[n + 1] = '\n';
		text[n + 2] = 0;
	} else {
		TRACE(misc, "message tables in modules are not supported (flags %#x)\n", (unsigned)flags);
		SetLastError(flags & FORMAT_MESSAGE_FROM_HMODULE ? ERROR_RESOURCE_TYPE_NOT_FOUND
								   : ERROR_INVALID_PARAMETER);
		return NULL;
	}
	err = format(&o, text, flags, a);
	free(text);
	if (err) {
		free(o.buf);
		SetLastError(err);
		return NULL;
	}
	if (!o.buf && !(o.buf = calloc(1, sizeof(WCHAR)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	*len = o.len;
	return o.buf;
}

static void init_args(struct args *a, DWORD flags, __ms_va_list *va, bool ansi)
{
	a->ansi = ansi;
	if (!va)
		a->slots = NULL;
	else if (flags & FORMAT_MESSAGE_ARGUMENT_ARRAY)
		a->slots = (const DWORD_PTR *)va;
	else
		/* an x64 va_list points at consecutive 8-byte argument slots */
		a->slots = *(const DWORD_PTR **)va;
}

DWORD WINAPI FormatMessageW(DWORD flags, LPCVOID source, DWORD id, DWORD lang, LPWSTR buffer,
			    DWORD size, __ms_va_list *va)
{
	struct args a;
	size_t len;
	WCHAR *msg;

	if (!buffer) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	init_args(&a, flags, va, false);
	if (!(msg = format_message(flags, source, id, lang, &a, &len)))
		return 0;
	if (flags & FORMAT_MESSAGE_ALLOCATE_BUFFER) {
		size_t n = len + 1 > size ? len + 1 : size;
		WCHAR *out = LocalAlloc(LMEM_FIXED, n * sizeof(WCHAR));

		if (!out) {
			free(msg);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return 0;
		}
		memcpy(out, msg, (len + 1) * sizeof(WCHAR));
		*(WCHAR **)buffer = out;
	} else if (len + 1 > size) {
		free(msg);
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	} else {
		memcpy(buffer, msg, (len + 1) * sizeof(WCHAR));
	}
	free(msg);
	return (DWORD)len;
}

DWORD WINAPI FormatMessageA(DWORD flags, LPCVOID source, DWORD id, DWORD lang, LPSTR buffer,
			    DWORD size, __ms_va_list *va)
{
	struct args a;
	size_t len;
	WCHAR *msg;
	char *amsg;

	if (!buffer) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	init_args(&a, flags, va, true);
	if (!(msg = format_message(flags, source, id, lang, &a, &len)))
		return 0;
	amsg = utf16_to_cp_dup(CP_ACP, msg);
	free(msg);
	if (!amsg) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	len = strlen(amsg);
	if (flags & FORMAT_MESSAGE_ALLOCATE_BUFFER) {
		char *out = LocalAlloc(LMEM_FIXED, len + 1 > size ? len + 1 : size);

		if (!out) {
			free(amsg);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return 0;
		}
		memcpy(out, amsg, len + 1);
		*(char **)buffer = out;
	} else if (len + 1 > size) {
		free(amsg);
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	} else {
		memcpy(buffer, amsg, len + 1);
	}
	free(amsg);
	return (DWORD)len;
}
