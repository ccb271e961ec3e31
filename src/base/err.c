#include "base/err.h"

#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int status;
	const char *help;
} registry[] = {
#define X(name, status, help) {#name, status, help},
    FLYPROF_ERRORS(X)
#undef X
};

const char *err_name(err_code c)
{
	return (unsigned)c < ERR__COUNT ? registry[c].name : "INTERNAL";
}

int err_exit_status(err_code c)
{
	return (unsigned)c < ERR__COUNT ? registry[c].status : 70;
}

const char *err_default_help(err_code c)
{
	return (unsigned)c < ERR__COUNT ? registry[c].help : "";
}

int err_lookup(const char *name)
{
	for (int i = 0; i < ERR__COUNT; i++)
		if (strcmp(registry[i].name, name) == 0)
			return i;
	return -1;
}

static int vfail(fp_err *e, err_code code, const char *fmt, va_list ap)
{
	if (!e || e->set)
		return -1;
	strbuf sb = STRBUF_INIT;
	sb_vaddf(&sb, fmt, ap);
	e->set = 1;
	e->code = code;
	e->message = sb_detach(&sb);
	return -1;
}

int fp_fail(fp_err *e, err_code code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(e, code, fmt, ap);
	va_end(ap);
	return -1;
}

static void input_extras(fp_err *e, const char *file, int64_t offset, int64_t line, int64_t col,
			 const char *expected)
{
	if (file)
		fp_err_extra(e, "file", jv_str(file));
	if (offset >= 0)
		fp_err_extra(e, "offset", jv_int(offset));
	if (line > 0)
		fp_err_extra(e, "line", jv_int(line));
	if (col > 0)
		fp_err_extra(e, "column", jv_int(col));
	if (expected)
		fp_err_extra(e, "expected", jv_str(expected));
}

int fp_fail_input_lc(fp_err *e, const char *file, int64_t offset, int64_t line, int64_t col,
		     const char *expected, const char *fmt, ...)
{
	if (!e || e->set)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vfail(e, ERR_BAD_INPUT, fmt, ap);
	va_end(ap);
	input_extras(e, file, offset, line, col, expected);
	return -1;
}

void fp_err_set_help(fp_err *e, const char *help)
{
	free(e->help);
	e->help = help ? xstrdup(help) : NULL;
}

void fp_err_extra(fp_err *e, const char *key, jv *v)
{
	if (!e->extra)
		e->extra = jv_object();
	jv_set(e->extra, key, v);
}

void fp_err_clear(fp_err *e)
{
	free(e->message);
	free(e->help);
	jv_free(e->extra);
	memset(e, 0, sizeof *e);
	e->code = ERR_INTERNAL;
}

void fp_err_move(fp_err *dst, fp_err *src)
{
	fp_err_clear(dst);
	*dst = *src;
	memset(src, 0, sizeof *src);
	src->code = ERR_INTERNAL;
}
