/* WSAEventSelect and friends.  The I/O thread records network events:
 * each FD_* bit is recorded once and then waits to be re-enabled by the
 * call Windows names for it (recv for FD_READ, accept for FD_ACCEPT, a
 * send that would block for FD_WRITE); FD_CONNECT and FD_CLOSE happen
 * once. */
#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/handle.h"
#include "core/klock.h"
#include "core/sync.h"

void ws_record_events_locked(struct ws_socket *s, LONG bits, int error)
{
	if (!s->event)
		return;
	bits &= s->event_mask & s->enabled;
	if (!bits)
		return;
	for (int i = 0; i < FD_MAX_EVENTS; i++)
		if (bits & (1 << i))
			s->event_errors[i] = error;
	s->events |= bits;
	s->enabled &= ~bits;
	TRACE(winsock, "socket fd %d: events %#x\n", s->fd, (unsigned)bits);
	event_set(s->event);
}

void ws_reenable_locked(struct ws_socket *s, LONG bits)
{
	bits &= ~(FD_CONNECT | FD_CLOSE);
	if ((s->enabled & bits) == bits)
		return;
	s->enabled |= bits;
	ws_io_update_locked(s);
}

int WINAPI WSAEventSelect(SOCKET sock, WSAEVENT event, LONG mask)
{
	struct ws_socket *s = ws_socket_get(sock);
	struct object *ev = NULL, *old;
	int err;

	if (!s)
		return SOCKET_ERROR;
	if (mask) {
		ev = event_get(event, 0);
		if (!ev) {
			object_unref(&s->obj);
			return ws_fail(WSAEINVAL);
		}
	}
	klock(&s->lock);
	old = s->event;
	s->event = ev;
	s->event_mask = mask;
	s->enabled = WS_FD_ALL_EVENTS;
	if (mask)
		s->nonblocking = true;
	err = ws_io_update_locked(s);
	kunlock(&s->lock);
	if (old)
		object_unref(old);
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

int WINAPI WSAEnumNetworkEvents(SOCKET sock, WSAEVENT event, LPWSANETWORKEVENTS out)
{
	struct ws_socket *s = ws_socket_get(sock);

	if (!s)
		return SOCKET_ERROR;
	if (!out) {
		object_unref(&s->obj);
		return ws_fail(WSAEFAULT);
	}
	klock(&s->lock);
	out->lNetworkEvents = s->events;
	for (int i = 0; i < FD_MAX_EVENTS; i++)
		out->iErrorCode[i] = (s->events & (1 << i)) ? s->event_errors[i] : 0;
	s->events = 0;
	kunlock(&s->lock);
	object_unref(&s->obj);
	if (event && !ResetEvent(event))
		return ws_fail(WSAEINVAL);
	return 0;
}

WSAEVENT WINAPI WSACreateEvent(void)
{
	return CreateEventW(NULL, TRUE, FALSE, NULL);
}

BOOL WINAPI WSACloseEvent(WSAEVENT event)
{
	if (!CloseHandle(event)) {
		SetLastError(WSA_INVALID_HANDLE);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI WSASetEvent(WSAEVENT event)
{
	if (!SetEvent(event)) {
		SetLastError(WSA_INVALID_HANDLE);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI WSAResetEvent(WSAEVENT event)
{
	if (!ResetEvent(event)) {
		SetLastError(WSA_INVALID_HANDLE);
		return FALSE;
	}
	return TRUE;
}

DWORD WINAPI WSAWaitForMultipleEvents(DWORD count, const WSAEVENT *events, BOOL wait_all,
				      DWORD timeout, BOOL alertable)
{
	return WaitForMultipleObjectsEx(count, events, wait_all, timeout, alertable);
}
