/* Stand-in for rocprofv3 (DESIGN §5): answers --version like rocprofiler-sdk 1.1.0 does
 * ("key: value" lines, rocprofv3.md §0). FAKE_ROCPROFV3_MODE changes its behaviour:
 *   hang   never answers (tests the probe deadline)
 *   fail   exits 1 with a message on stderr
 *   noversion  prints text without a version number
 * FAKE_ROCPROFV3_VERSION replaces the version it reports (default 1.1.0).
 * Capture is not implemented by this stand-in yet: any other invocation exits 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *mode = getenv("FAKE_ROCPROFV3_MODE");
	mode = mode ? mode : "";
	if (strcmp(mode, "hang") == 0)
		for (;;)
			pause();
	if (strcmp(mode, "fail") == 0) {
		fprintf(stderr, "rocprofv3: fatal: simulated failure\n");
		return 1;
	}
	if (argc > 1 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0)) {
		if (strcmp(mode, "noversion") == 0) {
			printf("rocprofv3 stand-in without a version\n");
			return 0;
		}
		const char *v = getenv("FAKE_ROCPROFV3_VERSION");
		printf("    version: %s\n", v ? v : "1.1.0");
		printf("    git_revision: 0000000fake\n");
		printf("    library_arch: x86_64-linux-gnu\n");
		printf("    system_name: Linux\n");
		return 0;
	}
	fprintf(stderr, "rocprofv3 stand-in: only --version is implemented\n");
	return 2;
}
