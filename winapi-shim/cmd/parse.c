/* cmd's reading of a command line: variables, outer quotes, and the
 * split into pipelines, commands and redirections (cmd/cmd.h).  No Win32
 * here: the unit tests run it as it is. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/wstr.h"

/* A growing UTF-16 string. */
struct wbuf {
	WCHAR *s;
	size_t n, cap;
	bool oom;
};

static void wb_putn(struct wbuf *b, const WCHAR *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2 + 16;
		WCHAR *p = realloc(b->s, cap * sizeof(WCHAR));

		if (!p) {
			b->oom = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n * sizeof(WCHAR));
	b->n += n;
	b->s[b->n] = 0;
}

static void wb_put(struct wbuf *b, WCHAR c)
{
	wb_putn(b, &c, 1);
}

/* The string (terminated, possibly empty), or NULL out of memory. */
static WCHAR *wb_take(struct wbuf *b)
{
	if (!b->oom && !b->s)
		wb_putn(b, u"", 0);
	if (b->oom) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

static bool is_blank(WCHAR c)
{
	return c == ' ' || c == '\t';
}

WCHAR *cmd_expand(const WCHAR *line, cmd_getenv_fn get, void *ctx)
{
	struct wbuf b = { 0 };

	for (const WCHAR *p = line; *p;) {
		const WCHAR *end;

		if (*p != '%') {
			wb_put(&b, *p++);
			continue;
		}
		for (end = p + 1; *end && *end != '%'; end++)
			;
		if (!*end || end == p + 1) {
			/* a lone % (or %%): itself */
			wb_put(&b, *p++);
			continue;
		}
		size_t n = (size_t)(end - p - 1);
		WCHAR *name = malloc((n + 1) * sizeof(WCHAR)), *val = NULL;

		if (name) {
			memcpy(name, p + 1, n * sizeof(WCHAR));
			name[n] = 0;
			val = get(name, ctx);
			free(name);
		}
		if (val) {
			wb_putn(&b, val, wstr_len(val));
			free(val);
		} else {
			wb_putn(&b, p, (size_t)(end - p + 1));
		}
		p = end + 1;
	}
	return wb_take(&b);
}

static bool is_special(WCHAR c)
{
	return c == '&' || c == '<' || c == '>' || c == '(' || c == ')' || c == '@' || c == '^' || c == '|';
}

WCHAR *cmd_strip_quotes(const WCHAR *line, bool s_flag, bool (*exists)(const WCHAR *name, void *ctx), void *ctx)
{
	const WCHAR *p = line, *q1 = NULL, *q2 = NULL;
	size_t quotes = 0, len;
	WCHAR *out;

	while (is_blank(*p))
		p++;
	for (const WCHAR *c = p; *c; c++) {
		if (*c != '"')
			continue;
		quotes++;
		if (!q1)
			q1 = c;
		q2 = c;
	}
	if (!s_flag && quotes == 2) {
		bool special = false, blank = false;

		for (const WCHAR *c = q1 + 1; c < q2; c++) {
			special |= is_special(*c);
			blank |= is_blank(*c);
		}
		if (!special && blank) {
			size_t n = (size_t)(q2 - q1 - 1);
			WCHAR *name = malloc((n + 1) * sizeof(WCHAR));
			bool keep = false;

			if (name) {
				memcpy(name, q1 + 1, n * sizeof(WCHAR));
				name[n] = 0;
				keep = exists && exists(name, ctx);
				free(name);
			}
			if (keep)
				return wstr_dup(p);
		}
	}
	if (*p != '"')
		return wstr_dup(p);
	/* the first quote and the last one go */
	len = wstr_len(p);
	out = malloc((len + 1) * sizeof(WCHAR));
	if (!out)
		return NULL;
	size_t o = 0;
	for (const WCHAR *c = p + 1; *c; c++)
		if (c != q2 || q2 == p)
			out[o++] = *c;
	out[o] = 0;
	return out;
}

/* ---- the split ------------------------------------------------------------------ */

struct parser {
	const WCHAR *p;
	struct cmd_line *line;
	struct cmd_pipeline *pipe;
	struct wbuf text;
	struct cmd_simple cur;
	const char *error;
};

static bool grow(void **v, int n, size_t size)
{
	void *p = realloc(*v, (size_t)(n + 1) * size);

	if (!p)
		return false;
	*v = p;
	return true;
}

/* Leading blanks go; trailing ones stay: "echo x > f" writes "x ", as
 * cmd does. */
static void trim(WCHAR *s)
{
	size_t n = wstr_len(s), i = 0;

	while (is_blank(s[i]))
		i++;
	memmove(s, s + i, (n - i + 1) * sizeof(WCHAR));
}

static bool text_blank_str(const WCHAR *s)
{
	while (is_blank(*s))
		s++;
	return !*s;
}

static void simple_free(struct cmd_simple *c)
{
	free(c->text);
	for (int i = 0; i < c->nredirs; i++)
		free(c->redirs[i].target);
	memset(c, 0, sizeof(*c));
}

/* The command read so far goes into the pipeline. */
static int end_command(struct parser *ps)
{
	WCHAR *t = wb_take(&ps->text);

	memset(&ps->text, 0, sizeof(ps->text));
	if (!t) {
		ps->error = "out of memory";
		return -1;
	}
	trim(t);
	ps->cur.text = t;
	if (text_blank_str(t) && !ps->cur.nredirs) {
		free(t);
		ps->cur.text = NULL;
		ps->error = "The syntax of the command is incorrect.";
		return -1;
	}
	if (!grow((void **)&ps->pipe->cmds, ps->pipe->ncmds, sizeof(struct cmd_simple))) {
		ps->error = "out of memory";
		return -1;
	}
	ps->pipe->cmds[ps->pipe->ncmds++] = ps->cur;
	memset(&ps->cur, 0, sizeof(ps->cur));
	return 0;
}

static int new_pipeline(struct parser *ps, enum cmd_join join)
{
	struct cmd_line *l = ps->line;

	if (!grow((void **)&l->pipes, l->npipes, sizeof(struct cmd_pipeline))) {
		ps->error = "out of memory";
		return -1;
	}
	ps->pipe = &l->pipes[l->npipes++];
	memset(ps->pipe, 0, sizeof(*ps->pipe));
	ps->pipe->join = join;
	return 0;
}

static bool ends_word(WCHAR c)
{
	return !c || is_blank(c) || c == '&' || c == '|' || c == '<' || c == '>';
}

/* A redirection at ps->p ("2>", ">>", "<", "2>&1" ...). */
static int redirection(struct parser *ps)
{
	struct cmd_redir r = { 0 };
	struct wbuf name = { 0 };
	const WCHAR *p = ps->p;

	r.fd = *p >= '0' && *p <= '9' ? *p++ - '0' : *p == '<' ? 0 : 1;
	if (*p == '<') {
		r.kind = CMD_R_IN;
		p++;
	} else if (p[1] == '>') {
		r.kind = CMD_R_APPEND;
		p += 2;
	} else {
		r.kind = CMD_R_OUT;
		p++;
	}
	if (r.fd > 2) {
		ps->error = "redirections of handles 3 to 9 are not supported by ndrun's cmd";
		return -1;
	}
	if (*p == '&' && p[1] >= '0' && p[1] <= '2' && r.kind != CMD_R_IN) {
		r.kind = CMD_R_DUP;
		r.dup_fd = p[1] - '0';
		p += 2;
	} else {
		bool quoted = false;

		while (is_blank(*p))
			p++;
		while (*p && (quoted || !ends_word(*p))) {
			if (*p == '"') {
				quoted = !quoted;
				p++;
				continue;
			}
			if (*p == '^' && !quoted && p[1])
				p++;
			wb_put(&name, *p++);
		}
		r.target = wb_take(&name);
		if (!r.target || !*r.target) {
			free(r.target);
			ps->error = "The syntax of the command is incorrect.";
			return -1;
		}
	}
	if (ps->cur.nredirs == CMD_MAX_REDIRS) {
		free(r.target);
		ps->error = "too many redirections for ndrun's cmd";
		return -1;
	}
	ps->cur.redirs[ps->cur.nredirs++] = r;
	ps->p = p;
	return 0;
}

static bool text_blank(const struct wbuf *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (!is_blank(b->s[i]))
			return false;
	return true;
}

int cmd_parse(const WCHAR *line, struct cmd_line *out, const char **error)
{
	struct parser ps = { .p = line, .line = out };
	bool quoted = false;

	memset(out, 0, sizeof(*out));
	if (new_pipeline(&ps, CMD_SEQ))
		goto fail;
	while (*ps.p) {
		WCHAR c = *ps.p;

		if (quoted) {
			quoted = c != '"';
			wb_put(&ps.text, c);
			ps.p++;
			continue;
		}
		switch (c) {
		case '"':
			quoted = true;
			wb_put(&ps.text, c);
			ps.p++;
			continue;
		case '^':
			/* the next character as it is */
			if (ps.p[1])
				wb_put(&ps.text, ps.p[1]);
			ps.p += ps.p[1] ? 2 : 1;
			continue;
		case '&':
		case '|': {
			bool doubled = ps.p[1] == c;
			enum cmd_join join = c == '&' ? (doubled ? CMD_AND : CMD_SEQ) : CMD_OR;

			if (end_command(&ps))
				goto fail;
			ps.p += doubled ? 2 : 1;
			if (c == '|' && !doubled)
				continue; /* the next command of the pipeline */
			if (new_pipeline(&ps, join))
				goto fail;
			continue;
		}
		case '<':
		case '>':
			if (redirection(&ps))
				goto fail;
			continue;
		case '(':
			if (text_blank(&ps.text) && !ps.cur.nredirs) {
				ps.error = "blocks in parentheses are not supported by ndrun's cmd";
				goto fail;
			}
			break;
		case '@':
			/* "@command": no echo, which /c does not do anyway */
			if (text_blank(&ps.text)) {
				ps.p++;
				continue;
			}
			break;
		default:
			if (c >= '0' && c <= '9' && (ps.p[1] == '>' || ps.p[1] == '<') &&
			    (!ps.text.n || is_blank(ps.text.s[ps.text.n - 1]))) {
				if (redirection(&ps))
					goto fail;
				continue;
			}
			break;
		}
		wb_put(&ps.text, c);
		ps.p++;
	}
	if (end_command(&ps))
		goto fail;
	return 0;
fail:
	free(ps.text.s);
	simple_free(&ps.cur);
	cmd_line_free(out);
	*error = ps.error ? ps.error : "out of memory";
	return -1;
}

void cmd_line_free(struct cmd_line *l)
{
	for (int i = 0; i < l->npipes; i++) {
		for (int k = 0; k < l->pipes[i].ncmds; k++)
			simple_free(&l->pipes[i].cmds[k]);
		free(l->pipes[i].cmds);
	}
	free(l->pipes);
	memset(l, 0, sizeof(*l));
}

int cmd_words(const WCHAR *text, WCHAR ***argv)
{
	WCHAR **v = NULL;
	int n = 0;

	for (const WCHAR *p = text;;) {
		struct wbuf w = { 0 };
		bool quoted = false;

		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		while (*p && (quoted || !is_blank(*p))) {
			if (*p == '"')
				quoted = !quoted;
			else
				wb_put(&w, *p);
			p++;
		}
		WCHAR *word = wb_take(&w);
		if (!word || !grow((void **)&v, n, sizeof(*v))) {
			free(word);
			cmd_words_free(v, n);
			*argv = NULL;
			return -1;
		}
		v[n++] = word;
	}
	if (!grow((void **)&v, n, sizeof(*v))) {
		cmd_words_free(v, n);
		*argv = NULL;
		return -1;
	}
	v[n] = NULL;
	*argv = v;
	return n;
}

void cmd_words_free(WCHAR **argv, int n)
{
	for (int i = 0; argv && i < n; i++)
		free(argv[i]);
	free(argv);
}

bool cmd_is_name(const WCHAR *name, size_t len)
{
	size_t start = len;

	while (start && name[start - 1] != '\\' && name[start - 1] != '/' && name[start - 1] != ':')
		start--;
	name += start;
	len -= start;
	return (len == 3 && !wstr_nicmp(name, u"cmd", 3)) || (len == 7 && !wstr_nicmp(name, u"cmd.exe", 7));
}
