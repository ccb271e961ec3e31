/* Stand-in for rocprofv3 (the test double of docs/capture.md): accepts the command line and
 * the JSON input files flyprof passes, and writes the corpus recording of the kernel the
 * application would have launched, laid out and named the way rocprofv3 lays out its output
 * (docs/facts-rocprofv3.md: <dir>/<output_file>_<suffix> CSVs, pass_N/ for an input file whose
 * single job collects counters, ui_output_agent_<handle>_dispatch_<id>/ for ATT).
 *
 * Which recording: the application's first argument ending in .py names the harness
 * tests/kernels/test_<k>.py, replayed from $FAKE_ROCPROFV3_CORPUS (else $FLYPROF_CORPUS)/<k>/.
 * The harness must exist relative to the working directory, as it would for python; the
 * application itself is never run.
 *  - --kernel-trace / --stats: the recorded discovery CSVs (kernel_trace, kernel_stats,
 *    domain_stats, agent_info).
 *  - ATT: the dispatches the include/exclude regex and the iteration range select in the
 *    recorded kernel trace (iterations counted 1-based per kernel id, default iteration 1).
 *    Only one dispatch per kernel was recorded: it goes to the selected dispatch with the
 *    recorded id, else to the last selected one; every other selected dispatch is written as
 *    the empty shell rocprofv3 leaves when no wave landed on the target CU ({"code":null}).
 *    No code objects are written: the corpus holds none.
 *  - PMC: one counter_collection.csv row per selected dispatch and counter. The corpus holds
 *    no counter recordings, so the values are MODELLED from the recording, not measured:
 *    waves = grid / 64; instruction counts = code.json hits of the instruction kind scaled by
 *    waves / traced waves; HBM bytes = the loads' and stores' widths x 64 lanes x scaled hits,
 *    each byte moved once (no L2 reuse: every request misses); GRBM_GUI_ACTIVE = the recorded
 *    duration x engine clock x XCDs (the sum over XCD instances); LDS bank conflicts 0.
 *    FAKE_ROCPROFV3_COUNTERS="NAME=value,..." replaces any value.
 *
 * FAKE_ROCPROFV3_MODE=MODE[:PASS] (PASS = discover, att or pmc: only that pass misbehaves):
 *   hang         starts an "application" child and both wait forever
 *   ignore-term  the same, with SIGTERM ignored by both (needs SIGKILL)
 *   flood        writes 8 MiB to stdout and to stderr first, then works normally
 *   fail         exits 1 with a fatal message
 *   crash        dies of SIGSEGV
 *   nodecoder    ATT: the wrapper's "rocprof-trace-decoder library path not found" abort
 *   empty        ATT: every selected dispatch is an empty shell
 *   nokernel     the application launched nothing: CSVs with headers only
 *   noversion    --version prints no version number
 * FAKE_ROCPROFV3_VERSION replaces the version --version reports (default 1.1.0).
 * FAKE_ROCPROFV3_LOG: a file to which each invocation appends one JSON line (argv, cwd and
 * the environment variables flyprof sets), so tests can check what was passed.
 * FAKE_ROCPROFV3_PIDS: a file receiving the pids of a hanging stand-in and its child. */
#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "base/json/json_write.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "read/amd/att_code.h"
#include "read/amd/rocprof_csv.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

typedef struct job {
	const char *out_dir, *out_file, *include, *exclude, *range;
	int kernel_trace, stats, att, csv, json;
	jv *pmc; /* array of counter names, or NULL */
	const char *lib_path;
} job;

static const char *mode = "", *mode_pass = NULL;

static int mode_is(const char *m, const char *pass)
{
	return strcmp(mode, m) == 0 && (!mode_pass || strcmp(mode_pass, pass) == 0);
}

static void die(int code, const char *fmt, const char *arg)
{
	fprintf(stderr, "rocprofv3: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(code);
}

static void log_invocation(int argc, char **argv)
{
	const char *path = getenv("FAKE_ROCPROFV3_LOG");
	if (!path)
		return;
	jv *o = jv_object();
	jv *a = jv_set(o, "argv", jv_array());
	for (int i = 0; i < argc; i++)
		jv_push(a, jv_str(argv[i]));
	char cwd[4096];
	jv_set_str(o, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "?");
	jv *env = jv_set(o, "env", jv_object());
	for (char **e = environ; *e; e++) {
		static const char *const keep[] = {"HIP_", "FLYDSL_", "ROCDSL_",
						   "PYTHONPATH=", NULL};
		for (size_t k = 0; keep[k]; k++)
			if (strncmp(*e, keep[k], strlen(keep[k])) == 0) {
				const char *eq = strchr(*e, '=');
				char *name = xstrndup(*e, (size_t)(eq - *e));
				jv_set_str(env, name, eq + 1);
				free(name);
			}
	}
	strbuf sb = STRBUF_INIT;
	json_write(&sb, o, 0);
	FILE *f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", sb_str(&sb));
		fclose(f);
	}
	sb_release(&sb);
	jv_free(o);
}

static void hang(int ignore_term)
{
	if (ignore_term)
		signal(SIGTERM, SIG_IGN);
	pid_t child = fork();
	if (child == 0)
		for (;;)
			pause();
	const char *pids = getenv("FAKE_ROCPROFV3_PIDS");
	FILE *f = pids ? fopen(pids, "w") : NULL;
	if (f) {
		fprintf(f, "%d %d\n", (int)getpid(), (int)child);
		fclose(f);
	}
	for (;;)
		pause();
}

static void flood(void)
{
	static char buf[65536];
	memset(buf, 'x', sizeof buf);
	for (int i = 0; i < 128; i++) {
		fwrite(buf, 1, sizeof buf, stdout);
		fwrite(buf, 1, sizeof buf, stderr);
	}
	fflush(stdout);
}

static int copy_file(const char *from, const char *to)
{
	fp_err e = FP_ERR_INIT;
	size_t len = 0;
	char *buf = file_read_all(from, &len, &e);
	int rc = buf ? file_write_atomic(to, buf, len, &e) : -1;
	if (rc)
		fprintf(stderr, "rocprofv3 stand-in: %s\n", e.message ? e.message : from);
	fp_err_clear(&e);
	free(buf);
	return rc;
}

static void write_text(const char *path, const char *text)
{
	fp_err e = FP_ERR_INIT;
	if (file_write_atomic(path, text, strlen(text), &e))
		die(1, "cannot write %s", path);
}

/* <dir>/<file>_<suffix>; the default output file is %hostname%/%pid%. */
static char *out_path(const job *j, const char *suffix)
{
	strbuf sb = STRBUF_INIT;
	if (j->out_file) {
		sb_addf(&sb, "%s/%s_%s", j->out_dir, j->out_file, suffix);
	} else {
		char host[256] = "localhost";
		gethostname(host, sizeof host - 1);
		sb_addf(&sb, "%s/%s/%d_%s", j->out_dir, host, (int)getpid(), suffix);
	}
	char *p = sb_detach(&sb);
	char *slash = strrchr(p, '/');
	*slash = '\0';
	fp_err e = FP_ERR_INIT;
	if (file_mkdirs(p, &e))
		die(1, "cannot create %s", p);
	*slash = '/';
	return p;
}

static void copy_recorded(const job *j, const char *rec, const char *name, const char *suffix)
{
	char *from = path_join(rec, name), *to = out_path(j, suffix);
	if (mode_is("nokernel", "discover") || mode_is("nokernel", "att")) {
		/* headers only: the first line of the recording */
		fp_err e = FP_ERR_INIT;
		size_t len = 0;
		char *buf = file_read_all(from, &len, &e);
		if (buf) {
			char *nl = strchr(buf, '\n');
			if (nl)
				nl[1] = '\0';
			write_text(to, buf);
		}
		fp_err_clear(&e);
		free(buf);
	} else if (file_exists(from)) {
		copy_file(from, to);
	}
	free(from);
	free(to);
}

/* ---- selection: regex + iteration range over the recorded kernel trace ---- */

typedef struct disp {
	long long id, kernel_id;
	char *name;
	double start, end, grid;
} disp;

static int in_range(const char *range, long iter)
{
	if (!range)
		return iter == 1;
	const char *p = range;
	while (*p) {
		while (*p && strchr("[], \t", *p))
			p++;
		if (!*p)
			break;
		char *end;
		long a = strtol(p, &end, 10);
		if (end == p)
			die(1, "invalid kernel iteration range '%s'", range);
		long b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1)
				die(1, "invalid kernel iteration range '%s'", range);
			p = end;
		}
		if (iter >= a && iter <= b)
			return 1;
	}
	return 0;
}

static size_t select_dispatches(const job *j, const char *rec, disp **out)
{
	char *path = path_join(rec, "discover_kernel_trace.csv");
	csv_table t;
	fp_err e = FP_ERR_INIT;
	if (csv_parse_file(path, &t, &e))
		die(1, "stand-in cannot read its recording: %s", path);
	free(path);
	regex_t inc, exc;
	if (regcomp(&inc, j->include ? j->include : ".*", REG_EXTENDED | REG_NOSUB))
		die(1, "invalid kernel include regex '%s'", j->include);
	int has_exc = j->exclude && *j->exclude;
	if (has_exc && regcomp(&exc, j->exclude, REG_EXTENDED | REG_NOSUB))
		die(1, "invalid kernel exclude regex '%s'", j->exclude);
	int cid = csv_col(&t, "Dispatch_Id"), ckid = csv_col(&t, "Kernel_Id"),
	    cname = csv_col(&t, "Kernel_Name"), cs = csv_col(&t, "Start_Timestamp"),
	    ce = csv_col(&t, "End_Timestamp");
	long long *seen_k = xcalloc(t.nrows + 1, sizeof *seen_k);
	long *seen_n = xcalloc(t.nrows + 1, sizeof *seen_n);
	size_t nk = 0, n = 0;
	*out = xcalloc(t.nrows + 1, sizeof **out);
	for (size_t r = 0; r < t.nrows; r++) {
		const char *name = csv_at(&t, r, cname);
		if (regexec(&inc, name, 0, NULL, 0) != 0)
			continue;
		if (has_exc && regexec(&exc, name, 0, NULL, 0) == 0)
			continue;
		long long kid = (long long)csv_num(&t, r, ckid, NULL);
		size_t k = 0;
		while (k < nk && seen_k[k] != kid)
			k++;
		if (k == nk)
			seen_k[nk++] = kid;
		long iter = ++seen_n[k];
		if (!in_range(j->range, iter))
			continue;
		disp *d = &(*out)[n++];
		d->id = (long long)csv_num(&t, r, cid, NULL);
		d->kernel_id = kid;
		d->name = xstrdup(name);
		d->start = csv_num(&t, r, cs, NULL);
		d->end = csv_num(&t, r, ce, NULL);
		d->grid = 1;
		static const char *const g[] = {"Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z"};
		for (size_t i = 0; i < 3; i++) {
			int ok = 0;
			double v = csv_num(&t, r, csv_col(&t, g[i]), &ok);
			d->grid *= ok && v > 0 ? v : 1;
		}
	}
	regfree(&inc);
	if (has_exc)
		regfree(&exc);
	free(seen_k);
	free(seen_n);
	csv_release(&t);
	return n;
}

/* The recorded dispatch directory under <kernel>/att/big/, its handle and id. */
static char *recorded_dispatch(const char *kdir, long long *handle, long long *id)
{
	char *att = path_join(kdir, "att/big");
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(att, &n, &e);
	char *found = NULL;
	for (size_t i = 0; names && i < n && !found; i++)
		if (sscanf(names[i], "ui_output_agent_%lld_dispatch_%lld", handle, id) == 2)
			found = path_join(att, names[i]);
	file_list_free(names, n);
	fp_err_clear(&e);
	free(att);
	return found;
}

static void copy_dir(const char *from, const char *to)
{
	fp_err e = FP_ERR_INIT;
	if (file_mkdirs(to, &e))
		die(1, "cannot create %s", to);
	size_t n = 0;
	char **names = file_list_dir(from, &n, &e);
	for (size_t i = 0; names && i < n; i++) {
		char *a = path_join(from, names[i]), *b = path_join(to, names[i]);
		if (file_is_reg(a) && copy_file(a, b))
			exit(1);
		free(a);
		free(b);
	}
	file_list_free(names, n);
}

static void empty_shell(const char *dir)
{
	fp_err e = FP_ERR_INIT;
	if (file_mkdirs(dir, &e))
		die(1, "cannot create %s", dir);
	static const char *const files[][2] = {
	    {"code.json", "{\"code\":null}"},
	    {"occupancy.json", "{\"0\":\"0 / 0x0\"}"},
	    {"filenames.json",
	     "{\"counter_names\":[],\"gfxip\":9,\"gfxv\":\"vega\","
	     "\"global_begin_time\":0,\"version\":\"3.0.0\",\"wave_filenames\":{}}"},
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *p = path_join(dir, files[i][0]);
		write_text(p, files[i][1]);
		free(p);
	}
}

static void do_att(const job *j, const char *kdir, const char *rec)
{
	if (mode_is("nodecoder", "att") || (j->lib_path && !file_is_dir(j->lib_path))) {
		fprintf(stderr,
			"rocprofv3: fatal error: rocprof-trace-decoder library path not found "
			"in ['%s', '/opt/rocm/lib']\n",
			j->lib_path ? j->lib_path : "");
		exit(1);
	}
	long long handle = 0, rec_id = -1;
	char *recdir = recorded_dispatch(kdir, &handle, &rec_id);
	disp *d = NULL;
	size_t n = select_dispatches(j, rec, &d);
	long long full = -1;
	for (size_t i = 0; i < n; i++)
		if (d[i].id == rec_id)
			full = rec_id;
	if (full < 0 && n)
		full = d[n - 1].id;
	for (size_t i = 0; i < n; i++) {
		strbuf name = STRBUF_INIT;
		sb_addf(&name, "ui_output_agent_%lld_dispatch_%lld", handle, d[i].id);
		char *dst = path_join(j->out_dir, sb_str(&name));
		if (d[i].id == full && recdir && !mode_is("empty", "att"))
			copy_dir(recdir, dst);
		else
			empty_shell(dst);
		free(dst);
		sb_release(&name);
		free(d[i].name);
	}
	free(d);
	free(recdir);
	if (j->csv)
		copy_recorded(j, rec, "big_agent_info.csv", "agent_info.csv");
	if (j->json)
		copy_recorded(j, rec, "big_results.json", "results.json");
}

/* ---- PMC model ---- */

typedef struct model {
	double waves, valu, mfma, lds, salu, smem, mfma_busy, rd_bytes, wr_bytes, clk_mhz, xcc;
	int gfx950;
} model;

/* Bytes per lane of a global/buffer memory instruction, from its width suffix. */
static double lane_bytes(const char *op)
{
	static const struct {
		const char *suffix;
		double bytes;
	} w[] = {{"dwordx4", 16}, {"dwordx3", 12}, {"dwordx2", 8}, {"b128", 16},
		 {"b96", 12},	  {"b64", 8},	   {"dword", 4},   {"b32", 4},
		 {"short", 2},	  {"b16", 2},	   {"byte", 1},	   {"b8", 1}};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (strstr(op, w[i].suffix))
			return w[i].bytes;
	return 4;
}

static void build_model(const char *kdir, const char *rec, model *m)
{
	memset(m, 0, sizeof *m);
	m->clk_mhz = 2100, m->xcc = 1;
	long long h, id;
	char *dir = recorded_dispatch(kdir, &h, &id);
	trace_dispatch d;
	trace_dispatch_init(&d);
	fp_err e = FP_ERR_INIT;
	size_t waves_traced = 0;
	if (dir && att_code_read(dir, &d, &e) == 0) {
		size_t n = 0;
		char **names = file_list_dir(dir, &n, &e);
		for (size_t i = 0; names && i < n; i++)
			waves_traced += strncmp(names[i], "se", 2) == 0 && strstr(names[i], "_wv");
		file_list_free(names, n);
		for (size_t i = 0; i < d.n_insts; i++) {
			const trace_inst *in = &d.insts[i];
			if (in->is_label || !in->isa)
				continue;
			double h2 = (double)in->hits;
			const char *op = in->isa;
			if (strncmp(op, "v_mfma", 6) == 0 || strncmp(op, "v_smfmac", 8) == 0)
				m->mfma += h2, m->mfma_busy += h2 * 8;
			else if (op[0] == 'v' && op[1] == '_')
				m->valu += h2;
			else if (strncmp(op, "ds_", 3) == 0)
				m->lds += h2;
			else if (strncmp(op, "s_load", 6) == 0 ||
				 strncmp(op, "s_buffer_load", 13) == 0)
				m->smem += h2;
			else if (op[0] == 's' && op[1] == '_')
				m->salu += h2;
			else if (strncmp(op, "global_load", 11) == 0 ||
				 strncmp(op, "buffer_load", 11) == 0)
				m->rd_bytes += h2 * 64 * lane_bytes(op);
			else if (strncmp(op, "global_store", 12) == 0 ||
				 strncmp(op, "buffer_store", 12) == 0)
				m->wr_bytes += h2 * 64 * lane_bytes(op);
		}
	}
	fp_err_clear(&e);
	trace_dispatch_release(&d);
	free(dir);
	m->waves = (double)waves_traced; /* rescaled per dispatch */
	char *ai = path_join(rec, "big_agent_info.csv");
	csv_table t;
	if (csv_parse_file(ai, &t, &e) == 0) {
		for (size_t r = 0; r < t.nrows; r++) {
			if (strcmp(csv_at(&t, r, csv_col(&t, "Agent_Type")), "GPU") != 0)
				continue;
			m->clk_mhz = csv_num(&t, r, csv_col(&t, "Max_Engine_Clk_Fcompute"), NULL);
			m->xcc = csv_num(&t, r, csv_col(&t, "Num_Xcc"), NULL);
			m->gfx950 = strcmp(csv_at(&t, r, csv_col(&t, "Name")), "gfx950") == 0;
			break;
		}
		csv_release(&t);
	}
	fp_err_clear(&e);
	free(ai);
}

static double override(const char *name, double v)
{
	const char *o = getenv("FAKE_ROCPROFV3_COUNTERS");
	size_t nl = strlen(name);
	for (const char *p = o; p && *p;) {
		if (strncmp(p, name, nl) == 0 && p[nl] == '=')
			return strtod(p + nl + 1, NULL);
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return v;
}

static double counter_value(const model *m, const disp *d, const char *c)
{
	double waves = ceil(d->grid / 64);
	double s = m->waves > 0 ? waves / m->waves : 0;
	double rd = m->rd_bytes * s, wr = m->wr_bytes * s;
	double clocks = (d->end - d->start) * m->clk_mhz / 1000.0;
	double v = 0;
	if (!strcmp(c, "SQ_WAVES"))
		v = waves;
	else if (!strcmp(c, "SQ_INSTS_VALU"))
		v = m->valu * s;
	else if (!strcmp(c, "SQ_INSTS_MFMA"))
		v = m->mfma * s;
	else if (!strcmp(c, "SQ_INSTS_LDS"))
		v = m->lds * s;
	else if (!strcmp(c, "SQ_LDS_IDX_ACTIVE"))
		v = m->lds * s * 4;
	else if (!strcmp(c, "SQ_INSTS_SALU"))
		v = m->salu * s;
	else if (!strcmp(c, "SQ_INSTS_SMEM"))
		v = m->smem * s;
	else if (!strcmp(c, "SQ_VALU_MFMA_BUSY_CYCLES"))
		v = m->mfma_busy * s;
	else if (!strcmp(c, "SQ_ACTIVE_INST_VALU"))
		v = m->valu * s;
	else if (!strcmp(c, "GRBM_GUI_ACTIVE") || !strcmp(c, "GRBM_COUNT"))
		v = clocks * m->xcc;
	else if (!strcmp(c, "TCC_EA0_RDREQ_sum") || !strcmp(c, "TCC_MISS_sum"))
		v = ceil(rd / 128) + (!strcmp(c, "TCC_MISS_sum") ? ceil(wr / 64) : 0);
	else if (!strcmp(c, "TCC_EA0_RDREQ_128B_sum") || !strcmp(c, "TCC_BUBBLE_sum"))
		v = ceil(rd / 128);
	else if (!strcmp(c, "TCC_EA0_WRREQ_sum") || !strcmp(c, "TCC_EA0_WRREQ_64B_sum"))
		v = ceil(wr / 64);
	return override(c, v);
}

static void do_pmc(const job *j, const char *kdir, const char *rec)
{
	model m;
	build_model(kdir, rec, &m);
	disp *d = NULL;
	size_t n = select_dispatches(j, rec, &d);
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\","
		     "\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\","
		     "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\","
		     "\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\","
		     "\"End_Timestamp\"\n");
	for (size_t i = 0; i < n && !mode_is("nokernel", "pmc"); i++) {
		for (size_t c = 0; c < jv_len(j->pmc); c++) {
			const char *cn = jv_string(jv_at(j->pmc, c));
			strbuf q = STRBUF_INIT; /* the name as CSV text: doubled quotes */
			for (const char *p = d[i].name; *p; p++)
				sb_adds(&q, *p == '"' ? "\"\"" : (char[]){*p, 0});
			sb_addf(
			    &sb,
			    "%lld,%lld,\"Agent 2\",1,%d,%d,%.0f,%lld,\"%s\",256,0,0,0,0,0,\"%s\","
			    "%.6f,%.0f,%.0f\n",
			    d[i].id, d[i].id, (int)getpid(), (int)getpid(), d[i].grid,
			    d[i].kernel_id, sb_str(&q), cn, counter_value(&m, &d[i], cn),
			    d[i].start, d[i].end);
			sb_release(&q);
		}
		free(d[i].name);
	}
	free(d);
	char *p = out_path(j, "counter_collection.csv");
	write_text(p, sb_str(&sb));
	free(p);
	sb_release(&sb);
	if (j->csv)
		copy_recorded(j, rec, "big_agent_info.csv", "agent_info.csv");
}

/* ---- command line ---- */

static int is_true(const char *v)
{
	return !v || !strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	       !strcasecmp(v, "on") || !strcasecmp(v, "y") || !strcasecmp(v, "t");
}

static void formats(job *j, const jv *list)
{
	j->csv = j->json = 0;
	for (size_t i = 0; i < jv_len(list); i++) {
		const char *f = jv_string(jv_at(list, i));
		j->csv |= f && !strcasecmp(f, "csv");
		j->json |= f && !strcasecmp(f, "json");
	}
}

static const char *jstr(const jv *o, const char *k, const char *dflt)
{
	const jv *v = jv_get(o, k);
	return jv_string(v) ? jv_string(v) : dflt;
}

static int jflag(const jv *o, const char *k, int dflt)
{
	const jv *v = jv_get(o, k);
	return jv_type_of(v) == JV_BOOL ? jv_is_true(v) : dflt;
}

static void apply_job(job *j, const jv *o)
{
	j->out_dir = jstr(o, "output_directory", j->out_dir);
	j->out_file = jstr(o, "output_file", j->out_file);
	j->include = jstr(o, "kernel_include_regex", j->include);
	j->exclude = jstr(o, "kernel_exclude_regex", j->exclude);
	j->range = jstr(o, "kernel_iteration_range", j->range);
	j->kernel_trace = jflag(o, "kernel_trace", j->kernel_trace);
	j->stats = jflag(o, "stats", j->stats);
	j->att = jflag(o, "advanced_thread_trace", j->att);
	if (jv_get(o, "output_format"))
		formats(j, jv_get(o, "output_format"));
	if (jv_get(o, "pmc"))
		j->pmc = jv_get(o, "pmc");
	const jv *lp = jv_get(o, "att_library_path");
	if (jv_len(lp))
		j->lib_path = jv_string(jv_at(lp, 0));
	else if (jv_string(lp))
		j->lib_path = jv_string(lp);
}

/* The recording for the application: test_<k>.py -> <corpus>/<k>. */
static char *recording_for(char **app, int napp)
{
	const char *corpus = getenv("FAKE_ROCPROFV3_CORPUS");
	if (!corpus)
		corpus = getenv("FLYPROF_CORPUS");
	for (int i = 0; i < napp; i++) {
		size_t l = strlen(app[i]);
		if (l < 3 || strcmp(app[i] + l - 3, ".py") != 0)
			continue;
		if (!file_is_reg(app[i])) {
			fprintf(stderr,
				"python3: can't open file '%s': [Errno 2] No such file or "
				"directory\n",
				app[i]);
			fprintf(stderr, "rocprofv3: fatal error: application exited with code 2\n");
			exit(2);
		}
		const char *b = path_base(app[i]);
		if (strncmp(b, "test_", 5) != 0 || !corpus)
			break;
		char *k = xstrndup(b + 5, strlen(b) - 8);
		char *dir = path_join(corpus, k);
		free(k);
		if (file_is_dir(dir))
			return dir;
		free(dir);
		break;
	}
	return NULL;
}

static void run_job(const job *j, char **app, int napp, const char *pass)
{
	if (mode_is("hang", pass))
		hang(0);
	if (mode_is("ignore-term", pass))
		hang(1);
	if (mode_is("flood", pass))
		flood();
	if (mode_is("fail", pass))
		die(1, "fatal error: %s", "simulated failure");
	if (mode_is("crash", pass)) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	char *kdir = recording_for(app, napp);
	char *rec = kdir ? path_join(kdir, "rocprofv3") : NULL;
	fp_err e = FP_ERR_INIT;
	if (file_mkdirs(j->out_dir, &e))
		die(1, "cannot create output directory %s", j->out_dir);
	if (!rec) {
		/* an application that launched no kernel (or one the corpus has no recording of) */
		fprintf(stderr, "rocprofv3 stand-in: no recording for this application\n");
		if (j->pmc) {
			char *p = out_path(j, "counter_collection.csv");
			write_text(p, "\"Correlation_Id\",\"Dispatch_Id\",\"Kernel_Name\","
				      "\"Counter_Name\",\"Counter_Value\"\n");
			free(p);
		}
		if (j->kernel_trace && j->stats) {
			char *p = out_path(j, "kernel_stats.csv");
			write_text(p, "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\","
				      "\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n");
			free(p);
		}
		return;
	}
	if (j->att)
		do_att(j, kdir, rec);
	else if (j->pmc)
		do_pmc(j, kdir, rec);
	if (j->kernel_trace && j->csv) {
		copy_recorded(j, rec, "discover_kernel_trace.csv", "kernel_trace.csv");
		copy_recorded(j, rec, "discover_agent_info.csv", "agent_info.csv");
		if (j->stats) {
			copy_recorded(j, rec, "discover_kernel_stats.csv", "kernel_stats.csv");
			copy_recorded(j, rec, "discover_domain_stats.csv", "domain_stats.csv");
		}
	}
	free(rec);
	free(kdir);
}

static const char *pass_of(const job *j)
{
	return j->att ? "att" : j->pmc ? "pmc" : "discover";
}

int main(int argc, char **argv)
{
	mode = getenv("FAKE_ROCPROFV3_MODE") ? getenv("FAKE_ROCPROFV3_MODE") : "";
	char *colon = strchr(mode, ':');
	if (colon) {
		mode = xstrndup(mode, (size_t)(colon - mode));
		mode_pass = colon + 1;
	}
	log_invocation(argc, argv);
	if (argc > 1 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0)) {
		if (mode_is("hang", "version"))
			hang(0);
		if (mode_is("fail", "version"))
			die(1, "fatal error: %s", "simulated failure");
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
	char cwd[4096];
	job cli = {.out_dir = getcwd(cwd, sizeof cwd) ? cwd : ".", .csv = 0};
	const char *input = NULL;
	jv *pmc_cli = NULL, *fmt_cli = NULL;
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		char *eq = strchr(a, '=');
		char *name = eq ? xstrndup(a, (size_t)(eq - a)) : xstrdup(a);
		const char *val = eq ? eq + 1 : NULL;
#define NEXT() (val ? val : (i + 1 < argc ? argv[++i] : (die(2, "%s expects a value", a), "")))
		if (!strcmp(name, "-i") || !strcmp(name, "--input"))
			input = NEXT();
		else if (!strcmp(name, "-d") || !strcmp(name, "--output-directory"))
			cli.out_dir = NEXT();
		else if (!strcmp(name, "-o") || !strcmp(name, "--output-file"))
			cli.out_file = NEXT();
		else if (!strcmp(name, "--kernel-include-regex"))
			cli.include = NEXT();
		else if (!strcmp(name, "--kernel-exclude-regex"))
			cli.exclude = NEXT();
		else if (!strcmp(name, "--kernel-iteration-range"))
			cli.range = NEXT();
		else if (!strcmp(name, "--kernel-trace"))
			cli.kernel_trace = is_true(val);
		else if (!strcmp(name, "--stats"))
			cli.stats = is_true(val);
		else if (!strcmp(name, "--att") || !strcmp(name, "--advanced-thread-trace"))
			cli.att = is_true(val);
		else if (!strcmp(name, "-T") || !strcmp(name, "--truncate-kernels"))
			;
		else if (!strcmp(name, "--att-target-cu") || !strcmp(name, "--att-simd-select") ||
			 !strcmp(name, "--att-shader-engine-mask") ||
			 !strcmp(name, "--att-buffer-size"))
			(void)NEXT();
		else if (!strcmp(name, "--att-library-path"))
			cli.lib_path = NEXT();
		else if (!strcmp(name, "--pmc") || !strcmp(name, "-f") ||
			 !strcmp(name, "--output-format")) {
			/* nargs: every following word up to the next option */
			jv *l = jv_array();
			while (i + 1 < argc && argv[i + 1][0] != '-')
				jv_push(l, jv_str(argv[++i]));
			if (!strcmp(name, "--pmc"))
				pmc_cli = l;
			else
				fmt_cli = l;
		} else {
			fprintf(stderr, "rocprofv3: error: unrecognized arguments: %s\n", a);
			return 2;
		}
		free(name);
	}
	if (i >= argc || i + 1 >= argc)
		die(2, "error: %s", "no application given after '--'");
	char **app = argv + i + 1;
	int napp = argc - i - 1;
	if (fmt_cli)
		formats(&cli, fmt_cli);
	cli.pmc = pmc_cli;
	if (!input) {
		run_job(&cli, app, napp, pass_of(&cli));
		return 0;
	}
	size_t il = strlen(input);
	if (il < 5 || strcmp(input + il - 5, ".json") != 0)
		die(2, "stand-in reads JSON input files only, not %s", input);
	fp_err e = FP_ERR_INIT;
	jv *doc = json_parse_file(input, &e);
	if (!doc)
		die(1, "cannot read input file: %s", e.message ? e.message : input);
	const jv *jobs = jv_get(doc, "jobs");
	if (jv_type_of(jobs) != JV_ARRAY || jv_len(jobs) == 0)
		die(1, "input file %s has no jobs", input);
	for (size_t k = 0; k < jv_len(jobs); k++) {
		job j = cli;
		apply_job(&j, jv_at(jobs, k));
		/* each job of a multi-job file, and the single job of a file when it collects
		 * counters, writes below pass_<n>/ */
		char *dir = NULL;
		if (jv_len(jobs) > 1 || j.pmc) {
			strbuf sb = STRBUF_INIT;
			sb_addf(&sb, "%s/pass_%zu", j.out_dir, k + 1);
			dir = sb_detach(&sb);
			j.out_dir = dir;
		}
		run_job(&j, app, napp, pass_of(&j));
		free(dir);
	}
	jv_free(doc);
	jv_free(pmc_cli);
	jv_free(fmt_cli);
	return 0;
}
