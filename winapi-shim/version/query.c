/* VerQueryValue: a path of keys ("\\StringFileInfo\\040904b0\\FileVersion")
 * through the tree of a VS_VERSIONINFO block.  Each node is
 *     WORD wLength, wValueLength, wType; WCHAR szKey[] (with its NUL);
 *     padding to 32 bits; the value; padding to 32 bits; the children,
 * wValueLength counting WCHARs for a text value (wType 1) and bytes for
 * a binary one; alignment is counted from the start of the block.  "\\"
 * (or "") is the root's value, the VS_FIXEDFILEINFO.  Keys compare
 * without regard to case. */
#include <stdlib.h>
#include <string.h>

#include "core/wstr.h"
#include "version/version_private.h"

struct node {
	size_t off, len;	/* the node in the block */
	size_t value, vbytes;	/* its value */
	size_t children;	/* where its children start */
	WORD vlen, type;
	const WCHAR *key;
};

static size_t align4(size_t v)
{
	return (v + 3) & ~(size_t)3;
}

/* The node at off, inside [0, end); FALSE when it does not fit. */
static BOOL read_node(const BYTE *block, size_t off, size_t end, struct node *n)
{
	WORD w[3];
	size_t k;

	if (off + 6 > end)
		return FALSE;
	memcpy(w, block + off, 6);
	if (w[0] < 6 || off + w[0] > end)
		return FALSE;
	n->off = off;
	n->len = w[0];
	n->vlen = w[1];
	n->type = w[2];
	n->key = (const WCHAR *)(block + off + 6);
	for (k = off + 6; k + 2 <= off + n->len && (block[k] || block[k + 1]); k += 2)
		;
	if (k + 2 > off + n->len)
		return FALSE;
	n->value = align4(k + 2);
	n->vbytes = n->type == 1 ? (size_t)n->vlen * 2 : n->vlen;
	if (n->value + n->vbytes > off + n->len)
		n->vbytes = n->value > off + n->len ? 0 : off + n->len - n->value;
	n->children = align4(n->value + n->vbytes);
	return TRUE;
}

/* Whether the node's key is the len characters at name. */
static BOOL key_is(const struct node *n, const WCHAR *name, size_t len)
{
	return wstr_len(n->key) == len && !wstr_nicmp(n->key, name, len);
}

/* The node the path names, from the root. */
static BOOL find(const BYTE *block, const WCHAR *path, struct node *out)
{
	struct node n;
	size_t end;

	end = *(const WORD *)block;
	if (!read_node(block, 0, end, &n))
		return FALSE;
	while (*path) {
		const WCHAR *name;
		size_t len = 0, child;
		struct node c;
		BOOL found = FALSE;

		while (*path == '\\')
			path++;
		if (!*path)
			break;
		name = path;
		while (name[len] && name[len] != '\\')
			len++;
		path += len;
		for (child = n.children; child < n.off + n.len; child = align4(c.off + c.len)) {
			if (!read_node(block, child, n.off + n.len, &c))
				return FALSE;
			if (key_is(&c, name, len)) {
				found = TRUE;
				break;
			}
		}
		if (!found)
			return FALSE;
		n = c;
	}
	*out = n;
	return TRUE;
}

BOOL WINAPI VerQueryValueW(LPCVOID block, LPCWSTR sub, LPVOID *buf, PUINT len)
{
	struct node n;

	if (!block || !buf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!find(block, sub ? sub : u"", &n) || !n.vbytes) {
		if (len)
			*len = 0;
		SetLastError(ERROR_RESOURCE_TYPE_NOT_FOUND);
		return FALSE;
	}
	*buf = (BYTE *)block + n.value;
	if (len)
		*len = n.vlen;
	return TRUE;
}

/* A text value is turned into the code page's bytes in the room after
 * the resource that GetFileVersionInfoSize counted (three times the
 * resource: at twice the value's offset past its end, up to four bytes
 * per WCHAR); a binary value is returned as it is. */
BOOL WINAPI VerQueryValueA(LPCVOID block, LPCSTR sub, LPVOID *buf, PUINT len)
{
	WCHAR *wsub;
	struct node n;
	size_t total;
	char *dst;
	int n_bytes, wsize;
	BOOL found;

	if (!block || !buf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	wsize = MultiByteToWideChar(CP_ACP, 0, sub ? sub : "", -1, NULL, 0);
	wsub = malloc(wsize * sizeof(WCHAR));
	if (!wsub) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	MultiByteToWideChar(CP_ACP, 0, sub ? sub : "", -1, wsub, wsize);
	found = find(block, wsub, &n) && n.vbytes;
	free(wsub);
	if (!found) {
		if (len)
			*len = 0;
		SetLastError(ERROR_RESOURCE_TYPE_NOT_FOUND);
		return FALSE;
	}
	if (n.type != 1) {
		*buf = (BYTE *)block + n.value;
		if (len)
			*len = n.vlen;
		return TRUE;
	}
	total = *(const WORD *)block;
	dst = (char *)block + align4(total) + 2 * n.value;
	n_bytes = WideCharToMultiByte(CP_ACP, 0, (const WCHAR *)((const BYTE *)block + n.value), (int)(n.vbytes / 2),
				      dst, (int)(2 * n.vbytes), NULL, NULL);
	if (n_bytes <= 0 || dst[n_bytes - 1]) {
		/* not NUL-terminated in the resource: terminate the copy */
		dst[n_bytes > 0 ? n_bytes : 0] = 0;
		n_bytes = n_bytes > 0 ? n_bytes + 1 : 1;
	}
	*buf = dst;
	if (len)
		*len = n_bytes;
	return TRUE;
}
