/* Stand-in for nvidia-smi: answers --query-gpu=name,compute_cap --format=csv,noheader with
 * one H200 (FAKE_NVIDIA_SMI_GPUS sets the count). */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	const char *g = getenv("FAKE_NVIDIA_SMI_GPUS");
	int n = g ? atoi(g) : 1;
	for (int i = 0; i < n; i++)
		printf("NVIDIA H200, 9.0\n");
	return 0;
}
