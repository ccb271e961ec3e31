/* Capture through Nsight Compute: runs the user's program under `ncu` for one kernel and
 * exports the pages flyprof reads (docs/nvidia.md) into an output directory, so every
 * GPU-free command re-runs on them without ncu.
 *
 * One profile pass:
 *   ncu --clock-control <none> --section SourceCounters --section WarpStateStats
 *       --section SpeedOfLight --section Occupancy --section LaunchStats
 *       --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
 *       --section SchedulerStats --import-source yes -k <filter> -s <skip> -c 1 -f
 *       -o <dir>/report <program...>
 * then four exports of <dir>/report.ncu-rep: source_sass.csv (--page source --print-source
 * sass), source_correlated.csv (cuda,sass), details.csv, raw.csv (--page raw). Every program
 * runs from an argv vector in its own process group with the deadline (drive/proc.h); output
 * goes to <log_dir>/ncu_*.log. An export is written beside its final name and renamed when
 * complete, so a failed pass never leaves a half-written file under a documented name.
 *
 * Typed errors: NCU_MISSING (no ncu), CAPTURE_TIMEOUT (the deadline), INTERRUPTED,
 * COUNTERS_DENIED (ncu's ERR_NVGPUCTRPERM), KERNEL_NOT_MATCHED (ncu profiled nothing;
 * error.available = the kernels ncu says the program launched), PROGRAM_FAILED (the program
 * is not executable, or exited non-zero before the kernel was profiled), PROFILER_FAILED
 * (anything else ncu reports); each names its log in error.log. */
#ifndef FLYPROF_DRIVE_NCU_CAPTURE_H
#define FLYPROF_DRIVE_NCU_CAPTURE_H

#include "base/err.h"
#include "base/json/jv.h"

#include <stdint.h>

typedef struct ncu_capture_req {
	const char *ncu;	   /* executable name or path; NULL = "ncu" on PATH */
	const char *kernel;	   /* ncu -k filter: a function name or "regex:..." */
	const char *const *app;	   /* the program's argv, NULL-terminated */
	const char *out_dir;	   /* exists; gets report.ncu-rep and the exports */
	const char *log_dir;	   /* exists; gets ncu_profile.log and ncu_export_*.log */
	int64_t launch_skip;	   /* ncu -s: matching launches to skip */
	const char *clock_control; /* "none" (default) or "base" */
	double timeout_s;	   /* per ncu run; <= 0 = none */
} ncu_capture_req;

/* Runs the capture. On success *record (owned by the caller) is the capture record:
 * {backend, profiler, version, argv, kernel_filter, launch_skip, clock_control, wall_s:
 * {profile, exports}, exports: [names], log}. Returns 0 or -1 with e set. */
int ncu_capture_run(const ncu_capture_req *q, jv **record, fp_err *e);

/* The kernel names ncu lists after "No kernels were profiled." / "Available Kernels:" in its
 * output, as a JSON array (empty when there is no such list). */
jv *ncu_available_kernels(const char *log_text);

#endif
