#include "base/signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t pending;

static void on_signal(int sig)
{
	pending = sig;
}

void signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a closed terminal: stop like SIGTERM, with an envelope */
	signal(SIGPIPE, SIG_IGN);
	/* A file-size limit (ulimit -f) then fails the write with EFBIG: an IO_ERROR envelope,
	 * like a full disk, instead of a silent kill. */
	signal(SIGXFSZ, SIG_IGN);
}

int signals_pending(void)
{
	return pending;
}
