/* Stand-in child for the process-runner tests (tests/unit/test_proc.c). Modes:
 *   echo TEXT        print TEXT on stdout and "err" on stderr, exit 0
 *   exit N           exit with status N
 *   hang             sleep forever
 *   ignore-term      ignore SIGTERM, then sleep forever (forces SIGKILL escalation)
 *   grandchild FILE  fork a grandchild that writes its pid to FILE and sleeps forever; the
 *                    parent then sleeps forever too (the whole group must be killed)
 *   orphan FILE      as grandchild, but the parent exits 0 at once (the straggler must die)
 *   big N            write N bytes of 'x' to stdout
 *   env NAME         print the value of NAME (or "(unset)")
 *   pwd              print the working directory
 *   signal           die of SIGUSR1 (not SIGSEGV: sanitizers turn that into an exit) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void sleep_forever(void)
{
	for (;;)
		pause();
}

static void spawn_grandchild(const char *file)
{
	pid_t p = fork();
	if (p == 0) {
		FILE *f = fopen(file, "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
		sleep_forever();
	}
	/* Give the grandchild time to write its pid before the caller acts. */
	usleep(200 * 1000);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : "";
	if (strcmp(mode, "echo") == 0) {
		printf("%s\n", arg);
		fprintf(stderr, "err\n");
		return 0;
	}
	if (strcmp(mode, "exit") == 0)
		return atoi(arg);
	if (strcmp(mode, "hang") == 0)
		sleep_forever();
	if (strcmp(mode, "ignore-term") == 0) {
		signal(SIGTERM, SIG_IGN);
		sleep_forever();
	}
	if (strcmp(mode, "grandchild") == 0) {
		spawn_grandchild(arg);
		sleep_forever();
	}
	if (strcmp(mode, "orphan") == 0) {
		spawn_grandchild(arg);
		return 0;
	}
	if (strcmp(mode, "big") == 0) {
		long n = atol(arg);
		for (long i = 0; i < n; i++)
			putchar('x');
		return 0;
	}
	if (strcmp(mode, "env") == 0) {
		const char *v = getenv(arg);
		printf("%s\n", v ? v : "(unset)");
		return 0;
	}
	if (strcmp(mode, "pwd") == 0) {
		char buf[4096];
		printf("%s\n", getcwd(buf, sizeof buf) ? buf : "?");
		return 0;
	}
	if (strcmp(mode, "signal") == 0)
		raise(SIGUSR1);
	fprintf(stderr, "proc_helper: unknown mode '%s'\n", mode);
	return 2;
}
