/* Tool detection for `doctor` (and the capture drivers' preflight): rocprofv3 and its version,
 * the ATT decoder library, AMD GPUs through rocminfo, NVIDIA GPUs through nvidia-smi, Nsight
 * Compute (ncu), and the FlyDSL build tree.
 *
 * Every program runs under the process runner with a short deadline, so a hung tool costs at
 * most that deadline. Executables come from FLYPROF_ROCPROFV3, FLYPROF_ROCMINFO,
 * FLYPROF_NVIDIA_SMI and FLYPROF_NCU when set, else from PATH. The text parsers are separate
 * functions so they can be unit-tested and fuzzed; they never fail, they find what they can.
 *
 * Ownership: every probe_* struct owns its strings; release with its _release function. */
#ifndef FLYPROF_DRIVE_PROBE_H
#define FLYPROF_DRIVE_PROBE_H

#include "base/json/jv.h"

#include <stddef.h>

/* One external program. */
typedef struct probe_tool {
	const char *name; /* "rocprofv3", "rocminfo", ... (static) */
	const char *env;  /* the overriding variable, e.g. "FLYPROF_ROCPROFV3" (static) */
	char *path;	  /* resolved executable, NULL if not found */
	int ran_ok;	  /* it ran and exited 0 */
	char *version;	  /* parsed version, or NULL */
	char *detail;	  /* why it is not usable (not found, timed out, exited 1), or NULL */
} probe_tool;

typedef struct probe_gpu {
	char *arch; /* "gfx950", "sm_90" (from compute capability 9.0), ... */
	char *name; /* marketing name, e.g. "AMD Instinct MI350X", or NULL */
	int cus;    /* compute units (rocminfo "Compute Unit"), 0 if unknown */
} probe_gpu;

typedef struct probe_gpus {
	probe_gpu *v;
	size_t n;
} probe_gpus;

typedef struct probe_decoder {
	char *path;   /* the library found, NULL if none */
	jv *searched; /* array of the directories searched, in order */
} probe_decoder;

typedef struct probe_build {
	char *worktree;	     /* as given (NULL if none) */
	char *packages;	     /* <worktree>/build-fly/python_packages */
	int packages_exists; /* that directory exists */
	int flydsl_exists;   /* .../flydsl exists */
	int mlir_exists;     /* .../flydsl/_mlir exists (the compiled bindings) */
} probe_build;

/* rocprofv3 --version. */
void probe_rocprofv3(probe_tool *t, double timeout_s);
/* rocminfo: GPU agents. */
void probe_rocminfo(probe_tool *t, probe_gpus *g, double timeout_s);
/* nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader. */
void probe_nvidia_smi(probe_tool *t, probe_gpus *g, double timeout_s);
/* ncu --version. */
void probe_ncu(probe_tool *t, double timeout_s);
/* librocprof-trace-decoder.so* in FLYPROF_DECODER_PATH (colon-separated), then
 * ROCPROF_ATT_LIBRARY_PATH, LD_LIBRARY_PATH, $ROCM_PATH/lib, /opt/rocm/lib (each directory
 * itself, not recursively; the rocprofv3 wrapper's own search is recursive but may walk the
 * whole file system, docs/facts-rocprofv3.md#decoder-search). */
void probe_decoder_find(probe_decoder *d);
/* Checks <worktree>/build-fly/python_packages{,/flydsl,/flydsl/_mlir}. worktree may be NULL. */
void probe_build_tree(probe_build *b, const char *worktree);

void probe_tool_release(probe_tool *t);
void probe_gpus_release(probe_gpus *g);
void probe_decoder_release(probe_decoder *d);
void probe_build_release(probe_build *b);

/* Parsers (pure; NULL or 0 results when nothing is found). */
/* "version: 1.1.0" key-value line (case-insensitive key), else the first dotted number. */
char *probe_parse_rocprof_version(const char *text);
/* "Version 2025.1.0.0 (build ...)" line of ncu --version. */
char *probe_parse_ncu_version(const char *text);
/* GPU agents of rocminfo output ("Device Type: GPU" blocks); appends to g. */
void probe_parse_rocminfo(const char *text, probe_gpus *g);
/* "NVIDIA H200, 9.0" lines; compute capability X.Y becomes arch "sm_XY". Appends to g. */
void probe_parse_nvidia_smi(const char *text, probe_gpus *g);

/* JSON views for the doctor envelope. */
jv *probe_tool_json(const probe_tool *t);
jv *probe_gpus_json(const probe_gpus *g);

#endif
