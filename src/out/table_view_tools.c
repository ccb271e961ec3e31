/* Terminal views of the machine-side commands: tile (the tile to use), doctor (what this
 * machine can do) and list (the kernels it can profile). */
#include "out/table_views.h"

#include <stdio.h>
#include <string.h>

static const char *str(const jv *o, const char *k)
{
	const char *s = jv_string(jv_get(o, k));
	return s ? s : "-";
}

static long long num(const jv *o, const char *k)
{
	return (long long)jv_i64(jv_get(o, k));
}

void tv_tile(tf *t, const jv *data)
{
	/* --bm/--bn/--bk fix the tile: the answer is then that tile, evaluated */
	const jv *fixed = jv_get(data, "evaluated");
	const jv *rec = fixed ? fixed : jv_get(data, "recommended"), *tile = jv_get(rec, "tile");
	const jv *occ = jv_get(rec, "occupancy"), *p = jv_get(data, "problem");
	const jv *soc = jv_get(data, "soc");
	char line[512];
	if (!tile) {
		tf_para(t, 0, "tile:", "no tile fits this SoC and dtype");
	} else {
		const jv *fits = jv_get(jv_get(rec, "lds"), "fits");
		snprintf(line, sizeof line,
			 "%sBM=%lld BN=%lld BK=%lld, %lld LDS buffers: %lld waves/CU (%s-limited), "
			 "LDS %lld B%s",
			 fixed ? "fixed " : "", num(tile, "BM"), num(tile, "BN"), num(tile, "BK"),
			 num(tile, "buffers"), num(occ, "waves_per_cu"), str(occ, "limiter"),
			 num(jv_get(rec, "lds"), "allocated_bytes"),
			 jv_type_of(fits) == JV_BOOL && !jv_is_true(fits) ? " (does not fit)" : "");
		tf_para(t, 0, "tile:", line);
	}
	if (jv_is_num(jv_get(p, "M")))
		snprintf(line, sizeof line, "%lldx%lldx%lld %s -> %s on %s (%s)", num(p, "M"),
			 num(p, "N"), num(p, "K"), str(p, "dtype"), str(p, "out_dtype"),
			 str(soc, "arch"), str(soc, "product"));
	else
		snprintf(line, sizeof line,
			 "%s on %s (%s); no --shape: no grid or problem intensity", str(p, "dtype"),
			 str(soc, "arch"), str(soc, "product"));
	tf_para(t, 2, "for:", line);
	tf_para(t, 2, "basis:", jv_string(jv_get(data, "confidence")));
	const jv *rf = jv_get(rec, "roofline");
	if (rf) {
		snprintf(line, sizeof line,
			 "tile %.1f FLOP/B, problem %.1f FLOP/B, ridge %.1f FLOP/B: %s",
			 jv_num(jv_get(rf, "tile_ai_flop_per_byte")),
			 jv_num(jv_get(rf, "problem_ai_flop_per_byte")),
			 jv_num(jv_get(rf, "ridge_flop_per_byte")), str(rf, "regime"));
		tf_para(t, 2, "roofline:", line);
	}
	const jv *g = jv_get(rec, "grid");
	if (jv_string(jv_get(g, "verdict"))) {
		snprintf(line, sizeof line, "%s: %lld tiles, %lld rounds per CU", str(g, "verdict"),
			 num(g, "tiles"), num(g, "rounds_per_cu"));
		tf_para(t, 2, "grid:", line);
	}
	const jv *c = jv_get(data, "candidates");
	if (!jv_len(c))
		return;
	tf_title(t, "candidates (%lld of %lld considered fit)", num(data, "fitting"),
		 num(data, "considered"));
	tf_table tb;
	tf_table_init(&tb, 7, 0);
	tf_table_cols(&tb, (const tf_col[]){{"tile", TF_LEFT},
					    {"score", TF_RIGHT},
					    {"waves/CU", TF_RIGHT},
					    {"limiter", TF_LEFT},
					    {"LDS B", TF_RIGHT},
					    {"FLOP/B", TF_RIGHT},
					    {"grid", TF_LEFT},
					    {"regime", TF_LEFT},
					    {NULL, 0}});
	for (size_t i = 0; i < jv_len(c) && i < TV_ROWS; i++) {
		const jv *x = jv_at(c, i);
		char a[32], b[32], d[32], e[32];
		snprintf(a, sizeof a, "%.1f", jv_num(jv_get(x, "score")));
		const char *row[] = {str(x, "tile"),
				     a,
				     tf_count(b, jv_get(x, "waves_per_cu")),
				     str(x, "limiter"),
				     tf_count(d, jv_get(x, "lds_allocated_bytes")),
				     tf_count(e, jv_get(x, "tile_ai_flop_per_byte")),
				     str(x, "grid"),
				     str(x, "regime")};
		tf_table_row(&tb, row);
	}
	tf_table_emit(t, &tb, 2);
}

static void blockers(tf *t, const jv *list)
{
	for (size_t i = 0; i < jv_len(list); i++) {
		const jv *b = jv_at(list, i);
		char label[64];
		snprintf(label, sizeof label, "[%s]", str(b, "code"));
		tf_para(t, 2, label, jv_string(jv_get(b, "message")));
		tf_para(t, 4, "fix:", jv_string(jv_get(b, "help")));
	}
}

static void tool_line(tf *t, const char *name, const jv *tool)
{
	if (jv_type_of(tool) != JV_OBJECT)
		return;
	const jv *f = jv_get(tool, "found");
	int found = jv_is_true(f);
	char line[512];
	snprintf(line, sizeof line, "%s%s%s", found ? str(tool, "path") : "not found",
		 jv_string(jv_get(tool, "version")) ? ", " : "",
		 jv_string(jv_get(tool, "version")) ? str(tool, "version") : "");
	char label[32];
	snprintf(label, sizeof label, "%s:", name);
	tf_para(t, 2, label, line);
}

void tv_doctor(tf *t, const jv *data)
{
	const jv *ready = jv_get(data, "ready_backends");
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, str(data, "verdict"));
	if (jv_len(ready)) {
		sb_adds(&sb, ": ready for");
		for (size_t i = 0; i < jv_len(ready); i++)
			sb_addf(&sb, " %s", jv_string(jv_at(ready, i)));
	}
	sb_addf(&sb, " (%zu blockers)", jv_len(jv_get(data, "blockers")));
	tf_para(t, 0, "doctor:", sb_str(&sb));
	sb_release(&sb);
	const jv *be = jv_get(data, "backends");
	for (size_t i = 0; jv_type_of(be) == JV_OBJECT && i < jv_len(be); i++) {
		const jv *b = jv_value_at(be, i), *r = jv_get(b, "ready");
		tf_title(t, "%s: %s", jv_key_at(be, i), jv_is_true(r) ? "ready" : "not ready");
		blockers(t, jv_get(b, "blockers"));
	}
	tf_title(t, "found on this machine");
	tool_line(t, "rocprofv3", jv_get(data, "rocprofv3"));
	tool_line(t, "rocminfo", jv_get(data, "rocminfo"));
	tool_line(t, "nvidia-smi", jv_get(data, "nvidia_smi"));
	tool_line(t, "ncu", jv_get(data, "ncu"));
	const jv *dec = jv_get(data, "decoder");
	tf_para(t, 2, "decoder:", jv_string(jv_get(dec, "path")) ? str(dec, "path") : "not found");
	char line[64];
	snprintf(line, sizeof line, "%zu AMD, %zu NVIDIA", jv_len(jv_get(data, "amd_gpus")),
		 jv_len(jv_get(data, "nvidia_gpus")));
	tf_para(t, 2, "GPUs:", line);
}

void tv_list(tf *t, const jv *data)
{
	const jv *k = jv_get(data, "kernels"), *c = jv_get(data, "counts");
	char line[160];
	snprintf(line, sizeof line, "%zu kernel(s): %lld from the registry, %lld from the worktree",
		 jv_len(k), num(c, "registry"), num(c, "worktree"));
	tf_para(t, 0, "list:", line);
	if (!jv_len(k))
		return;
	tf_table tb;
	tf_table_init(&tb, 4, 0);
	tf_table_cols(&tb, (const tf_col[]){{"kernel", TF_LEFT},
					    {"from", TF_LEFT},
					    {"op", TF_LEFT},
					    {"arch", TF_LEFT},
					    {"test", TF_LEFT},
					    {NULL, 0}});
	for (size_t i = 0; i < jv_len(k); i++) { /* the whole list: it is the answer */
		const jv *x = jv_at(k, i);
		const char *row[] = {str(x, "name"), str(x, "from"), str(x, "op_category"),
				     str(x, "arch"), str(x, "test_file")};
		tf_table_row(&tb, row);
	}
	tf_table_emit(t, &tb, 2);
}
