/* mksock PATH: leaves a UNIX-domain socket at PATH (the hostile-input suite puts one where a
 * trace file belongs; no shell tool makes one portably). */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un a;
	if (argc != 2) {
		fprintf(stderr, "usage: mksock PATH\n");
		return 2;
	}
	/* bind the last component from inside its directory: sun_path is short */
	char *slash = strrchr(argv[1], '/');
	const char *name = argv[1];
	if (slash) {
		*slash = '\0';
		if (chdir(*argv[1] ? argv[1] : "/") != 0) {
			perror("mksock");
			return 1;
		}
		name = slash + 1;
	}
	if (strlen(name) >= sizeof a.sun_path) {
		fprintf(stderr, "mksock: name too long\n");
		return 2;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	strcpy(a.sun_path, name);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		perror("mksock");
		return 1;
	}
	close(fd);
	return 0;
}
