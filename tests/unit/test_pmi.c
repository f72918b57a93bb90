/* The PMI wire client (core/pmi.c) against a scripted process manager on
 * a socket pair: each step is the exact request the client must send and
 * the answer the server gives, in PMI-1's lines or PMI-2's length-framed
 * form, as hydra and Slurm write them. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/pmi.h"

struct step {
	int framing;	  /* 1: a line; 2: a 6-digit length and the bytes */
	const char *req;  /* what the client must send (without framing) */
	const char *resp; /* what the server answers, or NULL for nothing */
};

struct server {
	int fd;
	const struct step *steps;
	int nsteps, done;
	char mismatch[9000];
};

static int read_n(int fd, char *buf, size_t n)
{
	while (n) {
		ssize_t r = read(fd, buf, n);

		if (r <= 0)
			return -1;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static void *serve(void *arg)
{
	struct server *s = arg;

	for (; s->done < s->nsteps; s->done++) {
		const struct step *st = &s->steps[s->done];
		char got[4096], hdr[32];
		size_t n = 0;

		if (st->framing == 1) {
			do {
				if (read_n(s->fd, got + n, 1))
					goto gone;
			} while (got[n++] != '\n' && n < sizeof(got) - 1);
			got[n] = 0;
		} else {
			if (read_n(s->fd, hdr, 6))
				goto gone;
			hdr[6] = 0;
			n = strtoul(hdr, NULL, 10);
			if (n >= sizeof(got) || read_n(s->fd, got, n))
				goto gone;
			got[n] = 0;
		}
		if (strcmp(got, st->req)) {
			snprintf(s->mismatch, sizeof(s->mismatch), "step %d: got '%s', want '%s'", s->done, got, st->req);
			break;
		}
		if (st->resp) {
			if (st->framing == 2) {
				snprintf(hdr, sizeof(hdr), "%6u", (unsigned)(strlen(st->resp) % 1000000));
				if (write(s->fd, hdr, 6) != 6)
					break;
			}
			if (write(s->fd, st->resp, strlen(st->resp)) != (ssize_t)strlen(st->resp))
				break;
		}
	}
	return NULL;
gone:
	snprintf(s->mismatch, sizeof(s->mismatch), "step %d: the client closed the connection", s->done);
	return NULL;
}

struct session {
	int fds[2];
	pthread_t thread;
	struct server srv;
};

static void start(struct session *ss, const struct step *steps, int n)
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, ss->fds), 0);
	memset(&ss->srv, 0, sizeof(ss->srv));
	ss->srv.fd = ss->fds[1];
	ss->srv.steps = steps;
	ss->srv.nsteps = n;
	assert_int_equal(pthread_create(&ss->thread, NULL, serve, &ss->srv), 0);
}

/* Every step was taken, exactly as scripted. */
static void finish(struct session *ss)
{
	close(ss->fds[0]);
	pthread_join(ss->thread, NULL);
	close(ss->fds[1]);
	if (ss->srv.mismatch[0])
		fail_msg("%s", ss->srv.mismatch);
	assert_int_equal(ss->srv.done, ss->srv.nsteps);
}

/* PMI-1 as hydra serves it. */
static const struct step pmi1_steps[] = {
	{ 1, "cmd=init pmi_version=1 pmi_subversion=1\n", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n" },
	{ 1, "cmd=get_maxes\n", "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n" },
	{ 1, "cmd=get_appnum\n", "cmd=appnum appnum=3\n" },
	{ 1, "cmd=get_my_kvsname\n", "cmd=my_kvsname kvsname=kvs_42_0\n" },
	{ 1, "cmd=put kvsname=kvs_42_0 key=bc-1 value=port%3D5%20host%3Da%3Bb\n", "cmd=put_result rc=0 msg=success\n" },
	{ 1, "cmd=barrier_in\n", "cmd=barrier_out\n" },
	{ 1, "cmd=get kvsname=kvs_42_0 key=bc-0\n", "cmd=get_result rc=0 msg=success value=port%3D9%20x\n" },
	{ 1, "cmd=get kvsname=kvs_42_0 key=nothing\n", "cmd=get_result rc=-1 msg=key_nothing_not_found\n" },
	{ 1, "cmd=get kvsname=kvs_42_0 key=PMI_process_mapping\n",
	  "cmd=get_result rc=0 msg=success value=(vector,(0,2,1))\n" },
	{ 1, "cmd=finalize\n", "cmd=finalize_ack\n" },
	{ 1, "cmd=abort exitcode=7\n", NULL },
};

static void test_pmi1(void **state)
{
	struct session ss;
	struct pmi p;
	char v[PMI_MAX_VALUE];

	start(&ss, pmi1_steps, sizeof(pmi1_steps) / sizeof(pmi1_steps[0]));
	assert_int_equal(pmi_init(&p, ss.fds[0], 1, 1, 2, NULL), 0);
	assert_int_equal(p.version, 1);
	assert_int_equal(p.rank, 1);
	assert_int_equal(p.size, 2);
	assert_int_equal(p.appnum, 3);
	assert_string_equal(p.kvsname, "kvs_42_0");
	assert_int_equal(pmi_put(&p, "bc-1", "port=5 host=a;b"), 0);
	assert_int_equal(pmi_fence(&p), 0);
	assert_int_equal(pmi_get(&p, "bc-0", v, sizeof(v)), 0);
	assert_string_equal(v, "port=9 x");
	errno = 0;
	assert_int_equal(pmi_get(&p, "nothing", v, sizeof(v)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(pmi_process_mapping(&p, v, sizeof(v)), 0);
	assert_string_equal(v, "(vector,(0,2,1))");
	assert_int_equal(pmi_finalize(&p), 0);
	assert_int_equal(pmi_abort(&p, 7, "bye"), 0);
	finish(&ss);
}

/* PMI-2 as hydra serves it (Slurm's answers have the same fields), with
 * a three-rank fence: this rank's key, the fence, the others' keys. */
static const struct step pmi2_steps[] = {
	{ 1, "cmd=init pmi_version=2 pmi_subversion=0\n", "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n" },
	{ 2, "cmd=fullinit;pmirank=2;threaded=FALSE;",
	  "cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=2;size=3;appnum=0;debugged=FALSE;pmiverbose=FALSE;rc=0;" },
	{ 2, "cmd=job-getid;", "cmd=job-getid-response;jobid=77.0;rc=0;" },
	{ 2, "cmd=kvs-put;key=db-k;value=a%20b%3Bc;", "cmd=kvs-put-response;rc=0;" },
	{ 2, "cmd=kvs-put;key=ndshim-fence-1-2;value=1;", "cmd=kvs-put-response;rc=0;" },
	{ 2, "cmd=kvs-fence;", "cmd=kvs-fence-response;rc=0;" },
	{ 2, "cmd=kvs-get;jobid=77.0;srcid=-1;key=ndshim-fence-1-0;", "cmd=kvs-get-response;found=TRUE;value=1;rc=0;" },
	{ 2, "cmd=kvs-get;jobid=77.0;srcid=-1;key=ndshim-fence-1-1;", "cmd=kvs-get-response;found=TRUE;value=1;rc=0;" },
	{ 2, "cmd=kvs-get;jobid=77.0;srcid=-1;key=db-k;", "cmd=kvs-get-response;found=TRUE;value=a%20b%3Bc;rc=0;" },
	{ 2, "cmd=kvs-get;jobid=77.0;srcid=-1;key=db-none;", "cmd=kvs-get-response;found=FALSE;rc=0;" },
	{ 2, "cmd=info-getjobattr;key=PMI_process_mapping;",
	  "cmd=info-getjobattr-response;found=TRUE;value=(vector,(0,1,2),(1,1,1));rc=0;" },
	{ 2, "cmd=finalize;", "cmd=finalize-response;rc=0;" },
};

static void test_pmi2(void **state)
{
	struct session ss;
	struct pmi p;
	char v[PMI_MAX_VALUE];
	unsigned short node[3];

	start(&ss, pmi2_steps, sizeof(pmi2_steps) / sizeof(pmi2_steps[0]));
	assert_int_equal(pmi_init(&p, ss.fds[0], 0, 2, -1, NULL), 0);
	assert_int_equal(p.version, 2);
	assert_int_equal(p.size, 3);
	assert_string_equal(p.kvsname, "77.0");
	assert_int_equal(pmi_put(&p, "db-k", "a b;c"), 0);
	assert_int_equal(pmi_fence(&p), 0);
	assert_int_equal(pmi_get(&p, "db-k", v, sizeof(v)), 0);
	assert_string_equal(v, "a b;c");
	errno = 0;
	assert_int_equal(pmi_get(&p, "db-none", v, sizeof(v)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(pmi_process_mapping(&p, v, sizeof(v)), 0);
	assert_true(pmi_parse_mapping(v, 3, node));
	assert_int_equal(node[0], 0);
	assert_int_equal(node[1], 0);
	assert_int_equal(node[2], 1);
	assert_int_equal(pmi_finalize(&p), 0);
	finish(&ss);
}

/* PMI-2 as Slurm's pmi2 plugin serves it: the fullinit names the job
 * (PMI_JOBID), which Slurm requires ("pmijobid missing in fullinit
 * command" and rc -1 otherwise: srun's ranks ended 126). */
static const struct step slurm_steps[] = {
	{ 1, "cmd=init pmi_version=2 pmi_subversion=0\n", "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n" },
	{ 2, "cmd=fullinit;pmijobid=41.0;pmirank=1;threaded=FALSE;",
	  "cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=1;size=4;appnum=0;rc=0;" },
	{ 2, "cmd=job-getid;", "cmd=job-getid-response;jobid=41.0;rc=0;" },
};

static void test_pmi2_slurm_jobid(void **state)
{
	struct session ss;
	struct pmi p;

	start(&ss, slurm_steps, sizeof(slurm_steps) / sizeof(slurm_steps[0]));
	assert_int_equal(pmi_init(&p, ss.fds[0], 0, 1, 4, "41.0"), 0);
	assert_int_equal(p.version, 2);
	assert_int_equal(p.rank, 1);
	assert_int_equal(p.size, 4);
	assert_string_equal(p.kvsname, "41.0");
	finish(&ss);
}

/* A server that refuses PMI-2 gets PMI-1; one that answers nonsense is
 * a protocol error. */
static const struct step fallback_steps[] = {
	{ 1, "cmd=init pmi_version=2 pmi_subversion=0\n", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1\n" },
	{ 1, "cmd=init pmi_version=1 pmi_subversion=1\n", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n" },
	{ 1, "cmd=get_maxes\n", "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=16\n" },
	{ 1, "cmd=get_appnum\n", "cmd=appnum appnum=0\n" },
	{ 1, "cmd=get_my_kvsname\n", "cmd=my_kvsname kvsname=k\n" },
	{ 1, "cmd=barrier_in\n", "cmd=something_else\n" },
};

static void test_fallback_and_errors(void **state)
{
	struct session ss;
	struct pmi p;

	start(&ss, fallback_steps, sizeof(fallback_steps) / sizeof(fallback_steps[0]));
	assert_int_equal(pmi_init(&p, ss.fds[0], 0, 0, 1, NULL), 0);
	assert_int_equal(p.version, 1);
	/* Longer than the server's vallen_max: refused before sending. */
	errno = 0;
	assert_int_equal(pmi_put(&p, "k", "a value longer than sixteen bytes"), -1);
	assert_int_equal(errno, EMSGSIZE);
	errno = 0;
	assert_int_equal(pmi_fence(&p), -1);
	assert_int_equal(errno, EPROTO);
	finish(&ss);
}

static void test_mapping(void **state)
{
	unsigned short node[8];

	/* Two nodes of 2, then the vector again for the rest. */
	assert_true(pmi_parse_mapping("(vector,(0,2,2))", 8, node));
	assert_int_equal(node[0], 0);
	assert_int_equal(node[1], 0);
	assert_int_equal(node[2], 1);
	assert_int_equal(node[3], 1);
	assert_int_equal(node[4], 0);
	assert_int_equal(node[7], 1);
	assert_true(pmi_parse_mapping(" (vector, (3,1,1), (5,2,1))", 3, node));
	assert_int_equal(node[0], 3);
	assert_int_equal(node[1], 5);
	assert_int_equal(node[2], 6);
	assert_false(pmi_parse_mapping("(vector)", 2, node));
	assert_false(pmi_parse_mapping("(vector,(0,0,1))", 2, node));
	assert_false(pmi_parse_mapping("(list,(0,1,1))", 2, node));
	assert_false(pmi_parse_mapping("(vector,(0,1,1)", 2, node));
}

static void test_escape(void **state)
{
	char e[64], u[64];

	assert_int_equal(pmi_escape("a b=c;d%e\n", e, sizeof(e)), strlen("a%20b%3Dc%3Bd%25e%0A"));
	assert_string_equal(e, "a%20b%3Dc%3Bd%25e%0A");
	pmi_unescape(e, u, sizeof(u));
	assert_string_equal(u, "a b=c;d%e\n");
	/* The length needed is returned even when it does not fit. */
	assert_int_equal(pmi_escape("   ", e, 4), 9);
	assert_string_equal(pmi_escape("host-1.x:5/a,b+c_d", e, sizeof(e)) ? e : "", "host-1.x:5/a,b+c_d");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmi1),
		cmocka_unit_test(test_pmi2),
		cmocka_unit_test(test_pmi2_slurm_jobid),
		cmocka_unit_test(test_fallback_and_errors),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
