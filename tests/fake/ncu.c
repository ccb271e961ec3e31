/* Stand-in for Nsight Compute's ncu: answers --version in ncu's format. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("NVIDIA (R) Nsight Compute Command Line Profiler\n");
		printf("Copyright (c) 2018-2025 NVIDIA Corporation\n");
		printf("Version 2025.1.0.0 (build 35237305) (public-release)\n");
		return 0;
	}
	fprintf(stderr, "ncu stand-in: only --version is implemented\n");
	return 2;
}
