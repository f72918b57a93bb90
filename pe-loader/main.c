/* ndrun: run a Windows x86-64 program on Linux. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "binfmt.h"
#include "cmd/cmd.h"
#include "check.h"
#include "core/debug.h"
#include "core/codepage.h"
#include "core/heap.h"
#include "core/progfile.h"
#include "core/shm.h"
#include "core/startup.h"
#include "core/thread.h"
#include "core/wstr.h"
#include "exit_codes.h"
#include "loader.h"
#include "module.h"
#include "process.h"
#include "ntdll/seh.h"
#include "rpcrt4/pmi_env.h"
#include "ntdll/usershared.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ndrun [--] PROGRAM[.exe] [ARGS...]\n"
		"       ndrun --check PROGRAM[.exe] [DLL...]\n"
		"       ndrun --register [NAME] | --unregister [NAME] | -h | --help | --version\n"
		"Run a Windows x86-64 console program on Linux.\n"
		"PROGRAM cmd or cmd.exe (when no such file exists) is ndrun's builtin cmd:\n"
		"ndrun cmd /c COMMAND runs COMMAND as Windows' cmd.exe would (docs/cmd.md).\n"
		"\n"
		"PROGRAM is found as Windows' CreateProcess finds it: a Linux or Windows\n"
		"path (C:\\dir\\x.exe is /dir/x.exe), .exe added when it has no extension,\n"
		"letter case ignored when no exact match exists.\n"
		"\n"
		"  --check              resolve the import graph of PROGRAM (and of DLLs it\n"
		"                       loads at run time) as loading would, run nothing, and\n"
		"                       list every DLL and function ndrun lacks, by DLL, ending\n"
		"                       with \"N missing\".  Exit status 0: nothing missing;\n"
		"                       %d: only builtin functions or delay-loaded imports are\n"
		"                       missing (it loads; those calls would stop it); %d: it\n"
		"                       cannot load (a DLL or a PE DLL's export is missing, or\n"
		"                       an image is unreadable)\n"
		"  --register [NAME]    (root) register this ndrun with binfmt_misc as entry NAME\n"
		"                       (default ndrun), so that ./PROGRAM.exe ARGS runs under it\n"
		"  --unregister [NAME]  (root) remove that binfmt_misc entry\n"
		"  -h, --help           this text;  --version  ndrun's version\n"
		"\n"
		"Environment (ndrun(1) and the README say more):\n"
		"  NDSHIM_DEBUG=+chan,-chan    trace channels to stderr (+all for every one):\n"
		"                              %s\n"
		"  NDSHIM_RELAY_INCLUDE=LIST   +relay traces only these (dll, dll.Function, Function; ';')\n"
		"  NDSHIM_RELAY_EXCLUDE=LIST   +relay leaves these out\n"
		"  NDSHIM_DLL_PATH=DIR:DIR     where to look for PE DLLs after the program's folder\n"
		"  NDSHIM_DLL_OVERRIDES=LIST   per DLL, native (n) or builtin (b) first: \"dbghelp=n;msvcrt=b\"\n"
		"  NDSHIM_ACP, NDSHIM_OEMCP    the ANSI and OEM code pages (default: 65001 under a UTF-8,\n"
		"                              C or POSIX locale, else 1252 and 437)\n"
		"  NDSHIM_DATA=DIR             ndshim's data folder (~/.local/share/ndshim): drive C:\n"
		"  NDSHIM_DOSDEVICES=DIR       the drive letters' links (DATA/dosdevices: c:, z: -> /)\n"
		"  NDSHIM_UNIX_<NAME>, NDSHIM_UNIX_TZ, NDSHIM_WINENV\n"
		"                              set by ndrun in the Windows environment: the Linux\n"
		"                              values Windows ones replaced, and the block's mark\n"
		"  NDSHIM_REGISTRY=DIR         where the registry hive files are\n"
		"  NDSHIM_ND_PROVIDERS=LIST    the ND provider DLLs of the Winsock catalog (';')\n"
		"  NDSHIM_ND_CONFIG=FILE       a file listing them, one per line\n"
		"  NDSHIM_ND_UNIX=FILE         the provider's Linux side (nd2prov_unix.so)\n"
		"  NDSHIM_ND_DIRECT_WAIT=0     CQ events through the provider's event thread only\n"
		"  NDSHIM_PMI_VERSION=1|2      the PMI version an MPI rank speaks (default: 2 under Slurm, else 1)\n"
		"\n"
		"Exit status: the program's exit code (low 8 bits), or\n"
		"  %d  the program could not be loaded (bad file, missing DLL, ...)\n"
		"  %d  the program called a Win32 function ndrun does not implement\n"
		"  %d  bad ndrun command line\n",
		NDRUN_EXIT_CHECK_MISSING, NDRUN_EXIT_BAD_IMAGE, debug_channel_list(), NDRUN_EXIT_BAD_IMAGE,
		NDRUN_EXIT_UNIMPLEMENTED, NDRUN_EXIT_USAGE);
}

/* A usage mistake: one line saying what is wrong, not the whole usage. */
static int usage_error(const char *fmt, const char *arg)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, arg);
	ndrun_error("%s (try --help)", msg);
	return NDRUN_EXIT_USAGE;
}

/* The file the command line's PROGRAM names, found as CreateProcess
 * finds a program (core/progfile.h): a file that exists as named is
 * taken as it is (ndrun's messages say what is wrong with it); else the
 * name as a Windows path, ".exe" added, any letter case.  NULL after
 * saying that nothing was found. */
static char *find_program(const char *arg)
{
	struct stat st;
	WCHAR *w;
	char *found = NULL;
	size_t len;
	bool add_exe;

	if (!stat(arg, &st))
		return strdup(arg);
	w = utf8_to_utf16_dup(arg);
	if (!w) {
		ndrun_error("out of memory");
		return NULL;
	}
	len = wstr_len(w);
	add_exe = !progfile_has_ext(w, len);
	found = progfile_find(NULL, w, len, add_exe);
	free(w);
	if (!found)
		ndrun_error("%s: no such program%s%s%s", arg, add_exe ? " (nor " : "", add_exe ? arg : "",
			    add_exe ? ".exe, in any letter case)" : " (in any letter case)");
	return found;
}

/* The main thread's stack, for TEB.StackBase/StackLimit. */
static void main_stack(void **base, void **limit)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;

	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstack(&attr, &addr, &size);
		pthread_attr_destroy(&attr);
	}
	*limit = addr;
	*base = (char *)addr + size;
}

typedef int(WINAPI *exe_entry_fn)(PEB *);

int main(int argc, char **argv)
{
	struct load_error err = { "", 0 };
	struct module *exe;
	void *stack_base, *stack_limit;
	exe_entry_fn entry;
	int i = 1, startup_fd = -1;
	bool builtin_cmd = false;
	char *program;

	/* Before ndrun opens anything: its own descriptors must never be
	 * 0-2, which the program takes for its standard streams. */
	startup_hold_std_fds();
	debug_init(getenv("NDSHIM_DEBUG"));
	if (i < argc && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (i < argc && !strcmp(argv[i], "--version")) {
		printf("ndrun %s\n", NDSHIM_VERSION);
		return 0;
	}
	if (i < argc && !strcmp(argv[i], "--check")) {
		if (++i >= argc)
			return usage_error("%s needs a program to check", "--check");
		if (!(program = find_program(argv[i])))
			return NDRUN_EXIT_BAD_IMAGE;
		argv[i] = program;
		return check_main(argc - i, argv + i);
	}
	if (i < argc && (!strcmp(argv[i], "--register") || !strcmp(argv[i], "--unregister"))) {
		const char *name = i + 1 < argc ? argv[i + 1] : BINFMT_DEFAULT_NAME;

		if (i + 2 < argc)
			return usage_error("%s takes at most one entry name", argv[i]);
		return !strcmp(argv[i], "--register") ? binfmt_register(name) : binfmt_unregister(name);
	}
	/* Internal: a CreateProcess parent passes its startup block. */
	if (i + 1 < argc && !strcmp(argv[i], "--startup-fd")) {
		startup_fd = atoi(argv[i + 1]);
		i += 2;
	}
	/* Internal: CreateProcess of "cmd.exe" starts ndrun's own (cmd/). */
	if (i + 1 < argc && !strcmp(argv[i], "--builtin") && !strcmp(argv[i + 1], "cmd.exe")) {
		builtin_cmd = true;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	else if (i < argc && argv[i][0] == '-' && argv[i][1])
		return usage_error("unknown option %s", argv[i]);
	if (i >= argc)
		return usage_error("%s", "no program given");
	/* `ndrun cmd /c ...` too, when there is no program file of the name */
	if (!builtin_cmd && !strchr(argv[i], '/') && !strchr(argv[i], '\\') &&
	    (!strcasecmp(argv[i], "cmd") || !strcasecmp(argv[i], "cmd.exe"))) {
		struct stat st;

		builtin_cmd = stat(argv[i], &st) != 0;
	}
	if (builtin_cmd)
		program = strdup(argv[i]);
	else if (!(program = find_program(argv[i])))
		return NDRUN_EXIT_BAD_IMAGE;

	/* Windows has no SIGPIPE: a write to a closed pipe fails with
	 * ERROR_NO_DATA instead. */
	signal(SIGPIPE, SIG_IGN);
	/* Before anything else takes a handle: inherited handles keep the
	 * values they had in the parent. */
	if (startup_init(startup_fd)) {
		free(program);
		return NDRUN_EXIT_BAD_IMAGE;
	}
	/* Sockets and segments a crashed or killed ndrun left behind. */
	shm_sweep_stale();
	if (process_init(program, argc - i, argv + i)) {
		ndrun_error("out of memory");
		free(program);
		return NDRUN_EXIT_BAD_IMAGE;
	}
	main_stack(&stack_base, &stack_limit);
	if (!loader_thread_init(stack_base, stack_limit)) {
		ndrun_error("cannot set up the main thread");
		free(program);
		return NDRUN_EXIT_BAD_IMAGE;
	}
	thread_init_main();
	loader_peb()->ProcessHeap = heap_process_heap();
	/* Faults in PE code (DllMain included) become Windows exceptions. */
	seh_init();
	/* MSVC and Rust runtimes read it directly; programs that do not
	 * still run without it (the message says why one would fault). */
	user_shared_init();
	/* A rank of an MPI job: MS-MPI's view of its process manager. */
	if (!pmi_env_init()) {
		free(program);
		return NDRUN_EXIT_BAD_IMAGE;
	}

	/* CREATE_SUSPENDED: nothing of the program runs before ResumeThread. */
	startup_wait_resume();
	if (builtin_cmd) {
		free(program);
		loader_exit_process((UINT)cmd_main());
	}
	loader_lock();
	exe = module_load_exe(program, &err);
	/* The loader keeps its own copies (the PEB's, the module's), and
	 * the process ends in ExitProcess, never back here: kept, this
	 * string is a definite leak (ndvalgrind in the rig reports it). */
	free(program);
	if (exe) {
		loader_peb()->ImageBaseAddress = (HMODULE)exe->base;
		if (!module_attach_pending(true, &err))
			exe = NULL;
	}
	loader_unlock();
	if (!exe) {
		ndrun_error("%s", err.msg);
		/* The TEB is mmap'ed: leak checkers cannot see what it holds. */
		loader_thread_exit();
		return NDRUN_EXIT_BAD_IMAGE;
	}

	entry = (exe_entry_fn)(void *)(exe->base + exe->img.entry_rva);
	TRACE(loader, "starting %s at %p\n", exe->name, (void *)entry);
	/* thread_run: ExitThread on the main thread comes back here. */
	loader_exit_process(thread_run((LPTHREAD_START_ROUTINE)(void *)entry, loader_peb()));
}
