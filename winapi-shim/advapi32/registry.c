/* winreg: the registry API over the file-backed store (regstore.c).
 *
 * HKEY_LOCAL_MACHINE, HKEY_CURRENT_USER and HKEY_USERS are hives of
 * their own; HKEY_CLASSES_ROOT is HKEY_LOCAL_MACHINE\Software\Classes.
 * An opened key is a handle-table object naming its hive and path, with
 * the access it was opened with (KEY_QUERY_VALUE for queries,
 * KEY_SET_VALUE for changes, KEY_ENUMERATE_SUB_KEYS for enumeration,
 * KEY_CREATE_SUB_KEY to create).  Every hive is the user's own file, so
 * HKEY_LOCAL_MACHINE is writable too (on Windows only administrators
 * may write it).  A key deleted while a handle names it answers
 * ERROR_KEY_DELETED through that handle.  The functions return Win32
 * error codes and leave the last error alone, as Windows does. */
#include <stdlib.h>
#include <string.h>

#include "advapi32/advapi32_private.h"
#include "advapi32/regstore.h"
#include "core/debug.h"
#include "core/handle.h"
#include "core/wstr.h"

static const WCHAR empty_name[] = { 0 };

struct key_object {
	struct object obj;
	enum hive_id hive;
	WCHAR *path; /* from the hive root, '\'-separated, no leading or trailing '\' */
};

static struct key_object *to_key(struct object *obj) { return container_of(obj, struct key_object, obj); }

static void key_destroy(struct object *obj)
{
	free(to_key(obj)->path);
	free(to_key(obj));
}

static const struct object_ops key_ops = {
	.type_name = "key",
	.destroy = key_destroy,
};

static const WCHAR classes_path[] = { 'S', 'o', 'f', 't', 'w', 'a', 'r', 'e', '\\', 'C', 'l', 'a',
				      's', 's', 'e', 's', 0 };

/* HKEY_CLASSES_ROOT (0x80000000, sign-extended) and the others after it. */
static bool is_predefined(HKEY hkey)
{
	return (ULONG_PTR)hkey >= (ULONG_PTR)HKEY_CLASSES_ROOT;
}

/* Where hkey points: its hive and path (malloc'd).  Predefined keys
 * have every right; opened ones must hold needed. */
static LSTATUS key_location(HKEY hkey, DWORD needed, enum hive_id *hive, WCHAR **path,
			    bool *predefined)
{
	struct object *obj;

	*predefined = true;
	switch ((ULONG_PTR)hkey) {
	case (ULONG_PTR)HKEY_LOCAL_MACHINE:
		*hive = HIVE_MACHINE;
		*path = wstr_dup(empty_name);
		break;
	case (ULONG_PTR)HKEY_CURRENT_USER:
		*hive = HIVE_USER;
		*path = wstr_dup(empty_name);
		break;
	case (ULONG_PTR)HKEY_USERS:
		*hive = HIVE_USERS;
		*path = wstr_dup(empty_name);
		break;
	case (ULONG_PTR)HKEY_CLASSES_ROOT:
		*hive = HIVE_MACHINE;
		*path = wstr_dup(classes_path);
		break;
	default:
		if (is_predefined(hkey))
			return ERROR_INVALID_HANDLE; /* a predefined key ndshim has not */
		*predefined = false;
		obj = handle_get_access(hkey, &key_ops, needed);
		if (!obj)
			return GetLastError() == ERROR_ACCESS_DENIED ? ERROR_ACCESS_DENIED
								     : ERROR_INVALID_HANDLE;
		*hive = to_key(obj)->hive;
		*path = wstr_dup(to_key(obj)->path);
		object_unref(obj);
		break;
	}
	return *path ? ERROR_SUCCESS : ERROR_NOT_ENOUGH_MEMORY;
}

/* base + '\' + sub, with sub's empty components dropped. */
static WCHAR *join(const WCHAR *base, const WCHAR *sub)
{
	size_t bl = wstr_len(base), sl = sub ? wstr_len(sub) : 0, o = bl, i = 0;
	WCHAR *p = malloc((bl + sl + 2) * sizeof(WCHAR));

	if (!p)
		return NULL;
	memcpy(p, base, bl * sizeof(WCHAR));
	while (i < sl) {
		size_t start;

		while (i < sl && sub[i] == '\\')
			i++;
		start = i;
		while (i < sl && sub[i] != '\\')
			i++;
		if (i == start)
			continue;
		if (o)
			p[o++] = '\\';
		memcpy(p + o, sub + start, (i - start) * sizeof(WCHAR));
		o += i - start;
	}
	p[o] = 0;
	return p;
}

/* Access asked for, generic rights mapped; the WOW64 view flags mean
 * nothing to a 64-bit-only registry. */
static DWORD map_access(REGSAM sam)
{
	DWORD a = sam & ~(KEY_WOW64_32KEY | KEY_WOW64_64KEY);

	if (a & GENERIC_READ)
		a |= KEY_READ;
	if (a & GENERIC_WRITE)
		a |= KEY_WRITE;
	if (a & GENERIC_EXECUTE)
		a |= KEY_EXECUTE;
	if (a & (GENERIC_ALL | MAXIMUM_ALLOWED))
		a |= KEY_ALL_ACCESS;
	return a & ~(GENERIC_READ | GENERIC_WRITE | GENERIC_EXECUTE | GENERIC_ALL | MAXIMUM_ALLOWED);
}

static LSTATUS new_handle(enum hive_id hive, WCHAR *path, REGSAM sam, HKEY *result)
{
	struct key_object *k = malloc(sizeof(*k));
	HANDLE h;

	if (!k) {
		free(path);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	object_init(&k->obj, &key_ops);
	k->hive = hive;
	k->path = path;
	h = handle_create(&k->obj, map_access(sam), 0);
	object_unref(&k->obj);
	if (!h)
		return ERROR_NOT_ENOUGH_MEMORY;
	*result = (HKEY)h;
	return ERROR_SUCCESS;
}

/* The key at hkey\sub, hive locked (unlock with hive_unlock even on
 * failure, unless *root is NULL).  ERROR_KEY_DELETED when hkey's own key
 * is gone, ERROR_FILE_NOT_FOUND when sub is not there. */
struct where {
	enum hive_id hive;
	struct reg_key *root;
	struct reg_key *key;
	WCHAR *path;
};

static LSTATUS find_key(HKEY hkey, const WCHAR *sub, DWORD needed, struct where *w)
{
	WCHAR *base, *full;
	DWORD err = ERROR_SUCCESS;
	bool predefined;
	LSTATUS ret;

	memset(w, 0, sizeof(*w));
	ret = key_location(hkey, needed, &w->hive, &base, &predefined);
	if (ret)
		return ret;
	full = join(base, sub);
	if (!full) {
		free(base);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	w->root = hive_lock(w->hive, &err);
	if (!w->root) {
		free(base);
		free(full);
		return err;
	}
	/* A predefined key's base (HKEY_CLASSES_ROOT's Software\Classes)
	 * comes into being with its first subkey. */
	if (!predefined && !regkey_find(w->root, base))
		ret = ERROR_KEY_DELETED;
	else if (!(w->key = regkey_find(w->root, full)))
		ret = ERROR_FILE_NOT_FOUND;
	free(base);
	w->path = full;
	return ret;
}

static LSTATUS done(struct where *w, LSTATUS ret, bool modified)
{
	DWORD err = ERROR_SUCCESS;

	if (w->root)
		err = hive_unlock(w->hive, modified && !ret);
	free(w->path);
	return ret ? ret : (LSTATUS)err;
}

LSTATUS WINAPI RegOpenKeyExW(HKEY hkey, LPCWSTR sub, DWORD options, REGSAM sam, PHKEY result)
{
	struct where w;
	LSTATUS ret;

	TRACE(misc, "%p %s, sam %#x\n", hkey, debugstr_w(sub), sam);
	if (!result)
		return ERROR_INVALID_PARAMETER;
	ret = find_key(hkey, sub, 0, &w);
	if (ret)
		return done(&w, ret, false);
	ret = new_handle(w.hive, w.path, sam, result);
	w.path = NULL;
	return done(&w, ret, false);
}

LSTATUS WINAPI RegOpenKeyW(HKEY hkey, LPCWSTR sub, PHKEY result)
{
	return RegOpenKeyExW(hkey, sub, 0, MAXIMUM_ALLOWED, result);
}

LSTATUS WINAPI RegCreateKeyExW(HKEY hkey, LPCWSTR sub, DWORD reserved, LPWSTR cls, DWORD options,
			       REGSAM sam, LPSECURITY_ATTRIBUTES sa, PHKEY result, LPDWORD disposition)
{
	struct where w;
	struct reg_key *k;
	bool created = false;
	LSTATUS ret;

	TRACE(misc, "%p %s, options %#x, sam %#x\n", hkey, debugstr_w(sub), options, sam);
	if (!result)
		return ERROR_INVALID_PARAMETER;
	if (!sub)
		return ERROR_BAD_PATHNAME;
	if (sub[0] == '\\')
		return ERROR_BAD_PATHNAME;
	ret = find_key(hkey, sub, KEY_CREATE_SUB_KEY, &w);
	if (ret == ERROR_FILE_NOT_FOUND) {
		k = regkey_create(w.root, w.path, options & REG_OPTION_VOLATILE, &created);
		ret = k ? ERROR_SUCCESS : ERROR_NOT_ENOUGH_MEMORY;
	}
	if (ret)
		return done(&w, ret, false);
	if (disposition)
		*disposition = created ? REG_CREATED_NEW_KEY : REG_OPENED_EXISTING_KEY;
	ret = new_handle(w.hive, w.path, sam, result);
	w.path = NULL;
	return done(&w, ret, created);
}

LSTATUS WINAPI RegCreateKeyW(HKEY hkey, LPCWSTR sub, PHKEY result)
{
	return RegCreateKeyExW(hkey, sub ? sub : empty_name, 0, NULL, 0, MAXIMUM_ALLOWED, NULL,
			       result, NULL);
}

LSTATUS WINAPI RegCloseKey(HKEY hkey)
{
	struct object *obj;

	if (is_predefined(hkey))
		return ERROR_SUCCESS; /* predefined keys are never closed */
	obj = handle_get(hkey, &key_ops);
	if (!obj)
		return ERROR_INVALID_HANDLE;
	object_unref(obj);
	return handle_close(hkey) ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
}

/* Writes go through to the file at once: nothing is left to flush. */
LSTATUS WINAPI RegFlushKey(HKEY hkey)
{
	struct where w;

	return done(&w, find_key(hkey, NULL, 0, &w), false);
}

LSTATUS WINAPI RegSetValueExW(HKEY hkey, LPCWSTR name, DWORD reserved, DWORD type, const BYTE *data,
			      DWORD size)
{
	struct where w;
	LSTATUS ret;

	TRACE(misc, "%p %s, type %u, %u bytes\n", hkey, debugstr_w(name), type, size);
	if (!data && size)
		return ERROR_NOACCESS;
	ret = find_key(hkey, NULL, KEY_SET_VALUE, &w);
	if (!ret && !regkey_set_value(w.key, name, type, data, size))
		ret = ERROR_NOT_ENOUGH_MEMORY;
	return done(&w, ret, true);
}

LSTATUS WINAPI RegQueryValueExW(HKEY hkey, LPCWSTR name, LPDWORD reserved, LPDWORD type, LPBYTE data,
				LPDWORD size)
{
	struct reg_value *v;
	struct where w;
	LSTATUS ret;

	TRACE(misc, "%p %s\n", hkey, debugstr_w(name));
	if (data && !size)
		return ERROR_INVALID_PARAMETER;
	ret = find_key(hkey, NULL, KEY_QUERY_VALUE, &w);
	if (!ret && !(v = regkey_value(w.key, name)))
		ret = ERROR_FILE_NOT_FOUND;
	if (!ret) {
		if (type)
			*type = v->type;
		if (data && *size < v->size)
			ret = ERROR_MORE_DATA;
		else if (data)
			memcpy(data, v->data, v->size);
		if (size)
			*size = v->size;
	}
	return done(&w, ret, false);
}

LSTATUS WINAPI RegDeleteValueW(HKEY hkey, LPCWSTR name)
{
	struct reg_value *v;
	struct where w;
	LSTATUS ret;

	ret = find_key(hkey, NULL, KEY_SET_VALUE, &w);
	if (!ret && !(v = regkey_value(w.key, name)))
		ret = ERROR_FILE_NOT_FOUND;
	if (!ret) {
		regkey_delete_value(v);
		regkey_touch(w.key);
	}
	return done(&w, ret, true);
}

/* A key with subkeys cannot be deleted (ERROR_ACCESS_DENIED), nor can a
 * hive's root. */
LSTATUS WINAPI RegDeleteKeyW(HKEY hkey, LPCWSTR sub)
{
	struct where w;
	LSTATUS ret;

	TRACE(misc, "%p %s\n", hkey, debugstr_w(sub));
	if (!sub)
		return ERROR_INVALID_PARAMETER;
	ret = find_key(hkey, sub, 0, &w);
	if (!ret && (!w.key->parent || !list_empty(&w.key->subkeys)))
		ret = ERROR_ACCESS_DENIED;
	if (!ret)
		regkey_delete(w.key);
	return done(&w, ret, true);
}

LSTATUS WINAPI RegDeleteKeyExW(HKEY hkey, LPCWSTR sub, REGSAM sam, DWORD reserved)
{
	return RegDeleteKeyW(hkey, sub);
}

static struct reg_key *nth_subkey(struct reg_key *k, DWORD index)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &k->subkeys)
		if (!index--)
			return LIST_ENTRY(cur, struct reg_key, entry);
	return NULL;
}

static struct reg_value *nth_value(struct reg_key *k, DWORD index)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &k->values)
		if (!index--)
			return LIST_ENTRY(cur, struct reg_value, entry);
	return NULL;
}

/* Subkeys in upper-cased name order, as Windows lists them. */
LSTATUS WINAPI RegEnumKeyExW(HKEY hkey, DWORD index, LPWSTR name, LPDWORD name_len, LPDWORD reserved,
			     LPWSTR cls, LPDWORD cls_len, PFILETIME last_write)
{
	struct reg_key *s;
	struct where w;
	LSTATUS ret;
	DWORD len;

	if (!name || !name_len)
		return ERROR_INVALID_PARAMETER;
	ret = find_key(hkey, NULL, KEY_ENUMERATE_SUB_KEYS, &w);
	if (!ret && !(s = nth_subkey(w.key, index)))
		ret = ERROR_NO_MORE_ITEMS;
	if (!ret) {
		len = (DWORD)wstr_len(s->name);
		if (*name_len <= len) {
			ret = ERROR_MORE_DATA;
		} else {
			memcpy(name, s->name, (len + 1) * sizeof(WCHAR));
			*name_len = len;
			if (cls && cls_len && *cls_len)
				cls[0] = 0;
			if (cls_len)
				*cls_len = 0;
			if (last_write)
				*last_write = s->last_write;
		}
	}
	return done(&w, ret, false);
}

LSTATUS WINAPI RegEnumKeyW(HKEY hkey, DWORD index, LPWSTR name, DWORD name_len)
{
	return RegEnumKeyExW(hkey, index, name, &name_len, NULL, NULL, NULL, NULL);
}

/* Values in the order they were created. */
LSTATUS WINAPI RegEnumValueW(HKEY hkey, DWORD index, LPWSTR name, LPDWORD name_len, LPDWORD reserved,
			     LPDWORD type, LPBYTE data, LPDWORD data_len)
{
	struct reg_value *v;
	struct where w;
	LSTATUS ret;
	DWORD len;

	if (!name || !name_len || (data && !data_len))
		return ERROR_INVALID_PARAMETER;
	ret = find_key(hkey, NULL, KEY_QUERY_VALUE, &w);
	if (!ret && !(v = nth_value(w.key, index)))
		ret = ERROR_NO_MORE_ITEMS;
	if (!ret) {
		len = (DWORD)wstr_len(v->name);
		if (*name_len <= len) {
			ret = ERROR_MORE_DATA;
		} else {
			memcpy(name, v->name, (len + 1) * sizeof(WCHAR));
			*name_len = len;
			if (type)
				*type = v->type;
			if (data && *data_len < v->size)
				ret = ERROR_MORE_DATA;
			else if (data)
				memcpy(data, v->data, v->size);
			if (data_len)
				*data_len = v->size;
		}
	}
	return done(&w, ret, false);
}

LSTATUS WINAPI RegQueryInfoKeyW(HKEY hkey, LPWSTR cls, LPDWORD cls_len, LPDWORD reserved,
				LPDWORD subkeys, LPDWORD max_subkey_len, LPDWORD max_cls_len, LPDWORD values,
				LPDWORD max_value_name_len, LPDWORD max_value_len, LPDWORD sd_len,
				PFILETIME last_write)
{
	DWORD nk = 0, nv = 0, mk = 0, mvn = 0, mv = 0;
	struct list *cur;
	struct where w;
	LSTATUS ret;

	ret = find_key(hkey, NULL, KEY_QUERY_VALUE, &w);
	if (ret)
		return done(&w, ret, false);
	LIST_FOR_EACH(cur, &w.key->subkeys) {
		DWORD l = (DWORD)wstr_len(LIST_ENTRY(cur, struct reg_key, entry)->name);

		nk++;
		mk = l > mk ? l : mk;
	}
	LIST_FOR_EACH(cur, &w.key->values) {
		struct reg_value *v = LIST_ENTRY(cur, struct reg_value, entry);
		DWORD l = (DWORD)wstr_len(v->name);

		nv++;
		mvn = l > mvn ? l : mvn;
		mv = v->size > mv ? v->size : mv;
	}
	if (cls && cls_len && *cls_len)
		cls[0] = 0;
	if (cls_len)
		*cls_len = 0;
	if (subkeys)
		*subkeys = nk;
	if (max_subkey_len)
		*max_subkey_len = mk;
	if (max_cls_len)
		*max_cls_len = 0;
	if (values)
		*values = nv;
	if (max_value_name_len)
		*max_value_name_len = mvn;
	if (max_value_len)
		*max_value_len = mv;
	if (sd_len)
		*sd_len = 0;
	if (last_write)
		*last_write = w.key->last_write;
	return done(&w, ERROR_SUCCESS, false);
}

/* RegGetValue's type filter: the RRF_RT_* bit of a REG_* type. */
static DWORD type_bit(DWORD type)
{
	switch (type) {
	case REG_NONE: return RRF_RT_REG_NONE;
	case REG_SZ: return RRF_RT_REG_SZ;
	case REG_EXPAND_SZ: return RRF_RT_REG_EXPAND_SZ;
	case REG_BINARY: return RRF_RT_REG_BINARY;
	case REG_DWORD: return RRF_RT_REG_DWORD;
	case REG_MULTI_SZ: return RRF_RT_REG_MULTI_SZ;
	case REG_QWORD: return RRF_RT_REG_QWORD;
	default: return 0;
	}
}

static bool is_string(DWORD type)
{
	return type == REG_SZ || type == REG_EXPAND_SZ || type == REG_MULTI_SZ;
}

/* Strings come back terminated (even when stored without), REG_EXPAND_SZ
 * expanded into REG_SZ unless RRF_NOEXPAND, DWORDs and QWORDs only when
 * they have their size. */
LSTATUS WINAPI RegGetValueW(HKEY hkey, LPCWSTR sub, LPCWSTR name, DWORD flags, LPDWORD type,
			    PVOID data, LPDWORD size)
{
	BYTE *raw = NULL;
	DWORD vtype, vsize = 0, need, cap = data && size ? *size : 0;
	struct reg_value *v;
	struct where w;
	LSTATUS ret;

	TRACE(misc, "%p %s %s, flags %#x\n", hkey, debugstr_w(sub), debugstr_w(name), flags);
	if ((data && !size) || ((flags & RRF_RT_ANY) == RRF_RT_REG_EXPAND_SZ && !(flags & RRF_NOEXPAND)))
		return ERROR_INVALID_PARAMETER;
	ret = find_key(hkey, sub, KEY_QUERY_VALUE, &w);
	if (!ret && !(v = regkey_value(w.key, name)))
		ret = ERROR_FILE_NOT_FOUND;
	if (!ret) {
		vtype = v->type;
		vsize = v->size;
		raw = malloc(vsize + 2 * sizeof(WCHAR));
		if (!raw)
			ret = ERROR_NOT_ENOUGH_MEMORY;
		else
			memcpy(raw, v->data, vsize);
	}
	ret = done(&w, ret, false);
	if (!ret && !(type_bit(vtype) & flags) &&
	    !(vtype == REG_EXPAND_SZ && !(flags & RRF_NOEXPAND) && (flags & RRF_RT_REG_SZ)))
		ret = ERROR_UNSUPPORTED_TYPE;
	if (!ret && ((vtype == REG_DWORD && vsize != 4) || (vtype == REG_QWORD && vsize != 8)))
		ret = ERROR_DATATYPE_MISMATCH;
	if (ret) {
		free(raw);
		if ((flags & RRF_ZEROONFAILURE) && data && size)
			memset(data, 0, *size);
		return ret;
	}
	need = vsize;
	if (is_string(vtype)) {
		/* Terminate (twice for REG_MULTI_SZ) what was stored unterminated. */
		vsize &= ~1u;
		if (vsize < 2 || raw[vsize - 2] || raw[vsize - 1]) {
			raw[vsize] = raw[vsize + 1] = 0;
			vsize += 2;
		}
		if (vtype == REG_MULTI_SZ && (vsize < 4 || raw[vsize - 4] || raw[vsize - 3])) {
			raw[vsize] = raw[vsize + 1] = 0;
			vsize += 2;
		}
		need = vsize;
	}
	if (vtype == REG_EXPAND_SZ && !(flags & RRF_NOEXPAND)) {
		DWORD chars = ExpandEnvironmentStringsW((WCHAR *)raw, NULL, 0);
		WCHAR *exp = chars ? malloc(chars * sizeof(WCHAR)) : NULL;

		if (!exp || !ExpandEnvironmentStringsW((WCHAR *)raw, exp, chars)) {
			free(exp);
			free(raw);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
		free(raw);
		raw = (BYTE *)exp;
		need = vsize = chars * sizeof(WCHAR);
		vtype = REG_SZ;
	}
	if (type)
		*type = vtype;
	if (data && cap < need) {
		ret = ERROR_MORE_DATA;
		if (flags & RRF_ZEROONFAILURE)
			memset(data, 0, cap);
	} else if (data) {
		memcpy(data, raw, need);
	}
	if (size)
		*size = need;
	free(raw);
	return ret;
}
