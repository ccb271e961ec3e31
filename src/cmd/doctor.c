/* `doctor`: is this machine ready to capture? Probes rocprofv3, the ATT decoder, AMD GPUs
 * (rocminfo), NVIDIA GPUs (nvidia-smi) and Nsight Compute, the FlyDSL build tree and the SoC
 * table entry. It answers ok:true with verdict ready|not-ready and the blockers as registry
 * codes; only an interrupt (or a broken built-in SoC table) makes it fail. Each probe runs
 * under the process runner with --probe-timeout, so a hung tool cannot hang doctor. */
#include "cmd/cmds.h"

#include "base/signals.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/hw/soc.h"
#include "drive/probe.h"
#include "drive/proc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const opt_spec doctor_opts[] = {
    {"probe-timeout", 0, OPT_NUM, "SECONDS", "10", NULL, 1,
     "deadline for each probed program (rocprofv3 --version, rocminfo, ...)"},
    OPT_END,
};

typedef struct findings {
	probe_tool rocprof, rocminfo, smi, ncu;
	probe_gpus amd, nv;
	probe_decoder decoder;
	probe_build build;
	int gpu_index;
} findings;

static void findings_release(findings *f)
{
	probe_tool_release(&f->rocprof);
	probe_tool_release(&f->rocminfo);
	probe_tool_release(&f->smi);
	probe_tool_release(&f->ncu);
	probe_gpus_release(&f->amd);
	probe_gpus_release(&f->nv);
	probe_decoder_release(&f->decoder);
	probe_build_release(&f->build);
}

static void blocker(jv *list, err_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void blocker(jv *list, err_code code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jv *message = jv_vstrf(fmt, ap);
	va_end(ap);
	jv *b = jv_push(list, jv_object());
	jv_set_str(b, "code", err_name(code));
	jv_set_int(b, "exitCode", err_exit_status(code));
	jv_set(b, "message", message);
	jv_set_str(b, "help", err_default_help(code));
}

/* rocprofv3 >= 1.0.0 (ROCm 7.0) is the first with ATT (docs/facts-rocprofv3.md#versions). */
static int version_has_att(const char *v)
{
	return v && atoi(v) >= 1;
}

static void amd_blockers(const findings *f, jv *list)
{
	const probe_tool *r = &f->rocprof;
	if (!r->ran_ok)
		blocker(list, ERR_ROCPROFV3_MISSING, "rocprofv3: %s",
			r->path ? r->detail : "not found on PATH (or FLYPROF_ROCPROFV3)");
	else if (r->version && !version_has_att(r->version))
		blocker(list, ERR_ROCPROFV3_MISSING,
			"rocprofv3 %s has no thread trace (--att needs 1.0.0, ROCm 7.0)",
			r->version);
	if (!f->decoder.path)
		blocker(
		    list, ERR_DECODER_MISSING,
		    "librocprof-trace-decoder.so not found in FLYPROF_DECODER_PATH, "
		    "ROCPROF_ATT_LIBRARY_PATH, LD_LIBRARY_PATH, $ROCM_PATH/lib or /opt/rocm/lib");
	if (!f->rocminfo.ran_ok)
		blocker(list, ERR_NO_GPU, "rocminfo: %s",
			f->rocminfo.path ? f->rocminfo.detail : "not found, no AMD GPU visible");
	else if (f->amd.n == 0)
		blocker(list, ERR_NO_GPU, "rocminfo lists no GPU agent");
	else if ((size_t)f->gpu_index >= f->amd.n)
		blocker(list, ERR_NO_GPU, "--gpu %d: only %zu AMD GPU(s) visible", f->gpu_index,
			f->amd.n);
	if (!f->build.worktree)
		blocker(list, ERR_BUILD_TREE_MISSING,
			"no FlyDSL worktree given (--worktree or FLYPROF_WORKTREE)");
	else if (!f->build.packages_exists || !f->build.flydsl_exists)
		blocker(list, ERR_BUILD_TREE_MISSING,
			"%s/flydsl does not exist; build FlyDSL "
			"(scripts/build.sh) in %s",
			f->build.packages, f->build.worktree);
}

static void nvidia_blockers(const findings *f, jv *list)
{
	if (!f->ncu.ran_ok)
		blocker(list, ERR_NCU_MISSING, "ncu: %s",
			f->ncu.path ? f->ncu.detail : "not found on PATH (or FLYPROF_NCU)");
	if (!f->smi.ran_ok)
		blocker(list, ERR_NO_GPU, "nvidia-smi: %s",
			f->smi.path ? f->smi.detail : "not found, no NVIDIA GPU visible");
	else if (f->nv.n == 0)
		blocker(list, ERR_NO_GPU, "nvidia-smi lists no GPU");
	else if ((size_t)f->gpu_index >= f->nv.n)
		blocker(list, ERR_NO_GPU, "--gpu %d: only %zu NVIDIA GPU(s) visible", f->gpu_index,
			f->nv.n);
}

/* Runs every probe; -1 (INTERRUPTED) if a signal arrived meanwhile. */
static int run_probes(cmd_ctx *ctx, findings *f, double timeout)
{
	probe_rocprofv3(&f->rocprof, timeout);
	probe_decoder_find(&f->decoder);
	if (!signals_pending())
		probe_rocminfo(&f->rocminfo, &f->amd, timeout);
	if (!signals_pending())
		probe_nvidia_smi(&f->smi, &f->nv, timeout);
	if (!signals_pending())
		probe_ncu(&f->ncu, timeout);
	probe_build_tree(&f->build, opts_str(&ctx->opts, "worktree"));
	if (signals_pending())
		return fp_fail(&ctx->err, ERR_INTERRUPTED, "doctor interrupted by signal %d",
			       signals_pending());
	return 0;
}

/* The SoC entry: --arch, else the selected GPU's arch; the marketing name may pick a product
 * of that arch (e.g. "AMD Instinct MI355X"). */
static jv *soc_entry(cmd_ctx *ctx, const findings *f, const soc_table *t)
{
	const char *arch = opts_str(&ctx->opts, "arch"), *from = "--arch", *name = NULL;
	const probe_gpu *g = NULL;
	if (!arch && (size_t)f->gpu_index < f->amd.n)
		g = &f->amd.v[f->gpu_index], from = "rocminfo";
	else if (!arch && (size_t)f->gpu_index < f->nv.n)
		g = &f->nv.v[f->gpu_index], from = "nvidia-smi";
	if (g)
		arch = g->arch, name = g->name;
	if (!arch)
		return jv_null();
	const soc_spec *s = soc_lookup(t, arch);
	char word[64];
	for (const char *p = name; s && p && *p;) {
		size_t n = strcspn(p, " \t");
		if (n && n < sizeof word) {
			snprintf(word, sizeof word, "%.*s", (int)n, p);
			const soc_spec *prod = soc_lookup(t, word);
			if (prod && strcmp(prod->arch, s->arch) == 0)
				s = prod;
		}
		p += n + (p[n] ? 1 : 0);
	}
	jv *o = s ? soc_to_json(s) : jv_object();
	jv_set_str(o, "source", from);
	jv_set_bool(o, "in_table", s != NULL);
	if (!s) {
		jv_set_str(o, "arch", arch);
		ctx_warn(ctx,
			 "arch %s is not in the SoC table: occupancy and tile math unavailable",
			 arch);
	}
	return o;
}

static jv *build_json(const probe_build *b)
{
	jv *o = jv_object();
	jv_set(o, "worktree", b->worktree ? jv_str(b->worktree) : jv_null());
	jv_set(o, "packages", b->packages ? jv_str(b->packages) : jv_null());
	jv_set_bool(o, "packages_exist", b->packages_exists);
	jv_set_bool(o, "flydsl_package", b->flydsl_exists);
	jv_set_bool(o, "mlir_bindings", b->mlir_exists);
	return o;
}

static jv *backend(jv *blockers)
{
	jv *o = jv_object();
	jv_set_bool(o, "ready", jv_len(blockers) == 0);
	jv_set(o, "blockers", blockers);
	return o;
}

/* Top-level blockers: none when a backend is ready, else AMD's then NVIDIA's new codes. */
static jv *merged_blockers(const jv *amd, const jv *nv, int ready)
{
	jv *out = jv_array();
	if (ready)
		return out;
	for (size_t i = 0; i < jv_len(amd); i++)
		jv_push(out, jv_copy(jv_at(amd, i)));
	for (size_t i = 0; i < jv_len(nv); i++) {
		const char *code = jv_string(jv_get(jv_at(nv, i), "code"));
		int dup = 0;
		for (size_t k = 0; k < jv_len(out); k++)
			dup |= strcmp(jv_string(jv_get(jv_at(out, k), "code")), code) == 0;
		if (!dup)
			jv_push(out, jv_copy(jv_at(nv, i)));
	}
	return out;
}

static void fill(cmd_ctx *ctx, const findings *f, const soc_table *t)
{
	jv *amd = jv_array(), *nv = jv_array();
	amd_blockers(f, amd);
	nvidia_blockers(f, nv);
	int amd_ok = jv_len(amd) == 0, nv_ok = jv_len(nv) == 0;
	jv *d = ctx->data;
	jv_set_str(d, "verdict", amd_ok || nv_ok ? "ready" : "not-ready");
	jv *rb = jv_set(d, "ready_backends", jv_array());
	if (amd_ok)
		jv_push(rb, jv_str("amd"));
	if (nv_ok)
		jv_push(rb, jv_str("nvidia"));
	jv_set(d, "blockers", merged_blockers(amd, nv, amd_ok || nv_ok));
	jv *be = jv_set(d, "backends", jv_object());
	jv_set(be, "amd", backend(amd));
	jv_set(be, "nvidia", backend(nv));
	jv_set(d, "rocprofv3", probe_tool_json(&f->rocprof));
	jv *dec = jv_set(d, "decoder", jv_object());
	jv_set_bool(dec, "found", f->decoder.path != NULL);
	jv_set(dec, "path", f->decoder.path ? jv_str(f->decoder.path) : jv_null());
	jv_set(dec, "searched", jv_copy(f->decoder.searched));
	jv_set(d, "rocminfo", probe_tool_json(&f->rocminfo));
	jv_set(d, "amd_gpus", probe_gpus_json(&f->amd));
	jv_set(d, "nvidia_smi", probe_tool_json(&f->smi));
	jv_set(d, "nvidia_gpus", probe_gpus_json(&f->nv));
	jv_set(d, "ncu", probe_tool_json(&f->ncu));
	jv_set(d, "build_tree", build_json(&f->build));
	jv_set_int(d, "gpu_index", f->gpu_index);
	jv_set(d, "soc", soc_entry(ctx, f, t));
	char *py = proc_which("python3");
	jv_set(d, "python3", py ? jv_str(py) : jv_null());
	free(py);
}

int cmd_doctor(cmd_ctx *ctx)
{
	double timeout = opts_num(&ctx->opts, "probe-timeout", 10);
	if (timeout <= 0 || timeout > 600)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--probe-timeout %g: must be in (0, 600]",
			       timeout);
	fp_err e = FP_ERR_INIT;
	soc_table *t = soc_table_load(&e);
	if (!t) {
		fp_err_move(&ctx->err, &e);
		return -1;
	}
	findings f;
	memset(&f, 0, sizeof f);
	f.gpu_index = (int)opts_int(&ctx->opts, "gpu", 0);
	int rc = run_probes(ctx, &f, timeout);
	if (rc == 0)
		fill(ctx, &f, t);
	findings_release(&f);
	soc_table_free(t);
	return rc;
}
