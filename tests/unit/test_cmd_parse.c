/* The builtin cmd's reading of a line (winapi-shim/cmd/parse.c): %VAR%
 * expansion, /c's outer quotes, the split into pipelines, commands and
 * redirections, words, and which program names are cmd's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "core/codepage.h"
#include "core/wstr.h"

static WCHAR *W(const char *s)
{
	static WCHAR *keep[64];
	static int n;
	WCHAR *w = utf8_to_utf16_dup(s);

	free(keep[n % 64]);
	keep[n++ % 64] = w;
	return w;
}

static char *U(const WCHAR *w)
{
	static char *keep[64];
	static int n;
	char *s = utf16_to_utf8_dup(w);

	free(keep[n % 64]);
	keep[n++ % 64] = s;
	return s;
}

static WCHAR *getvar(const WCHAR *name, void *ctx)
{
	(void)ctx;
	if (!wstr_icmp(name, W("HOME")))
		return utf8_to_utf16_dup("C:\\users\\me");
	if (!wstr_icmp(name, W("EMPTY")))
		return utf8_to_utf16_dup("");
	return NULL;
}

static void test_expand(void **state)
{
	WCHAR *r;

	(void)state;
	r = cmd_expand(W("echo %home%\\x %unset% 100% %%"), getvar, NULL);
	assert_string_equal(U(r), "echo C:\\users\\me\\x %unset% 100% %%");
	free(r);
	r = cmd_expand(W("[%EMPTY%]"), getvar, NULL);
	assert_string_equal(U(r), "[]");
	free(r);
}

static bool exists_prog(const WCHAR *name, void *ctx)
{
	(void)ctx;
	return !wstr_cmp(name, W("C:\\Program Files\\p.exe"));
}

static void test_strip_quotes(void **state)
{
	WCHAR *r;

	(void)state;
	/* two quotes around a program with a blank: kept */
	r = cmd_strip_quotes(W("\"C:\\Program Files\\p.exe\""), false, exists_prog, NULL);
	assert_string_equal(U(r), "\"C:\\Program Files\\p.exe\"");
	free(r);
	/* /S: the outer pair goes */
	r = cmd_strip_quotes(W("\"C:\\Program Files\\p.exe\""), true, exists_prog, NULL);
	assert_string_equal(U(r), "C:\\Program Files\\p.exe");
	free(r);
	/* more quotes: the first and the last go */
	r = cmd_strip_quotes(W("\"\"a b\" \"c\"\""), false, exists_prog, NULL);
	assert_string_equal(U(r), "\"a b\" \"c\"");
	free(r);
	/* no leading quote: as it is */
	r = cmd_strip_quotes(W("  echo \"x\""), false, exists_prog, NULL);
	assert_string_equal(U(r), "echo \"x\"");
	free(r);
}

static void test_split(void **state)
{
	struct cmd_line l;
	const char *err = NULL;

	(void)state;
	assert_int_equal(cmd_parse(W("a 1 & b && c || d | e f"), &l, &err), 0);
	assert_int_equal(l.npipes, 4);
	assert_int_equal(l.pipes[0].join, CMD_SEQ);
	assert_string_equal(U(l.pipes[0].cmds[0].text), "a 1 ");
	assert_int_equal(l.pipes[1].join, CMD_SEQ);
	assert_int_equal(l.pipes[2].join, CMD_AND);
	assert_int_equal(l.pipes[3].join, CMD_OR);
	assert_int_equal(l.pipes[3].ncmds, 2);
	assert_string_equal(U(l.pipes[3].cmds[0].text), "d ");
	assert_string_equal(U(l.pipes[3].cmds[1].text), "e f");
	cmd_line_free(&l);

	/* quotes and ^ protect the operators */
	assert_int_equal(cmd_parse(W("echo \"a & b\" ^& c^|d"), &l, &err), 0);
	assert_int_equal(l.npipes, 1);
	assert_string_equal(U(l.pipes[0].cmds[0].text), "echo \"a & b\" & c|d");
	cmd_line_free(&l);
}

static void test_redirections(void **state)
{
	struct cmd_line l;
	const char *err = NULL;
	struct cmd_simple *c;

	(void)state;
	assert_int_equal(cmd_parse(W("prog x>out.txt 2>>\"e r.log\" <in 2>&1 y"), &l, &err), 0);
	c = &l.pipes[0].cmds[0];
	/* the blanks around a redirection stay */
	assert_string_equal(U(c->text), "prog x    y");
	assert_int_equal(c->nredirs, 4);
	assert_int_equal(c->redirs[0].fd, 1);
	assert_int_equal(c->redirs[0].kind, CMD_R_OUT);
	assert_string_equal(U(c->redirs[0].target), "out.txt");
	assert_int_equal(c->redirs[1].fd, 2);
	assert_int_equal(c->redirs[1].kind, CMD_R_APPEND);
	assert_string_equal(U(c->redirs[1].target), "e r.log");
	assert_int_equal(c->redirs[2].fd, 0);
	assert_int_equal(c->redirs[2].kind, CMD_R_IN);
	assert_int_equal(c->redirs[3].kind, CMD_R_DUP);
	assert_int_equal(c->redirs[3].dup_fd, 1);
	cmd_line_free(&l);

	/* a digit inside a word is not a handle number */
	assert_int_equal(cmd_parse(W("echo a2>f"), &l, &err), 0);
	assert_string_equal(U(l.pipes[0].cmds[0].text), "echo a2");
	assert_int_equal(l.pipes[0].cmds[0].redirs[0].fd, 1);
	cmd_line_free(&l);
}

static void test_refusals(void **state)
{
	struct cmd_line l;
	const char *err = NULL;

	(void)state;
	assert_int_equal(cmd_parse(W("(echo x)"), &l, &err), -1);
	assert_non_null(strstr(err, "not supported by ndrun's cmd"));
	assert_int_equal(cmd_parse(W("echo x &"), &l, &err), -1);
	assert_string_equal(err, "The syntax of the command is incorrect.");
	assert_int_equal(cmd_parse(W("echo >"), &l, &err), -1);
	assert_int_equal(cmd_parse(W("x 3>f"), &l, &err), -1);
	assert_non_null(strstr(err, "not supported by ndrun's cmd"));
}

static void test_words_and_names(void **state)
{
	WCHAR **v;
	int n;

	(void)state;
	n = cmd_words(W("  a \"b c\"d  e "), &v);
	assert_int_equal(n, 3);
	assert_string_equal(U(v[0]), "a");
	assert_string_equal(U(v[1]), "b cd");
	assert_string_equal(U(v[2]), "e");
	cmd_words_free(v, n);
	assert_true(cmd_is_name(W("cmd"), 3));
	assert_true(cmd_is_name(W("CMD.EXE"), 7));
	assert_true(cmd_is_name(W("C:\\windows\\system32\\cmd.exe"), 27));
	assert_false(cmd_is_name(W("cmdx.exe"), 8));
	assert_false(cmd_is_name(W("mycmd"), 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_strip_quotes),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_redirections),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_words_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
