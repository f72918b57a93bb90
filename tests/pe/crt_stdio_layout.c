/* Where msvcrt.dll keeps its FILEs, as code linked into programs (mingw's
 * _lock_file, its printf) and MSVC's old headers expect: stdin, stdout
 * and stderr are _iob[0..2], the next 17 streams fopen hands out are
 * _iob[3..19] (a closed one is handed out again), and later ones are a
 * 48-byte FILE with its CRITICAL_SECTION right after it.  _iob[i]'s lock
 * is _lock(16 + i), and the DLL's _lock_file sets _IOLOCKED (0x8000) in
 * an _iob entry's _flag while it holds it.  _flag says how the stream is
 * open (_IOREAD, _IOWRT, _IORW) and buffered (_IOMYBUF, _IONBF).
 *
 * Wine's msvcrt.dll is a later runtime's in this: its stream locks are
 * _lock(28 + i) and its _lock_file leaves _IOLOCKED alone (todo_wine);
 * msvcrt.dll's (and mingw's, which is linked into the program) are the
 * VC6 runtime's, _lock(16 + i) with _IOLOCKED. */
#include <process.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define IOLOCKED 0x8000
#define IOUNBUF 0x0004 /* the _flag bit for an unbuffered stream (_IONBF's value) */
#define STREAM_LOCKS 16
#define EXTRA 4

void __cdecl _lock(int locknum);
void __cdecl _unlock(int locknum);

static void(__cdecl *dll_lock_file)(FILE *);
static void(__cdecl *dll_unlock_file)(FILE *);
static FILE *blocked_file;
static volatile LONG got_lock;

static unsigned __stdcall lock_thread(void *arg)
{
	(void)arg;
	dll_lock_file(blocked_file);
	InterlockedExchange(&got_lock, 1);
	dll_unlock_file(blocked_file);
	return 0;
}

int main(void)
{
	FILE *iob = __iob_func(), *f[17 + EXTRA], *again;
	HMODULE crt = GetModuleHandleA("msvcrt.dll");
	char name[64];
	int i;

	dll_lock_file = (void *)GetProcAddress(crt, "_lock_file");
	dll_unlock_file = (void *)GetProcAddress(crt, "_unlock_file");
	ok(dll_lock_file && dll_unlock_file, "msvcrt.dll has no _lock_file/_unlock_file\n");
	if (!dll_lock_file || !dll_unlock_file)
		return test_summary();

	ok(stdin == &iob[0] && stdout == &iob[1] && stderr == &iob[2], "standard streams %p %p %p, _iob %p\n",
	   stdin, stdout, stderr, iob);
	ok(iob[0]._flag & _IOREAD, "stdin _flag %#x\n", iob[0]._flag);
	ok(iob[2]._flag & _IOWRT, "stderr _flag %#x\n", iob[2]._flag);

	for (i = 0; i < 17 + EXTRA; i++) {
		sprintf(name, "crt_stdio_layout_%d.tmp", i);
		f[i] = fopen(name, i % 2 ? "w" : "w+");
		ok(f[i] != NULL, "fopen %s failed\n", name);
		if (!f[i])
			return test_summary();
	}
	for (i = 0; i < 17; i++) {
		ok(f[i] == &iob[3 + i], "stream %d is %p, not _iob[%d] (%p)\n", i, f[i], 3 + i, &iob[3 + i]);
		ok(f[i]->_flag == (i % 2 ? _IOWRT : _IORW), "stream %d _flag %#x\n", i, f[i]->_flag);
		ok(f[i]->_file == _fileno(f[i]), "stream %d _file %d, fileno %d\n", i, f[i]->_file, _fileno(f[i]));
	}
	for (i = 17; i < 17 + EXTRA; i++)
		ok(f[i] < iob || f[i] >= iob + 20, "stream %d is inside _iob: %p\n", i, f[i]);

	/* _lock_file on an _iob entry: _IOLOCKED while held, and the lock is
	 * the lock table's entry 16 + i. */
	dll_lock_file(f[0]);
	ok_todo_wine(f[0]->_flag & IOLOCKED, "locked _iob[3] _flag %#x\n", f[0]->_flag);
	dll_unlock_file(f[0]);
	ok(!(f[0]->_flag & IOLOCKED), "unlocked _iob[3] _flag %#x\n", f[0]->_flag);
	/* mingw's own _lock_file (linked into this program) does the same */
	_lock_file(f[1]);
	ok(f[1]->_flag & IOLOCKED, "mingw-locked _iob[4] _flag %#x\n", f[1]->_flag);
	_unlock_file(f[1]);

	blocked_file = f[2];
	_lock(STREAM_LOCKS + 5);
	HANDLE t = (HANDLE)_beginthreadex(NULL, 0, lock_thread, NULL, 0, NULL);
	ok(t != NULL, "_beginthreadex failed\n");
	/* Only a failure can end this wait early: the thread must block. */
	ok_todo_wine(WaitForSingleObject(t, 300) == WAIT_TIMEOUT && !got_lock,
	   "_lock_file(_iob[5]) did not wait for _lock(21)\n");
	_unlock(STREAM_LOCKS + 5);
	ok(WaitForSingleObject(t, 20000) == WAIT_OBJECT_0 && got_lock, "the thread never got the lock\n");
	CloseHandle(t);

	/* outside _iob: the CRITICAL_SECTION after the FILE */
	for (i = 17; i < 17 + EXTRA; i++) {
		CRITICAL_SECTION *cs = (CRITICAL_SECTION *)(f[i] + 1);

		dll_lock_file(f[i]);
		ok(cs->OwningThread == (HANDLE)(ULONG_PTR)GetCurrentThreadId() && cs->RecursionCount == 1,
		   "stream %d: the section after the FILE is not held: owner %p count %ld\n", i, cs->OwningThread,
		   cs->RecursionCount);
		dll_lock_file(f[i]);
		ok(cs->RecursionCount == 2, "stream %d: recursion count %ld\n", i, cs->RecursionCount);
		dll_unlock_file(f[i]);
		dll_unlock_file(f[i]);
		ok(cs->RecursionCount == 0 && !cs->OwningThread, "stream %d: still held: count %ld\n", i,
		   cs->RecursionCount);
		ok(!(f[i]->_flag & IOLOCKED), "stream %d _flag %#x\n", i, f[i]->_flag);
	}

	/* buffering as _flag shows it */
	fputs("some text\n", f[1]);
	ok(f[1]->_flag & _IOMYBUF, "a written stream has no buffer of its own: _flag %#x\n", f[1]->_flag);
	ok(setvbuf(f[3], NULL, _IONBF, 0) == 0, "setvbuf _IONBF failed\n");
	ok(f[3]->_flag & IOUNBUF, "unbuffered stream _flag %#x\n", f[3]->_flag);

	/* a closed entry is free: the next fopen takes it */
	ok(fclose(f[5]) == 0, "fclose _iob[8] failed\n");
	ok(iob[8]._flag == 0, "closed _iob[8] _flag %#x\n", iob[8]._flag);
	again = fopen("crt_stdio_layout_again.tmp", "w");
	ok(again == &iob[8], "fopen after fclose gave %p, not _iob[8] %p\n", again, &iob[8]);
	ok(again && fprintf(again, "%d\n", 42) == 3, "fprintf to the reused entry failed\n");
	if (again)
		fclose(again);
	f[5] = NULL;

	for (i = 0; i < 17 + EXTRA; i++) {
		if (f[i])
			ok(fclose(f[i]) == 0, "fclose %d failed\n", i);
		sprintf(name, "crt_stdio_layout_%d.tmp", i);
		DeleteFileA(name);
	}
	DeleteFileA("crt_stdio_layout_again.tmp");
	return test_summary();
}
