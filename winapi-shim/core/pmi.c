/* The PMI wire client (see pmi.h).  One request, one answer, under one
 * lock: rpcrt4 calls it from whichever thread makes the RPC. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/pmi.h"
#include "core/hexdigit.h"

static pthread_mutex_t pmi_lock = PTHREAD_MUTEX_INITIALIZER;

#define MSG_MAX 4096

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = ECONNRESET;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* PMI-1: one line, "\n" ended; read byte by byte so nothing of the next
 * message is consumed. */
static int read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	for (;;) {
		if (n + 1 >= len) {
			errno = EMSGSIZE;
			return -1;
		}
		if (read_all(fd, buf + n, 1))
			return -1;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = 0;
	return 0;
}

/* PMI-2: a 6-character decimal length, then that many bytes. */
static int send2(int fd, const char *msg)
{
	char hdr[7];
	size_t len = strlen(msg);

	if (len > 999999) {
		errno = EMSGSIZE;
		return -1;
	}
	snprintf(hdr, sizeof(hdr), "%-6zu", len);
	return write_all(fd, hdr, 6) || write_all(fd, msg, len) ? -1 : 0;
}

static int recv2(int fd, char *buf, size_t len)
{
	char hdr[7];
	unsigned long n;
	char *end;

	if (read_all(fd, hdr, 6))
		return -1;
	hdr[6] = 0;
	n = strtoul(hdr, &end, 10);
	if (end == hdr || n + 1 > len) {
		errno = EPROTO;
		return -1;
	}
	if (read_all(fd, buf, n))
		return -1;
	buf[n] = 0;
	return 0;
}

/* The value of key in a reply: PMI-1 fields are "key=value" separated by
 * spaces, PMI-2 fields by ';'.  Copied into out; false when absent. */
static bool field(const char *msg, char sep, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	const char *p = msg;

	while (*p) {
		const char *end = strchr(p, sep);
		size_t flen = end ? (size_t)(end - p) : strlen(p);

		if (flen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			size_t vlen = flen - klen - 1;

			if (vlen + 1 > len)
				return false;
			memcpy(out, p + klen + 1, vlen);
			out[vlen] = 0;
			return true;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

static bool field_is(const char *msg, char sep, const char *key, const char *want)
{
	char v[64];

	return field(msg, sep, key, v, sizeof(v)) && !strcmp(v, want);
}

static int field_int(const char *msg, char sep, const char *key, int dflt)
{
	char v[32];

	return field(msg, sep, key, v, sizeof(v)) ? atoi(v) : dflt;
}

/* One request and its answer; false (errno EPROTO) unless the answer is
 * cmd=want. */
static int request(struct pmi *p, const char *msg, const char *want, char *reply, size_t len)
{
	char sep = p->version == 2 ? ';' : ' ';

	TRACE(pmi, "-> %s\n", msg);
	if (p->version == 2 ? send2(p->fd, msg) : write_all(p->fd, msg, strlen(msg)))
		return -1;
	if (!want)
		return 0;
	if (p->version == 2 ? recv2(p->fd, reply, len) : read_line(p->fd, reply, len))
		return -1;
	TRACE(pmi, "<- %s\n", reply);
	if (!field_is(reply, sep, "cmd", want)) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* rc=0 in the answer (a missing rc counts as success: PMI-1's
 * barrier_out and finalize_ack carry none). */
static int check_rc(const char *reply, char sep)
{
	if (field_int(reply, sep, "rc", 0)) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static int init_version(struct pmi *p, int version)
{
	char msg[128], reply[MSG_MAX];

	snprintf(msg, sizeof(msg), "cmd=init pmi_version=%d pmi_subversion=%d\n", version, version == 2 ? 0 : 1);
	p->version = 1; /* the handshake itself is in PMI-1's form */
	if (request(p, msg, "response_to_init", reply, sizeof(reply)))
		return -1;
	if (check_rc(reply, ' ') || field_int(reply, ' ', "pmi_version", 0) != version) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	p->version = version;
	return 0;
}

static int init1(struct pmi *p)
{
	char reply[MSG_MAX];

	if (request(p, "cmd=get_maxes\n", "maxes", reply, sizeof(reply)) || check_rc(reply, ' '))
		return -1;
	p->vallen_max = field_int(reply, ' ', "vallen_max", 256);
	if (request(p, "cmd=get_appnum\n", "appnum", reply, sizeof(reply)))
		return -1;
	p->appnum = field_int(reply, ' ', "appnum", 0);
	if (request(p, "cmd=get_my_kvsname\n", "my_kvsname", reply, sizeof(reply)) || check_rc(reply, ' ') ||
	    !field(reply, ' ', "kvsname", p->kvsname, sizeof(p->kvsname))) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static int init2(struct pmi *p, const char *jobid)
{
	char msg[128 + PMI_MAX_KVSNAME], reply[MSG_MAX];

	/* Slurm's pmi2 plugin refuses a fullinit without pmijobid ("pmijobid
	 * missing in fullinit command", rc -1); hydra takes it without. */
	if (jobid && *jobid)
		snprintf(msg, sizeof(msg), "cmd=fullinit;pmijobid=%.*s;pmirank=%d;threaded=FALSE;",
			 PMI_MAX_KVSNAME - 1, jobid, p->rank);
	else
		snprintf(msg, sizeof(msg), "cmd=fullinit;pmirank=%d;threaded=FALSE;", p->rank);
	if (request(p, msg, "fullinit-response", reply, sizeof(reply)) || check_rc(reply, ';'))
		return -1;
	p->rank = field_int(reply, ';', "rank", p->rank);
	p->size = field_int(reply, ';', "size", p->size);
	p->appnum = field_int(reply, ';', "appnum", 0);
	p->vallen_max = PMI_MAX_VALUE;
	if (request(p, "cmd=job-getid;", "job-getid-response", reply, sizeof(reply)) || check_rc(reply, ';') ||
	    !field(reply, ';', "jobid", p->kvsname, sizeof(p->kvsname))) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

int pmi_init(struct pmi *p, int fd, int version, int rank, int size, const char *jobid)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->rank = rank;
	p->size = size;
	pthread_mutex_lock(&pmi_lock);
	rc = init_version(p, version > 0 ? version : version ? 1 : 2);
	if (rc && version <= 0 && errno == EPROTONOSUPPORT)
		rc = init_version(p, version ? 2 : 1);
	if (!rc)
		rc = p->version == 2 ? init2(p, jobid) : init1(p);
	pthread_mutex_unlock(&pmi_lock);
	if (!rc && (p->rank < 0 || p->size <= 0 || p->rank >= p->size)) {
		errno = EPROTO;
		rc = -1;
	}
	TRACE(pmi, "PMI-%d rank %d of %d, kvs %s: %d\n", p->version, p->rank, p->size, p->kvsname, rc);
	return rc;
}

int pmi_put(struct pmi *p, const char *key, const char *value)
{
	char esc[PMI_MAX_VALUE], msg[MSG_MAX], reply[MSG_MAX];
	size_t n = pmi_escape(value, esc, sizeof(esc));
	int rc;

	if (n >= sizeof(esc) || (int)n >= p->vallen_max) {
		errno = EMSGSIZE;
		return -1;
	}
	if (p->version == 2)
		snprintf(msg, sizeof(msg), "cmd=kvs-put;key=%s;value=%s;", key, esc);
	else
		snprintf(msg, sizeof(msg), "cmd=put kvsname=%s key=%s value=%s\n", p->kvsname, key, esc);
	pthread_mutex_lock(&pmi_lock);
	rc = request(p, msg, p->version == 2 ? "kvs-put-response" : "put_result", reply, sizeof(reply));
	if (!rc)
		rc = check_rc(reply, p->version == 2 ? ';' : ' ');
	pthread_mutex_unlock(&pmi_lock);
	return rc;
}

int pmi_get(struct pmi *p, const char *key, char *value, size_t len)
{
	char msg[MSG_MAX], reply[MSG_MAX], esc[PMI_MAX_VALUE];
	char sep = p->version == 2 ? ';' : ' ';
	int rc;

	if (p->version == 2)
		snprintf(msg, sizeof(msg), "cmd=kvs-get;jobid=%s;srcid=-1;key=%s;", p->kvsname, key);
	else
		snprintf(msg, sizeof(msg), "cmd=get kvsname=%s key=%s\n", p->kvsname, key);
	pthread_mutex_lock(&pmi_lock);
	rc = request(p, msg, p->version == 2 ? "kvs-get-response" : "get_result", reply, sizeof(reply));
	pthread_mutex_unlock(&pmi_lock);
	if (rc)
		return -1;
	if ((p->version == 2 && !field_is(reply, sep, "found", "TRUE")) || field_int(reply, sep, "rc", 0) ||
	    !field(reply, sep, "value", esc, sizeof(esc))) {
		errno = ENOENT;
		return -1;
	}
	if (pmi_unescape(esc, value, len) >= len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

/* PMI-2's kvs-fence makes the puts before it visible but need not wait
 * for the other ranks: hydra answers it at once, and holds back a later
 * kvs-get only while the key is missing and some rank has not fenced
 * (Slurm's fence waits for every rank).  So each rank puts a key of its
 * own for this fence before it, and reads every other rank's after it:
 * when all are there, every rank has entered. */
static int fence2(struct pmi *p)
{
	char msg[PMI_MAX_KVSNAME + 128], reply[MSG_MAX];

	p->epoch++;
	if (p->size > 1) {
		snprintf(msg, sizeof(msg), "cmd=kvs-put;key=ndshim-fence-%u-%d;value=1;", p->epoch, p->rank);
		if (request(p, msg, "kvs-put-response", reply, sizeof(reply)) || check_rc(reply, ';'))
			return -1;
	}
	if (request(p, "cmd=kvs-fence;", "kvs-fence-response", reply, sizeof(reply)) || check_rc(reply, ';'))
		return -1;
	for (int r = 0; r < p->size; r++) {
		if (r == p->rank || p->size == 1)
			continue;
		snprintf(msg, sizeof(msg), "cmd=kvs-get;jobid=%s;srcid=-1;key=ndshim-fence-%u-%d;", p->kvsname,
			 p->epoch, r);
		if (request(p, msg, "kvs-get-response", reply, sizeof(reply)) || check_rc(reply, ';') ||
		    !field_is(reply, ';', "found", "TRUE")) {
			errno = EPROTO;
			return -1;
		}
	}
	return 0;
}

int pmi_fence(struct pmi *p)
{
	char reply[MSG_MAX];
	int rc;

	pthread_mutex_lock(&pmi_lock);
	if (p->version == 2)
		rc = fence2(p);
	else
		rc = request(p, "cmd=barrier_in\n", "barrier_out", reply, sizeof(reply)) || check_rc(reply, ' ');
	pthread_mutex_unlock(&pmi_lock);
	return rc ? -1 : 0;
}

int pmi_process_mapping(struct pmi *p, char *value, size_t len)
{
	char msg[MSG_MAX], reply[MSG_MAX];
	char sep = p->version == 2 ? ';' : ' ';
	int rc;

	/* Not escaped: the process manager wrote it. */
	if (p->version == 2)
		snprintf(msg, sizeof(msg), "cmd=info-getjobattr;key=PMI_process_mapping;");
	else
		snprintf(msg, sizeof(msg), "cmd=get kvsname=%s key=PMI_process_mapping\n", p->kvsname);
	pthread_mutex_lock(&pmi_lock);
	rc = request(p, msg, p->version == 2 ? "info-getjobattr-response" : "get_result", reply, sizeof(reply));
	pthread_mutex_unlock(&pmi_lock);
	if (rc)
		return -1;
	if ((p->version == 2 && !field_is(reply, sep, "found", "TRUE")) || field_int(reply, sep, "rc", 0) ||
	    !field(reply, sep, "value", value, len)) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int pmi_finalize(struct pmi *p)
{
	char reply[MSG_MAX];
	int rc;

	pthread_mutex_lock(&pmi_lock);
	if (p->version == 2)
		rc = request(p, "cmd=finalize;", "finalize-response", reply, sizeof(reply));
	else
		rc = request(p, "cmd=finalize\n", "finalize_ack", reply, sizeof(reply));
	pthread_mutex_unlock(&pmi_lock);
	return rc;
}

int pmi_abort(struct pmi *p, int code, const char *msg)
{
	char esc[PMI_MAX_VALUE], req[MSG_MAX];
	int rc;

	pmi_escape(msg ? msg : "", esc, sizeof(esc));
	/* No answer comes: the process manager ends the job. */
	if (p->version == 2)
		snprintf(req, sizeof(req), "cmd=abort;isworld=TRUE;msg=%s;", esc);
	else
		snprintf(req, sizeof(req), "cmd=abort exitcode=%d\n", code);
	pthread_mutex_lock(&pmi_lock);
	rc = request(p, req, NULL, NULL, 0);
	pthread_mutex_unlock(&pmi_lock);
	return rc;
}

bool pmi_parse_mapping(const char *map, int size, unsigned short *node_of_rank)
{
	struct { int start, nodes, ppn; } blk[64];
	int nblk = 0, rank = 0;
	const char *p = map;

	while (*p == ' ')
		p++;
	if (strncmp(p, "(vector", 7))
		return false;
	p += 7;
	for (;;) {
		int a, b, c, used;

		while (*p == ' ')
			p++;
		if (*p == ')')
			break;
		if (*p++ != ',' || nblk == 64)
			return false;
		while (*p == ' ')
			p++;
		if (sscanf(p, "(%d,%d,%d)%n", &a, &b, &c, &used) != 3 || a < 0 || b <= 0 || c <= 0)
			return false;
		blk[nblk++] = (typeof(blk[0])){ a, b, c };
		p += used;
	}
	if (!nblk)
		return false;
	/* Block after block, node after node, ppn consecutive ranks each; the
	 * whole vector repeats while ranks remain. */
	while (rank < size) {
		for (int i = 0; i < nblk && rank < size; i++)
			for (int n = 0; n < blk[i].nodes && rank < size; n++)
				for (int k = 0; k < blk[i].ppn && rank < size; k++)
					node_of_rank[rank++] = (unsigned short)(blk[i].start + n);
	}
	return true;
}

static bool plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._:/,+-", c);
}

size_t pmi_escape(const char *in, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;

	for (; *in; in++) {
		unsigned char c = (unsigned char)*in;

		if (c && plain(c)) {
			if (n + 1 < len)
				out[n] = (char)c;
			n++;
		} else {
			if (n + 3 < len) {
				out[n] = '%';
				out[n + 1] = hex[c >> 4];
				out[n + 2] = hex[c & 15];
			}
			n += 3;
		}
	}
	if (len)
		out[n < len ? n : len - 1] = 0;
	return n;
}

size_t pmi_unescape(const char *in, char *out, size_t len)
{
	size_t n = 0;

	while (*in) {
		char c = *in++;

		if (c == '%' && hex_digit(in[0]) >= 0 && hex_digit(in[1]) >= 0) {
			c = (char)(hex_digit(in[0]) << 4 | hex_digit(in[1]));
			in += 2;
		}
		if (n + 1 < len)
			out[n] = c;
		n++;
	}
	if (len)
		out[n < len ? n : len - 1] = 0;
	return n;
}
