/* NVIDIA source-page column labels -> stall reasons (ncu_taxonomy.h); the reasons themselves
 * (names, normalised classes, meanings) are the NVIDIA class table in classes.c. */
#include "model/ncu_taxonomy.h"

#include <string.h>

/* The source-page column labels of each reason (without "stall_"); names, normalised classes
 * and meanings are in the NVIDIA class table (classes.c). */
typedef struct reason_row {
	const char *labels[2];
} reason_row;

static const reason_row rows[NCU__COUNT] = {
    [NCU_LONG_SCOREBOARD] = {{"long_sb", NULL}},
    [NCU_SHORT_SCOREBOARD] = {{"short_sb", NULL}},
    [NCU_BARRIER] = {{"barrier", NULL}},
    [NCU_MEMBAR] = {{"membar", NULL}},
    [NCU_WAIT] = {{"wait", NULL}},
    [NCU_MIO_THROTTLE] = {{"mio", NULL}},
    [NCU_LG_THROTTLE] = {{"lg", NULL}},
    [NCU_MATH_PIPE_THROTTLE] = {{"math", NULL}},
    [NCU_TEX_THROTTLE] = {{"tex", NULL}},
    [NCU_DISPATCH_STALL] = {{"dispatch", NULL}},
    [NCU_DRAIN] = {{"drain", NULL}},
    [NCU_IMC_MISS] = {{"imc", NULL}},
    [NCU_NO_INSTRUCTIONS] = {{"no_inst", NULL}},
    [NCU_BRANCH_RESOLVING] = {{"branch_resolving", NULL}},
    [NCU_SLEEPING] = {{"sleep", "sleeping"}},
    [NCU_GMMA] = {{"gmma", NULL}},
    [NCU_NOT_SELECTED] = {{"not_selected", NULL}},
    [NCU_SELECTED] = {{"selected", NULL}},
    [NCU_MISC] = {{"misc", NULL}},
    [NCU_UNKNOWN] = {{NULL, NULL}},
};

const char *ncu_reason_name(ncu_reason r)
{
	return (unsigned)r < NCU__COUNT ? class_name(VENDOR_NVIDIA, (int)r) : "unknown";
}

tax_norm ncu_reason_norm(ncu_reason r)
{
	return class_norm(VENDOR_NVIDIA, (int)r);
}

const char *ncu_reason_why(ncu_reason r)
{
	return class_meaning(VENDOR_NVIDIA, (int)r);
}

int ncu_reason_is_stall(ncu_reason r)
{
	return class_is_stall(VENDOR_NVIDIA, (int)r);
}

int ncu_reason_from_label(const char *label, int *not_issued)
{
	static const char suffix[] = " (Not Issued)";
	if (strncmp(label, "stall_", 6) != 0)
		return -1;
	const char *s = label + 6;
	size_t n = strlen(s), sl = sizeof suffix - 1;
	*not_issued = 0;
	if (n >= sl && strcmp(s + n - sl, suffix) == 0) {
		n -= sl;
		*not_issued = 1;
	}
	for (int r = 0; r < NCU__COUNT; r++)
		for (int k = 0; k < 2; k++) {
			const char *l = rows[r].labels[k];
			if (l && strlen(l) == n && strncmp(l, s, n) == 0)
				return r;
		}
	return NCU_UNKNOWN;
}

int ncu_reason_lookup(const char *name)
{
	return class_lookup(VENDOR_NVIDIA, name);
}
