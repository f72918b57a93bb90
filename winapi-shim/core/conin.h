/* Console input: the terminal behind a console input handle, seen as
 * the Windows console's input buffer.
 *
 * Windows keeps typed keys in a buffer of input records that ReadFile,
 * ReadConsole and ReadConsoleInput all consume from, and a console input
 * handle is signaled while the buffer is not empty.  Here the buffer is
 * bytes: what the terminal has delivered (or WriteConsoleInput put in)
 * that nobody has consumed yet, one buffer per terminal.  Records are
 * made from those bytes when asked for (kernel32/consoleinput.c says
 * how); reads of characters take the bytes first, then the terminal.
 *
 * A console input handle is a terminal opened for input: standard input,
 * CONIN$, or a terminal handle without write access.  Waits on it are satisfied
 * while bytes are buffered or the terminal has input; a helper thread
 * polls the terminal for waits that have to sleep.  In line input mode
 * (ICANON) the terminal hands input over a line at a time, so a wait
 * ends when a line is complete, not at the first key. */
#ifndef NDSHIM_CONIN_H
#define NDSHIM_CONIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct file;

bool conin_is_input(const struct file *f);

/* Wait lock held: could a wait on f (a console input file) end now?  If
 * not, its waiters are woken once the terminal has input. */
bool conin_signaled_locked(struct file *f);

/* f's last handle is closing: its waits are over, drop its watch (and
 * the reference the watch holds). */
void conin_unwatch(struct file *f);

/* Reads what the terminal has without blocking into fd's buffer (block:
 * waits for at least one byte when nothing is buffered, cancellable by
 * CancelSynchronousIo).  The number of bytes buffered, or -1 with errno
 * (ECANCELED: cancelled). */
ssize_t conin_fill(int fd, bool block);

/* The buffered bytes, at most size, left in the buffer; and skip, the
 * caller's count of records of the first key already consumed. */
size_t conin_peek(int fd, char *buf, size_t size, unsigned int *skip);
/* Drops n bytes (whole keys) and sets the new skip. */
void conin_consume(int fd, size_t n, unsigned int skip);
/* Drops every buffered byte and what the terminal holds unread. */
void conin_flush(int fd);
/* Adds bytes (WriteConsoleInput) and wakes the waits on console input. */
bool conin_append(int fd, const char *bytes, size_t n);

/* Are bytes buffered for any terminal?  (ReadFile's cheap test before it
 * asks whether its file is console input at all.) */
bool conin_buffered(void);

/* A character read (ReadFile, ReadConsole): buffered bytes first, else
 * one read of the terminal (blocking, cancellable).  Bytes or -1 with
 * errno. */
ssize_t conin_read(int fd, char *buf, size_t size);

#endif
