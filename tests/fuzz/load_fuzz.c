/* The whole load under fuzzing: damaged copies of small programs run
 * under ndrun itself, one child process each, so the mapping, the
 * relocations, the TLS callbacks, the import binding and the entry of a
 * damaged image are all exercised, and a crash of ndrun is caught rather
 * than suffered.  (tests/fuzz/fuzz_pe.c fuzzes the directory walkers in
 * process, with libFuzzer; this driver is the rest of the way.)
 *
 *   load_fuzz --ndrun NDRUN --seconds N --out DIR SEED...
 *       mutate the seeds for N seconds; every run whose outcome is a
 *       finding is kept as DIR/crashes/<n>.exe with its stderr beside it,
 *       every run that outlives the time limit as DIR/hangs/<n>.exe.
 *   load_fuzz --ndrun NDRUN --replay --summary FILE FILE...
 *       run each file once and judge it (make check-pefuzz replays
 *       tests/fuzz/regress-load so).
 *
 * A run is fine when ndrun refuses the image with its one-line error
 * (exit 126), when the program runs (to any exit status), or when the
 * program ends with an exception of its own (ndrun's report of an
 * unhandled exception).  It is a finding when ndrun dies of a signal,
 * says "internal error", prints a sanitizer report, or refuses the image
 * with anything but one "ndrun: " line.  A run that does not end within
 * the limit is counted apart: a damaged program may well loop. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEEDS 64
#define MAX_RANGES 64
/* How long a run may take: fuzzing keeps moving; a replay in `make check`
 * on a loaded machine waits longer. */
#define RUN_LIMIT_MS 5000
#define REPLAY_LIMIT_MS 60000
#define ERR_MAX 4096

struct range {
	uint32_t off, len;
};

struct seed {
	const char *path;
	unsigned char *data;
	size_t size;
	struct range ranges[MAX_RANGES]; /* the parts worth damaging most */
	int nranges;
};

static struct seed seeds[MAX_SEEDS];
static int nseeds;
static const char *ndrun;
static char workdir[4096], ndrun_path[4096];
static long run_limit_ms = RUN_LIMIT_MS;

enum verdict { V_OK, V_REFUSED, V_EXCEPTION, V_HANG, V_FINDING };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible from the seed printed at the start. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static unsigned char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	} else {
		*size = (size_t)len;
	}
	fclose(f);
	return buf;
}

static uint32_t get32(const struct seed *s, size_t off)
{
	uint32_t v;

	if (off + 4 > s->size)
		return 0;
	memcpy(&v, s->data + off, 4);
	return v;
}

static uint16_t get16(const struct seed *s, size_t off)
{
	uint16_t v;

	if (off + 2 > s->size)
		return 0;
	memcpy(&v, s->data + off, 2);
	return v;
}

static void add_range(struct seed *s, uint32_t off, uint32_t len)
{
	if (s->nranges >= MAX_RANGES || off >= s->size || !len)
		return;
	if (len > s->size - off)
		len = (uint32_t)(s->size - off);
	s->ranges[s->nranges].off = off;
	s->ranges[s->nranges].len = len;
	s->nranges++;
}

/* The file offset of an RVA, through the seed's own (valid) sections. */
static int rva_to_off(const struct seed *s, uint32_t sect, int nsect, uint32_t rva, uint32_t *off)
{
	for (int i = 0; i < nsect; i++) {
		size_t h = sect + 40u * i;
		uint32_t va = get32(s, h + 12), vsize = get32(s, h + 8), raw = get32(s, h + 20);
		uint32_t rsize = get32(s, h + 16);

		if (rva >= va && rva < va + (vsize > rsize ? vsize : rsize) && rva - va < rsize) {
			*off = raw + (rva - va);
			return 1;
		}
	}
	return 0;
}

/* Headers, section table and every data directory's bytes (imports,
 * relocations, TLS...), found in the undamaged seed. */
static void find_ranges(struct seed *s)
{
	uint32_t pe = get32(s, 0x3c), opt, sect, ndirs;
	int nsect;

	add_range(s, 0, 0x40);
	if (pe + 0x108 > s->size || get32(s, pe) != 0x4550)
		return;
	add_range(s, pe, 24);
	opt = pe + 24;
	add_range(s, opt, get16(s, pe + 20));
	nsect = get16(s, pe + 6);
	sect = opt + get16(s, pe + 20);
	add_range(s, sect, 40u * (uint32_t)nsect);
	ndirs = get32(s, opt + 108);
	for (uint32_t d = 0; d < ndirs && d < 16; d++) {
		uint32_t rva = get32(s, opt + 112 + 8 * d), size = get32(s, opt + 116 + 8 * d), off;

		if (rva && size && rva_to_off(s, sect, nsect, rva, &off))
			add_range(s, off, size < 4096 ? size : 4096);
	}
	/* The entry point's first bytes too. */
	{
		uint32_t entry = get32(s, opt + 16), off;

		if (rva_to_off(s, sect, nsect, entry, &off))
			add_range(s, off, 16);
	}
}

static const uint32_t interesting[] = { 0,          1,          2,          0x7f,       0x80,
					0xff,       0x100,      0x1ff,      0x200,      0x1000,
					0xfff,      0x7fff,     0x8000,     0xffff,     0x10000,
					0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x40000000 };

static size_t mutate(const struct seed *s, unsigned char *buf)
{
	size_t size = s->size;
	int n = 1 + (int)below(4);

	memcpy(buf, s->data, size);
	for (int i = 0; i < n; i++) {
		const struct range *r = s->nranges ? &s->ranges[below((uint32_t)s->nranges)] : NULL;
		size_t pos;

		if (r && below(8))
			pos = r->off + below(r->len);
		else
			pos = below((uint32_t)size);
		switch (below(6)) {
		case 0: /* one bit */
			buf[pos] ^= (unsigned char)(1u << below(8));
			break;
		case 1: /* one byte */
			buf[pos] = (unsigned char)rnd();
			break;
		case 2: /* an interesting dword, aligned as fields are */
		case 3:
			pos &= ~(size_t)3;
			if (pos + 4 <= size) {
				uint32_t v = interesting[below(sizeof(interesting) / sizeof(interesting[0]))];

				if (below(4) == 0)
					v += (uint32_t)(below(64)) - 32;
				memcpy(buf + pos, &v, 4);
			}
			break;
		case 4: /* a word */
			pos &= ~(size_t)1;
			if (pos + 2 <= size) {
				uint16_t v = (uint16_t)interesting[below(sizeof(interesting) / sizeof(interesting[0]))];

				memcpy(buf + pos, &v, 2);
			}
			break;
		default: /* a small delta to a dword: offsets just off */
			pos &= ~(size_t)3;
			if (pos + 4 <= size) {
				uint32_t v;

				memcpy(&v, buf + pos, 4);
				v += (uint32_t)(below(33)) - 16;
				memcpy(buf + pos, &v, 4);
			}
			break;
		}
	}
	/* Now and then, a file cut short. */
	if (below(32) == 0)
		size = 64 + below((uint32_t)(size - 64));
	return size;
}

static int write_file(const char *path, const unsigned char *buf, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, buf, size);
	close(fd);
	return w == (ssize_t)size ? 0 : -1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Runs ndrun on path in workdir; err receives (the start of) stderr. */
static enum verdict run_one(const char *path, char *err, size_t errlen, const char **why)
{
	char errpath[4200];
	int status, fd;
	long deadline;
	pid_t pid, r;
	ssize_t n;

	snprintf(errpath, sizeof(errpath), "%s/stderr", workdir);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid) {
		setpgid(0, 0);
		if (chdir(workdir))
			_exit(127);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execl(ndrun, ndrun, path, (char *)NULL);
		fprintf(stderr, "load_fuzz: cannot run %s: %s\n", ndrun, strerror(errno));
		_exit(127);
	}
	deadline = now_ms() + run_limit_ms;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			perror("waitpid");
			exit(2);
		}
		if (now_ms() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			*why = "did not end in time";
			err[0] = 0;
			return V_HANG;
		}
		usleep(2000);
	}
	/* Children the program left (it may have started some) go too. */
	kill(-pid, SIGKILL);
	fd = open(errpath, O_RDONLY);
	n = fd >= 0 ? read(fd, err, errlen - 1) : 0;
	if (fd >= 0)
		close(fd);
	err[n > 0 ? n : 0] = 0;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && strstr(err, "load_fuzz: cannot run")) {
		fputs(err, stderr);
		exit(2);
	}
	if (WIFSIGNALED(status)) {
		static char sigwhy[64];

		snprintf(sigwhy, sizeof(sigwhy), "ndrun killed by signal %d", WTERMSIG(status));
		*why = sigwhy;
		return V_FINDING;
	}
	if (strstr(err, "internal error")) {
		*why = "internal error";
		return V_FINDING;
	}
	/* UBSan's reports follow a location ("file:line:col: runtime
	 * error:"); msvcrt's _amsg_exit, which a program may call, writes
	 * "runtime error: ..." at the start of a line, and is the program's. */
	if (strstr(err, "AddressSanitizer") || strstr(err, ": runtime error:") || strstr(err, "LeakSanitizer")) {
		*why = "sanitizer report";
		return V_FINDING;
	}
	if (WEXITSTATUS(status) == 126) {
		char *nl = strchr(err, '\n');

		if (strncmp(err, "ndrun: ", 7) || !nl || nl[1]) {
			*why = "refused with other than one 'ndrun: ' line";
			return V_FINDING;
		}
		*why = "refused";
		return V_REFUSED;
	}
	if (strstr(err, "ndrun: unhandled exception")) {
		*why = "the program's exception";
		return V_EXCEPTION;
	}
	*why = "ran";
	return V_OK;
}

static void usage(void)
{
	fprintf(stderr, "usage: load_fuzz --ndrun NDRUN --seconds N --out DIR SEED...\n"
			"       load_fuzz --ndrun NDRUN --replay --summary FILE FILE...\n");
	exit(2);
}

static void make_workdir(void)
{
	snprintf(workdir, sizeof(workdir), "/tmp/load_fuzz.XXXXXX");
	if (!mkdtemp(workdir)) {
		perror("mkdtemp");
		exit(2);
	}
}

static void clean_workdir(void)
{
	char cmd[4200];

	/* Whatever damaged programs wrote. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", workdir);
	if (system(cmd))
		fprintf(stderr, "load_fuzz: could not remove %s\n", workdir);
}

static int replay(char **files, int n, const char *summary)
{
	char err[ERR_MAX];
	int pass = 0, fail = 0;

	run_limit_ms = REPLAY_LIMIT_MS;
	make_workdir();
	for (int i = 0; i < n; i++) {
		const char *why;
		char abspath[4096];
		enum verdict v;

		if (!realpath(files[i], abspath)) {
			printf("FAIL pefuzz/%s: cannot read it\n", files[i]);
			fail++;
			continue;
		}
		v = run_one(abspath, err, sizeof(err), &why);
		if (v == V_FINDING || v == V_HANG) {
			printf("FAIL pefuzz/%s: %s\n", files[i], why);
			for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n"))
				printf("     | %s\n", line);
			fail++;
		} else {
			printf("ok   pefuzz/%s (%s)\n", files[i], why);
			pass++;
		}
		fflush(stdout);
	}
	clean_workdir();
	if (summary) {
		FILE *f = fopen(summary, "w");

		if (f) {
			fprintf(f, "%d %d 0\n", pass, fail);
			fclose(f);
		}
	}
	printf("pefuzz (whole load): %d passed, %d failed\n", pass, fail);
	return fail != 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *summary = NULL;
	long seconds = 60, counts[5] = { 0 }, runs = 0, start;
	int replay_mode = 0, i;
	unsigned char *buf;
	size_t maxsize = 0;
	char path[4200], keep[4400], err[ERR_MAX];

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--ndrun") && i + 1 < argc)
			ndrun = argv[++i];
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atol(argv[++i]);
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--summary") && i + 1 < argc)
			summary = argv[++i];
		else if (!strcmp(argv[i], "--replay"))
			replay_mode = 1;
		else
			usage();
	}
	if (!ndrun || i >= argc)
		usage();
	/* The children run in a scratch folder. */
	if (!realpath(ndrun, ndrun_path)) {
		perror(ndrun);
		return 2;
	}
	ndrun = ndrun_path;
	if (replay_mode)
		return replay(argv + i, argc - i, summary);
	if (!out)
		usage();

	for (; i < argc && nseeds < MAX_SEEDS; i++) {
		struct seed *s = &seeds[nseeds];

		s->path = argv[i];
		s->data = read_file(argv[i], &s->size);
		if (!s->data || s->size < 128) {
			fprintf(stderr, "load_fuzz: skipping seed %s\n", argv[i]);
			continue;
		}
		find_ranges(s);
		if (s->size > maxsize)
			maxsize = s->size;
		nseeds++;
	}
	if (!nseeds) {
		fprintf(stderr, "load_fuzz: no seeds\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/crashes", out);
	mkdir(out, 0755);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/hangs", out);
	mkdir(path, 0755);
	rng_state ^= (uint64_t)time(NULL) * 0x100000001b3ull ^ (uint64_t)getpid();
	printf("load_fuzz: %d seeds, %ld s, random seed %#llx\n", nseeds, seconds, (unsigned long long)rng_state);
	fflush(stdout);
	buf = malloc(maxsize);
	if (!buf)
		return 2;
	make_workdir();
	start = now_ms();
	while (now_ms() - start < seconds * 1000L) {
		const struct seed *s = &seeds[below((uint32_t)nseeds)];
		size_t size = mutate(s, buf);
		const char *why;
		enum verdict v;

		snprintf(path, sizeof(path), "%s/case.exe", workdir);
		if (write_file(path, buf, size))
			return 2;
		v = run_one(path, err, sizeof(err), &why);
		counts[v]++;
		runs++;
		if (v == V_FINDING || v == V_HANG) {
			FILE *f;

			snprintf(keep, sizeof(keep), "%s/%s/%ld.exe", out, v == V_FINDING ? "crashes" : "hangs", runs);
			write_file(keep, buf, size);
			snprintf(keep, sizeof(keep), "%s/%s/%ld.txt", out, v == V_FINDING ? "crashes" : "hangs", runs);
			f = fopen(keep, "w");
			if (f) {
				fprintf(f, "seed %s: %s\n%s", s->path, why, err);
				fclose(f);
			}
			if (v == V_FINDING) {
				printf("load_fuzz: finding %ld (%s, from %s): %s\n", runs, why, s->path, keep);
				fflush(stdout);
			}
		}
		/* What damaged programs write piles up in the work folder. */
		if (runs % 256 == 0) {
			clean_workdir();
			make_workdir();
		}
	}
	clean_workdir();
	printf("load_fuzz: %ld runs in %ld s: %ld ran, %ld refused, %ld the program's exception, %ld hung, "
	       "%ld findings\n",
	       runs, (now_ms() - start) / 1000, counts[V_OK], counts[V_REFUSED], counts[V_EXCEPTION], counts[V_HANG],
	       counts[V_FINDING]);
	return counts[V_FINDING] != 0;
}
