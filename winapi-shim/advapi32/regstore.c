/* The registry's store: hive trees in memory, their files on disk.
 *
 * Folder: $NDSHIM_REGISTRY when set, else $XDG_DATA_HOME/ndshim/registry,
 * else ~/.local/share/ndshim/registry (created on first use), ~ being
 * $HOME or, when HOME is unset, the user's home in the password
 * database.  A user with neither gets a registry in memory for the run
 * (never a folder shared with other users under /tmp), and is told so.  One
 * file per hive: machine.reg (HKEY_LOCAL_MACHINE, with HKEY_CLASSES_ROOT
 * as its Software\Classes), user.reg (HKEY_CURRENT_USER) and users.reg
 * (HKEY_USERS).
 *
 * File format (UTF-8 text, one item per line):
 *   ndshim registry 1                 first line: format and version
 *   [Software\Vendor\App]             a key, its path from the hive root
 *   "Count"=4:2a000000                a value: name, type, data
 *   @=1:68006900000000                the default value (no name)
 * Key paths use '\' between names; in names, '%', '"', ']', '\' (in
 * value names) and control characters are written as %XX (the UTF-8
 * bytes in hex).  A value is its REG_* type in decimal and its raw bytes
 * in hex, exactly as RegSetValueEx stored them (REG_SZ: UTF-16LE).  Keys
 * are listed parents first; a key with neither values nor subkeys is
 * listed too, so it survives.  Volatile keys are not written.  Lines
 * starting with '#' and blank lines are ignored; a malformed line makes
 * the whole file unreadable (ERROR_REGISTRY_CORRUPT) rather than
 * silently dropping keys, and ndrun says which file and line (once per
 * version of the file).
 *
 * Writing: to "<file>.tmp", then rename over the file, under an flock
 * of "<file>.lock" that every reader and writer takes; a process rereads
 * a hive whose file changed (size, mtime, inode) since it last read it. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <pwd.h>
#include <unistd.h>

#include "advapi32/regstore.h"
#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"
#include "core/hexdigit.h"

#define EPOCH_DIFF 116444736000000000ull

static const WCHAR empty_name[] = { 0 };

static const char *const hive_files[HIVE_COUNT] = { "machine.reg", "user.reg", "users.reg" };

struct hive {
	struct reg_key *root;
	struct stat seen; /* the file as last read or written */
	bool have_seen;
	int lock_fd;
	char *path;        /* NULL: kept in memory only (no folder) */
	bool opened;       /* path decided */
	bool warned;       /* this version of the file was said to be bad */
	bool write_warned; /* said that it cannot be written */
};

static struct hive hives[HIVE_COUNT];
static pthread_mutex_t hives_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the tree ------------------------------------------------------------ */

static void now_filetime(FILETIME *ft)
{
	struct timespec ts;
	ULONGLONG t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t = (ULONGLONG)ts.tv_sec * 10000000ull + ts.tv_nsec / 100 + EPOCH_DIFF;
	ft->dwLowDateTime = (DWORD)t;
	ft->dwHighDateTime = (DWORD)(t >> 32);
}

static struct reg_key *key_new(struct reg_key *parent, const WCHAR *name, size_t len)
{
	struct reg_key *k = calloc(1, sizeof(*k));

	if (!k || !(k->name = malloc((len + 1) * sizeof(WCHAR)))) {
		free(k);
		return NULL;
	}
	memcpy(k->name, name, len * sizeof(WCHAR));
	k->name[len] = 0;
	k->parent = parent;
	list_init(&k->subkeys);
	list_init(&k->values);
	list_init(&k->entry);
	now_filetime(&k->last_write);
	return k;
}

static void value_free(struct reg_value *v)
{
	free(v->name);
	free(v->data);
	free(v);
}

static void key_free(struct reg_key *k)
{
	struct list *cur, *tmp;

	LIST_FOR_EACH_SAFE(cur, tmp, &k->subkeys)
		key_free(LIST_ENTRY(cur, struct reg_key, entry));
	LIST_FOR_EACH_SAFE(cur, tmp, &k->values)
		value_free(LIST_ENTRY(cur, struct reg_value, entry));
	free(k->name);
	free(k);
}

static int name_ncmp(const WCHAR *a, const WCHAR *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen && a[i]; i++) {
		WCHAR x = wch_toupper(a[i]), y = wch_toupper(b[i]);

		if (x != y)
			return x < y ? -1 : 1;
	}
	if (i < blen)
		return -1;
	return a[i] ? 1 : 0;
}

/* The subkey named name[0..len), or NULL; *before: where a new one goes. */
static struct reg_key *subkey(struct reg_key *k, const WCHAR *name, size_t len, struct list **before)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &k->subkeys) {
		struct reg_key *s = LIST_ENTRY(cur, struct reg_key, entry);
		int c = name_ncmp(s->name, name, len);

		if (!c)
			return s;
		if (c > 0) {
			if (before)
				*before = cur;
			return NULL;
		}
	}
	if (before)
		*before = &k->subkeys;
	return NULL;
}

static struct reg_key *walk(struct reg_key *k, const WCHAR *path, bool create, bool is_volatile,
			    bool *created)
{
	if (created)
		*created = false;
	while (k && path && *path) {
		const WCHAR *end = path;
		struct list *before;
		struct reg_key *s;

		while (*end && *end != '\\')
			end++;
		if (end > path) {
			s = subkey(k, path, end - path, &before);
			if (!s && create) {
				s = key_new(k, path, end - path);
				if (!s)
					return NULL;
				s->is_volatile = is_volatile || k->is_volatile;
				list_add_before(before, &s->entry);
				regkey_touch(k);
				if (created)
					*created = true;
			} else if (s && created) {
				*created = false;
			}
			k = s;
		}
		path = *end ? end + 1 : end;
	}
	return k;
}

struct reg_key *regkey_find(struct reg_key *key, const WCHAR *path)
{
	return walk(key, path, false, false, NULL);
}

struct reg_key *regkey_create(struct reg_key *key, const WCHAR *path, bool is_volatile, bool *created)
{
	return walk(key, path, true, is_volatile, created);
}

void regkey_delete(struct reg_key *key)
{
	if (key->parent)
		regkey_touch(key->parent);
	list_remove(&key->entry);
	key_free(key);
}

struct reg_value *regkey_value(struct reg_key *key, const WCHAR *name)
{
	struct list *cur;

	if (!name)
		name = empty_name;
	LIST_FOR_EACH(cur, &key->values) {
		struct reg_value *v = LIST_ENTRY(cur, struct reg_value, entry);

		if (!name_ncmp(v->name, name, wstr_len(name)))
			return v;
	}
	return NULL;
}

bool regkey_set_value(struct reg_key *key, const WCHAR *name, DWORD type, const void *data, DWORD size)
{
	struct reg_value *v = regkey_value(key, name);
	BYTE *copy = malloc(size ? size : 1);

	if (!copy)
		return false;
	memcpy(copy, data, size);
	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v || !(v->name = wstr_dup(name ? name : empty_name))) {
			free(v);
			free(copy);
			return false;
		}
		list_add_tail(&key->values, &v->entry);
	}
	free(v->data);
	v->data = copy;
	v->size = size;
	v->type = type;
	regkey_touch(key);
	return true;
}

void regkey_delete_value(struct reg_value *value)
{
	list_remove(&value->entry);
	value_free(value);
}

void regkey_touch(struct reg_key *key)
{
	now_filetime(&key->last_write);
}

/* ---- the folder ---------------------------------------------------------- */

char *registry_folder(void)
{
	const char *env = getenv("NDSHIM_REGISTRY"), *base;
	char *path;

	if (env && *env)
		return strdup(env);
	base = getenv("XDG_DATA_HOME");
	if (base && *base) {
		if (asprintf(&path, "%s/ndshim/registry", base) < 0)
			return NULL;
		return path;
	}
	base = getenv("HOME");
	if (!base || !*base) {
		struct passwd *pw = getpwuid(getuid());

		base = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	if (!base)
		return NULL;
	if (asprintf(&path, "%s/.local/share/ndshim/registry", base) < 0)
		return NULL;
	return path;
}

static int mkdirs(const char *path)
{
	char *p = strdup(path), *s;
	int ret = 0;

	if (!p)
		return -1;
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0700) && errno != EEXIST)
			ret = -1;
		*s = '/';
	}
	if (mkdir(p, 0700) && errno != EEXIST)
		ret = -1;
	free(p);
	return ret;
}

/* ---- writing ------------------------------------------------------------- */

static void put_name(FILE *f, const WCHAR *name, bool value_name)
{
	char *u = utf16_to_utf8_dup(name);

	for (const unsigned char *p = (const unsigned char *)(u ? u : ""); *p; p++) {
		if (*p < 0x20 || *p == '%' || *p == '"' || *p == ']' || (value_name && *p == '\\') || *p == 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
	free(u);
}

static void put_path(FILE *f, const struct reg_key *k)
{
	if (!k->parent)
		return;
	if (k->parent->parent) {
		put_path(f, k->parent);
		fputc('\\', f);
	}
	put_name(f, k->name, false);
}

static void write_key(FILE *f, const struct reg_key *k)
{
	struct list *cur;

	if (k->is_volatile)
		return;
	if (k->parent) {
		fputc('[', f);
		put_path(f, k);
		fputs("]\n", f);
	}
	LIST_FOR_EACH(cur, &k->values) {
		const struct reg_value *v = LIST_ENTRY(cur, struct reg_value, entry);

		if (v->name[0]) {
			fputc('"', f);
			put_name(f, v->name, true);
			fputc('"', f);
		} else {
			fputc('@', f);
		}
		fprintf(f, "=%u:", (unsigned int)v->type);
		for (DWORD i = 0; i < v->size; i++)
			fprintf(f, "%02x", v->data[i]);
		fputc('\n', f);
	}
	LIST_FOR_EACH(cur, &k->subkeys)
		write_key(f, LIST_ENTRY(cur, struct reg_key, entry));
}

static DWORD save(struct hive *h)
{
	char *tmp;
	FILE *f;
	int ok;

	if (asprintf(&tmp, "%s.tmp", h->path) < 0)
		return ERROR_NOT_ENOUGH_MEMORY;
	{
		/* The user's own registry: readable by the user alone. */
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f && fd >= 0)
			close(fd);
	}
	if (!f) {
		/* Once per hive: a program that writes often would repeat it. */
		if (!h->write_warned)
			ndrun_error("registry file %s: cannot write it: %s (changes to its keys fail with "
				    "ERROR_REGISTRY_IO_FAILED)", h->path, strerror(errno));
		h->write_warned = true;
		free(tmp);
		return ERROR_REGISTRY_IO_FAILED;
	}
	fputs("ndshim registry 1\n", f);
	write_key(f, h->root);
	ok = !ferror(f) & !fflush(f) & !fsync(fileno(f));
	ok &= !fclose(f);
	if (!ok || rename(tmp, h->path)) {
		unlink(tmp);
		free(tmp);
		return ERROR_REGISTRY_IO_FAILED;
	}
	free(tmp);
	h->have_seen = !stat(h->path, &h->seen);
	return ERROR_SUCCESS;
}

/* ---- reading ------------------------------------------------------------- */

/* Undoes put_name's %XX in s[0..len) (in place) and converts to UTF-16. */
static WCHAR *get_name(char *s, size_t len)
{
	size_t o = 0;
	WCHAR *w;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len + 1 && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
			s[o++] = (char)(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
			i += 2;
		} else {
			s[o++] = s[i];
		}
	}
	s[o] = 0;
	w = utf8_to_utf16_dup(s);
	return w;
}

static bool parse_value(struct reg_key *k, char *line)
{
	char *eq, *colon, *hex;
	WCHAR *name;
	unsigned long type;
	size_t n;
	BYTE *data;
	bool ok;

	if (line[0] == '@') {
		eq = line + 1;
		name = wstr_dup(empty_name);
	} else {
		char *close = strchr(line + 1, '"');

		if (line[0] != '"' || !close)
			return false;
		eq = close + 1;
		name = get_name(line + 1, close - line - 1);
	}
	if (!name || *eq != '=') {
		free(name);
		return false;
	}
	type = strtoul(eq + 1, &colon, 10);
	if (*colon != ':') {
		free(name);
		return false;
	}
	hex = colon + 1;
	n = strlen(hex);
	if (n % 2) {
		free(name);
		return false;
	}
	data = malloc(n / 2 + 1);
	ok = data != NULL;
	for (size_t i = 0; ok && i < n / 2; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		ok = hi >= 0 && lo >= 0;
		if (ok)
			data[i] = (BYTE)(hi * 16 + lo);
	}
	ok = ok && regkey_set_value(k, name, (DWORD)type, data, (DWORD)(n / 2));
	free(data);
	free(name);
	return ok;
}

/* The hive's tree from its file; an empty tree when there is no file.
 * NULL with *err set when the file is unreadable or malformed. */
static struct reg_key *load(struct hive *h, DWORD *err)
{
	struct reg_key *root = key_new(NULL, empty_name, 0), *cur = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned int lineno = 0;
	FILE *f;

	if (!root) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	f = fopen(h->path, "re");
	if (!f) {
		h->have_seen = false;
		if (errno == ENOENT)
			return root;
		if (!h->warned)
			ndrun_error("registry file %s: %s (its keys cannot be read or changed)", h->path,
				    strerror(errno));
		h->warned = true;
		key_free(root);
		*err = ERROR_REGISTRY_IO_FAILED;
		return NULL;
	}
	h->have_seen = !fstat(fileno(f), &h->seen);
	while ((len = getline(&line, &cap, f)) >= 0) {
		bool ok = true;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (++lineno == 1) {
			ok = !strcmp(line, "ndshim registry 1");
		} else if (!len || line[0] == '#') {
			continue;
		} else if (line[0] == '[' && line[len - 1] == ']') {
			char *p = line + 1, *end = line + len - 1;
			WCHAR *path;

			/* Names are unescaped one at a time: an escaped '\' would
			 * otherwise split a name. */
			cur = root;
			while (ok && p < end) {
				char *sep = memchr(p, '\\', end - p);
				char *stop = sep ? sep : end;

				path = get_name(p, stop - p);
				ok = path && (cur = regkey_create(cur, path, false, NULL)) != NULL;
				free(path);
				p = stop + 1;
			}
		} else if (cur) {
			ok = parse_value(cur, line);
		} else {
			ok = false;
		}
		if (!ok) {
			if (!h->warned)
				ndrun_error("registry file %s:%u: malformed line: the hive is unreadable "
					    "(ERROR_REGISTRY_CORRUPT) until the line is fixed or the file removed",
					    h->path, lineno);
			h->warned = true;
			free(line);
			fclose(f);
			key_free(root);
			*err = ERROR_REGISTRY_CORRUPT;
			return NULL;
		}
	}
	free(line);
	fclose(f);
	h->warned = false;
	return root;
}

static bool file_changed(struct hive *h)
{
	struct stat st;

	if (stat(h->path, &st))
		return h->have_seen; /* deleted since */
	return !h->have_seen || st.st_size != h->seen.st_size || st.st_ino != h->seen.st_ino ||
	       st.st_mtim.tv_sec != h->seen.st_mtim.tv_sec || st.st_mtim.tv_nsec != h->seen.st_mtim.tv_nsec;
}

struct reg_key *hive_lock(enum hive_id id, DWORD *err)
{
	struct hive *h = &hives[id];

	pthread_mutex_lock(&hives_lock);
	if (!h->opened) {
		char *folder = registry_folder();
		static bool said;

		h->lock_fd = -1;
		if (!folder) {
			if (!said)
				ndrun_error("HOME is not set and user %u has no home folder: the registry is kept in "
					    "memory for this run (NDSHIM_REGISTRY=DIR keeps it in DIR)",
					    (unsigned)getuid());
			said = true;
		} else if (asprintf(&h->path, "%s/%s", folder, hive_files[id]) < 0) {
			free(folder);
			h->path = NULL;
			pthread_mutex_unlock(&hives_lock);
			*err = ERROR_NOT_ENOUGH_MEMORY;
			return NULL;
		}
		free(folder);
		h->opened = true;
	}
	if (!h->path) {
		if (!h->root && !(h->root = key_new(NULL, empty_name, 0))) {
			pthread_mutex_unlock(&hives_lock);
			*err = ERROR_NOT_ENOUGH_MEMORY;
			return NULL;
		}
		return h->root;
	}
	if (h->lock_fd < 0) {
		char *lock;

		if (asprintf(&lock, "%s.lock", h->path) >= 0) {
			char *slash = strrchr(lock, '/');

			if (slash) {
				*slash = 0;
				mkdirs(lock);
				*slash = '/';
			}
			h->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
			free(lock);
		}
	}
	/* Without a lock file (a read-only folder) the hive still reads. */
	if (h->lock_fd >= 0)
		while (flock(h->lock_fd, LOCK_EX) && errno == EINTR)
			;
	if (!h->root || file_changed(h)) {
		struct reg_key *root = load(h, err);

		if (!root) {
			if (h->lock_fd >= 0)
				flock(h->lock_fd, LOCK_UN);
			pthread_mutex_unlock(&hives_lock);
			return NULL;
		}
		/* Volatile keys live in this process only: keep them. */
		if (h->root) {
			struct list *cur, *tmp;

			LIST_FOR_EACH_SAFE(cur, tmp, &h->root->subkeys) {
				struct reg_key *k = LIST_ENTRY(cur, struct reg_key, entry);
				struct list *before;

				if (!k->is_volatile || subkey(root, k->name, wstr_len(k->name), &before))
					continue;
				list_remove(&k->entry);
				k->parent = root;
				list_add_before(before, &k->entry);
			}
			key_free(h->root);
		}
		h->root = root;
		TRACE(misc, "read %s\n", h->path);
	}
	return h->root;
}

DWORD hive_unlock(enum hive_id id, bool modified)
{
	struct hive *h = &hives[id];
	DWORD ret = ERROR_SUCCESS;

	if (modified && h->path) {
		char *slash = strrchr(h->path, '/');

		if (slash) {
			*slash = 0;
			mkdirs(h->path);
			*slash = '/';
		}
		ret = save(h);
	}
	if (h->lock_fd >= 0)
		flock(h->lock_fd, LOCK_UN);
	pthread_mutex_unlock(&hives_lock);
	return ret;
}

void regstore_forget(void)
{
	pthread_mutex_lock(&hives_lock);
	for (int i = 0; i < HIVE_COUNT; i++) {
		if (hives[i].root)
			key_free(hives[i].root);
		hives[i].root = NULL;
		hives[i].have_seen = false;
		free(hives[i].path);
		hives[i].path = NULL;
		hives[i].opened = false;
		hives[i].warned = false;
		if (hives[i].lock_fd > 0)
			close(hives[i].lock_fd);
		hives[i].lock_fd = -1;
	}
	pthread_mutex_unlock(&hives_lock);
}
