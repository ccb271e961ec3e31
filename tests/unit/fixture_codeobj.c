/* Builds the test code objects once (see fixture_codeobj.h). */
#include "fixture_codeobj.h"

#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

const char *fixture_codeobj(int debug)
{
	static char dir[400], with[480], without[480];
	static int state; /* 0 untried, 1 built, -1 unavailable */
	if (state == 0) {
		snprintf(dir, sizeof dir, "%s", t_tmpdir());
		char cmd[600];
		snprintf(cmd, sizeof cmd, "tests/fixtures/build-codeobj.sh '%s' >/dev/null 2>&1",
			 dir);
		int rc = system(cmd);
		state = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 1 : -1;
		snprintf(with, sizeof with, "%s/fake_kernel.hsaco", dir);
		snprintf(without, sizeof without, "%s/fake_kernel_nodebug.hsaco", dir);
	}
	if (state < 0)
		return NULL;
	return debug ? with : without;
}

unsigned char *fixture_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, r;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			if (!buf) {
				fclose(f);
				return NULL;
			}
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}
