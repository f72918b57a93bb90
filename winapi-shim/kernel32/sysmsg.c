/* The system message table (FormatMessage with FORMAT_MESSAGE_FROM_SYSTEM):
 * the English text Windows has for the common Win32 and Winsock error
 * codes (Windows ends each with "\r\n", which FormatMessage adds). */
#include "kernel32/kernel32_private.h"
#include "kernel32/sysmsg.h"

static const struct {
	DWORD id;
	const char *text;
} messages[] = {
	{ 0, "The operation completed successfully." },
	{ 1, "Incorrect function." },
	{ 2, "The system cannot find the file specified." },
	{ 3, "The system cannot find the path specified." },
	{ 4, "The system cannot open the file." },
	{ 5, "Access is denied." },
	{ 6, "The handle is invalid." },
	{ 8, "Not enough memory resources are available to process this command." },
	{ 11, "An attempt was made to load a program with an incorrect format." },
	{ 12, "The access code is invalid." },
	{ 13, "The data is invalid." },
	{ 14, "Not enough memory resources are available to complete this operation." },
	{ 18, "There are no more files." },
	{ 19, "The media is write protected." },
	{ 21, "The device is not ready." },
	{ 24, "The program issued a command but the command length is incorrect." },
	{ 31, "A device attached to the system is not functioning." },
	{ 32, "The process cannot access the file because it is being used by another process." },
	{ 33, "The process cannot access the file because another process has locked a portion of the file." },
	{ 38, "Reached the end of the file." },
	{ 39, "The disk is full." },
	{ 50, "The request is not supported." },
	{ 64, "The specified network name is no longer available." },
	{ 80, "The file exists." },
	{ 87, "The parameter is incorrect." },
	{ 109, "The pipe has been ended." },
	{ 111, "The file name is too long." },
	{ 112, "There is not enough space on the disk." },
	{ 120, "This function is not supported on this system." },
	{ 121, "The semaphore timeout period has expired." },
	{ 122, "The data area passed to a system call is too small." },
	{ 123, "The filename, directory name, or volume label syntax is incorrect." },
	{ 126, "The specified module could not be found." },
	{ 127, "The specified procedure could not be found." },
	{ 131, "An attempt was made to move the file pointer before the beginning of the file." },
	{ 145, "The directory is not empty." },
	{ 183, "Cannot create a file when that file already exists." },
	{ 193, "%1 is not a valid Win32 application." },
	{ 203, "The system could not find the environment option that was entered." },
	{ 206, "The filename or extension is too long." },
	{ 232, "The pipe is being closed." },
	{ 233, "No process is on the other end of the pipe." },
	{ 234, "More data is available." },
	{ 258, "The wait operation timed out." },
	{ 259, "No more data is available." },
	{ 267, "The directory name is invalid." },
	{ 299, "Only part of a ReadProcessMemory or WriteProcessMemory request was completed." },
	{ 487, "Attempt to access invalid address." },
	{ 995, "The I/O operation has been aborted because of either a thread exit or an application request." },
	{ 996, "Overlapped I/O event is not in a signaled state." },
	{ 997, "Overlapped I/O operation is in progress." },
	{ 998, "Invalid access to memory location." },
	{ 1004, "Invalid flags." },
	{ 1113, "No mapping for the Unicode character exists in the target multi-byte code page." },
	{ 1168, "Element not found." },
	{ 1223, "The operation was canceled by the user." },
	{ 1225, "The remote computer refused the network connection." },
	{ 1314, "A required privilege is not held by the client." },
	{ 1460, "This operation returned because the timeout period expired." },
	{ 1784, "The supplied user buffer is not valid for the requested operation." },
	{ 10004, "A blocking operation was interrupted by a call to WSACancelBlockingCall." },
	{ 10009, "The file handle supplied is not valid." },
	{ 10013, "An attempt was made to access a socket in a way forbidden by its access permissions." },
	{ 10014, "The system detected an invalid pointer address in attempting to use a pointer argument in a call." },
	{ 10022, "An invalid argument was supplied." },
	{ 10024, "Too many open sockets." },
	{ 10035, "A non-blocking socket operation could not be completed immediately." },
	{ 10036, "A blocking operation is currently executing." },
	{ 10038, "An operation was attempted on something that is not a socket." },
	{ 10040, "A message sent on a datagram socket was larger than the internal message buffer or some other network limit, or the buffer used to receive a datagram into was smaller than the datagram itself." },
	{ 10048, "Only one usage of each socket address (protocol/network address/port) is normally permitted." },
	{ 10049, "The requested address is not valid in its context." },
	{ 10050, "A socket operation encountered a dead network." },
	{ 10051, "A socket operation was attempted to an unreachable network." },
	{ 10053, "An established connection was aborted by the software in your host machine." },
	{ 10054, "An existing connection was forcibly closed by the remote host." },
	{ 10055, "An operation on a socket could not be performed because the system lacked sufficient buffer space or because a queue was full." },
	{ 10056, "A connect request was made on an already connected socket." },
	{ 10057, "A request to send or receive data was disallowed because the socket is not connected and (when sending on a datagram socket using a sendto call) no address was supplied." },
	{ 10060, "A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond." },
	{ 10061, "No connection could be made because the target machine actively refused it." },
	{ 10065, "A socket operation was attempted to an unreachable host." },
	{ 10093, "Either the application has not called WSAStartup, or WSAStartup failed." },
};

const char *sysmsg_lookup(DWORD id)
{
	/* HRESULT_FROM_WIN32 values name the same messages */
	if ((id & 0xffff0000u) == 0x80070000u)
		id &= 0xffff;
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++)
		if (messages[i].id == id)
			return messages[i].text;
	return NULL;
}
