/* Reader of rocprofv3's kernel-trace CSV (docs/facts-rocprofv3.md#kernel-trace-csv:
 * *kernel_trace.csv, every field quoted or bare, RFC 4180 quoting) for the resources of one
 * dispatch: VGPR_Count (arch VGPRs), Accum_VGPR_Count, SGPR_Count, LDS_Block_Size, Scratch_Size,
 * Workgroup_Size_X*Y*Z and Grid_Size_X*Y*Z, filled into trace_resources with source "kernel_trace".
 *
 * The row is the one whose Dispatch_Id equals `dispatch_id` (the id in the ATT directory name),
 * else (dispatch_id < 0 or no such row) the first row whose Kernel_Name equals `kernel`.
 * Failure: an unterminated quote, a header without the needed columns, or a non-integer
 * resource field in the chosen row is BAD_INPUT with the file and byte offset. */
#ifndef FLYPROF_READ_KERNEL_TRACE_CSV_H
#define FLYPROF_READ_KERNEL_TRACE_CSV_H

#include "base/err.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

/* Returns 1 when a row was found (r filled), 0 when none matches (r untouched), -1 on error. */
int ktcsv_resources(const char *buf, size_t len, const char *name, long long dispatch_id,
		    const char *kernel, trace_resources *r, fp_err *e);
/* The same for a file. */
int ktcsv_resources_file(const char *path, long long dispatch_id, const char *kernel,
			 trace_resources *r, fp_err *e);

/* Durations (End_Timestamp - Start_Timestamp, ns) of every row of kernel `kernel` launched
 * with the same grid and workgroup size in work-items (grid/wg <= 0: any), appended to ns[*n ..
 * cap). A kernel name is reused across problem sizes, so the shape filter keeps only launches
 * of the traced shape. Returns the rows matched (>= 0; 0 when the file has no timestamp
 * columns), or -1 on a malformed file (BAD_INPUT). */
int ktcsv_durations(const char *buf, size_t len, const char *name, const char *kernel, int64_t grid,
		    int wg, int64_t *ns, size_t cap, size_t *n, fp_err *e);

/* The GPU's processor name ("gfx950") from rocprofv3's agent-info CSV (*agent_info.csv): the
 * "Name" column of the first row whose Name starts with "gfx". Returns 1 (out filled), 0 when
 * there is none, -1 on a malformed file (BAD_INPUT). */
int ktcsv_agent_arch(const char *buf, size_t len, const char *name, char *out, size_t outsz,
		     fp_err *e);

#endif
