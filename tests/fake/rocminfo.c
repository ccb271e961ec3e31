/* Stand-in for rocminfo: prints a CPU agent and FAKE_ROCMINFO_GPUS (default 1) GPU agents of
 * arch FAKE_ROCMINFO_ARCH (default gfx950, "AMD Instinct MI350X", 256 CUs), in the layout of
 * ROCm 7's rocminfo. FAKE_ROCMINFO_GPUS=0 prints only the CPU agent. */
#include <stdio.h>
#include <stdlib.h>

static void agent(int n, const char *name, const char *marketing, const char *type, int cus)
{
	printf("*******\nAgent %d\n*******\n", n);
	printf("  Name:                    %s\n", name);
	printf("  Uuid:                    GPU-0000000000000000\n");
	printf("  Marketing Name:          %s\n", marketing);
	printf("  Vendor Name:             AMD\n");
	printf("  Device Type:             %s\n", type);
	printf("  Compute Unit:            %d\n", cus);
	printf("  ISA Info:\n    ISA 1\n");
	printf("      Name:                    amdgcn-amd-amdhsa--%s:sramecc+:xnack-\n", name);
}

int main(void)
{
	const char *arch = getenv("FAKE_ROCMINFO_ARCH");
	const char *gpus = getenv("FAKE_ROCMINFO_GPUS");
	int n = gpus ? atoi(gpus) : 1;
	arch = arch ? arch : "gfx950";
	printf("ROCk module version 6.12.12 is loaded\n=====================\nHSA System "
	       "Attributes\n=====================\nRuntime Version:         1.18\n\n");
	printf("==========\nHSA Agents\n==========\n");
	agent(1, "AMD EPYC 9575F 64-Core Processor", "AMD EPYC 9575F 64-Core Processor", "CPU", 64);
	for (int i = 0; i < n; i++)
		agent(2 + i, arch, "AMD Instinct MI350X", "GPU", 256);
	printf("*** Done ***\n");
	return 0;
}
