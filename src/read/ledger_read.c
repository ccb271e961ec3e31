/* JSON-lines ledger reader: each line through the strict JSON parser, then typed checks. */
#include "read/ledger_read.h"

#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct line_pos {
	const char *file;
	int64_t lineno, offset;
} line_pos;

static int bad(fp_err *e, const line_pos *p, const char *expected, const char *fmt, const char *key)
{
	return fp_fail_input_lc(e, p->file, p->offset, p->lineno, 1, expected, fmt, key);
}

/* Optional string key: absent or null leaves *out NULL; any other non-string is an error. */
static int opt_str(const jv *o, const char *key, char **out, const line_pos *p, fp_err *e)
{
	const jv *v = jv_get(o, key);
	if (jv_type_of(v) == JV_NULL)
		return 0;
	if (jv_type_of(v) != JV_STRING)
		return bad(e, p, "a string", "ledger round: \"%s\" must be a string", key);
	*out = xstrdup(jv_string(v));
	return 0;
}

static int req_str(const jv *o, const char *key, char **out, const line_pos *p, fp_err *e)
{
	if (opt_str(o, key, out, p, e) < 0)
		return -1;
	if (!*out || !**out)
		return bad(e, p, "a non-empty string", "ledger round: \"%s\" is required", key);
	return 0;
}

static int enum_key(const jv *o, const char *key, int (*parse)(const char *), int *out,
		    const line_pos *p, fp_err *e)
{
	const jv *v = jv_get(o, key);
	int k = jv_type_of(v) == JV_STRING ? parse(jv_string(v)) : -1;
	if (k < 0)
		return bad(e, p, "a known value", "ledger round: \"%s\" is missing or unknown",
			   key);
	*out = k;
	return 0;
}

static int parse_diff(const jv *o, ledger_round *r, const line_pos *p, fp_err *e)
{
	const jv *d = jv_get(o, "diff");
	if (jv_type_of(d) == JV_NULL)
		return 0;
	if (jv_type_of(d) != JV_OBJECT)
		return bad(e, p, "an object", "ledger round: \"%s\" must be an object", "diff");
	if (req_str(d, "outcome", &r->diff_outcome, p, e) < 0 ||
	    opt_str(d, "class", &r->diff_class, p, e) < 0)
		return -1;
	if (!ledger_diff_outcome_known(r->diff_outcome))
		return bad(e, p, "a `flyprof diff` outcome", "ledger round: unknown diff \"%s\"",
			   "outcome");
	return 0;
}

static int parse_benchmark(const jv *o, ledger_round *r, const line_pos *p, fp_err *e)
{
	const jv *b = jv_get(o, "benchmark");
	if (jv_type_of(b) == JV_NULL)
		return 0;
	if (jv_type_of(b) != JV_OBJECT)
		return bad(e, p, "an object", "ledger round: \"%s\" must be an object",
			   "benchmark");
	if (opt_str(b, "result", &r->benchmark, p, e) < 0)
		return -1;
	const jv *s = jv_get(b, "speedup");
	if (jv_type_of(s) != JV_NULL) {
		if (!jv_is_num(s) || !(jv_num(s) > 0))
			return bad(e, p, "a positive number",
				   "ledger round: benchmark \"%s\" must be a positive number",
				   "speedup");
		r->has_speedup = 1;
		r->speedup = jv_num(s);
	}
	return 0;
}

static int parse_round(const jv *o, ledger_round *r, const line_pos *p, fp_err *e)
{
	if (jv_type_of(o) != JV_OBJECT)
		return bad(e, p, "a JSON object", "ledger line is not a %s", "JSON object");
	const jv *n = jv_get(o, "round");
	if (!n || !jv_int_ok(n, &r->round) || r->round < 1)
		return bad(e, p, "a positive integer", "ledger round: \"%s\" is missing or invalid",
			   "round");
	const jv *c = jv_get(o, "correctness");
	int dec = 0, cor = 0;
	if (jv_type_of(c) != JV_OBJECT)
		return bad(e, p, "an object", "ledger round: \"%s\" must be an object",
			   "correctness");
	if (opt_str(o, "time", &r->time, p, e) < 0 || opt_str(o, "task", &r->task, p, e) < 0 ||
	    req_str(o, "hypothesis", &r->hypothesis, p, e) < 0 ||
	    opt_str(o, "rule", &r->rule, p, e) < 0 || opt_str(o, "knob", &r->knob, p, e) < 0 ||
	    opt_str(o, "bundle_before", &r->bundle_before, p, e) < 0 ||
	    opt_str(o, "bundle_after", &r->bundle_after, p, e) < 0 || parse_diff(o, r, p, e) < 0 ||
	    enum_key(c, "result", ledger_correctness_parse, &cor, p, e) < 0 ||
	    opt_str(c, "detail", &r->correctness_detail, p, e) < 0 ||
	    parse_benchmark(o, r, p, e) < 0 ||
	    enum_key(o, "decision", ledger_decision_parse, &dec, p, e) < 0 ||
	    req_str(o, "why", &r->why, p, e) < 0)
		return -1;
	r->correctness = (ledger_correctness)cor;
	r->decision = (ledger_decision)dec;
	return 0;
}

int ledger_parse_line(const char *line, size_t n, const char *file, int64_t lineno,
		      int64_t line_offset, ledger_round *r, fp_err *e)
{
	line_pos p = {file, lineno, line_offset};
	memset(r, 0, sizeof *r);
	fp_err pe = FP_ERR_INIT;
	jv *o = json_parse(line, n, file, &pe);
	if (!o) {
		/* Re-anchor the parser's in-line position to the file. */
		const jv *off = pe.extra ? jv_get(pe.extra, "offset") : NULL;
		int64_t at = off && jv_is_num(off) ? jv_i64(off) : 0;
		const jv *ex = pe.extra ? jv_get(pe.extra, "expected") : NULL;
		fp_fail_input_lc(
		    e, file, line_offset + at, lineno, at + 1, ex ? jv_string(ex) : "a JSON object",
		    "ledger line %lld, column %lld: not a JSON round (expected %s)",
		    (long long)lineno, (long long)at + 1, ex ? jv_string(ex) : "a JSON object");
		fp_err_clear(&pe);
		return -1;
	}
	int rc = parse_round(o, r, &p, e);
	jv_free(o);
	if (rc < 0)
		ledger_round_release(r);
	return rc;
}

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

int ledger_parse_text(const char *buf, size_t len, const char *file, ledger_rounds *rs, fp_err *e)
{
	size_t at = 0;
	for (int64_t lineno = 1; at < len; lineno++) {
		const char *nl = memchr(buf + at, '\n', len - at);
		if (!nl)
			return fp_fail_input_lc(e, file, (int64_t)len, lineno,
						(int64_t)(len - at) + 1, "a newline",
						"ledger line %lld is cut short (no final "
						"newline: an interrupted write?)",
						(long long)lineno);
		size_t n = (size_t)(nl - (buf + at));
		if (!blank(buf + at, n)) {
			ledger_round r;
			if (ledger_parse_line(buf + at, n, file, lineno, (int64_t)at, &r, e) < 0)
				return -1;
			ledger_rounds_take(rs, &r);
		}
		at += n + 1;
	}
	return 0;
}

int ledger_read_file(const char *path, ledger_rounds *rs, int *existed, fp_err *e)
{
	struct stat st;
	*existed = 0;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return 0;
	*existed = 1;
	size_t len = 0;
	char *buf = file_read_all(path, &len, e);
	if (!buf)
		return -1;
	int rc = ledger_parse_text(buf, len, path, rs, e);
	free(buf);
	return rc;
}
