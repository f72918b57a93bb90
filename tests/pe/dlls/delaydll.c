/* Imported by dll_load.exe through a delay-load import library made with
 * dlltool --output-delaylib from delaydll.def. */
#include <windows.h>

int delay_func(int x);
int delay_func(int x)
{
	return 3 * x;
}
