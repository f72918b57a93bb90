/* The alignment-check flag in host code.  A program may set EFLAGS.AC
 * (popf); Linux enables alignment checking for user code and keeps AC
 * set in a signal handler's flags, so the handler's first misaligned
 * access -- glibc's string functions, the dynamic linker -- would be a
 * SIGBUS that kills ndrun.  Handlers that can interrupt PE code clear
 * it first; the interrupted flags come back with sigreturn. */
#ifndef NDSHIM_CORE_EFLAGS_H
#define NDSHIM_CORE_EFLAGS_H

#define EFLAGS_AC 0x40000

static inline void host_clear_ac(void)
{
	__asm__ volatile("pushfq\n\tandq %0, (%%rsp)\n\tpopfq" : : "i"(~EFLAGS_AC) : "memory", "cc");
}

#endif
