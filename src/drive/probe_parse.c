/* Text parsers of probe.h: tool versions, rocminfo agents, nvidia-smi CSV. They read untrusted
 * program output, so they never index past a NUL, cap every kept string, and ignore what they
 * do not recognise (fuzzed by tests/fuzz/fuzz_probe.c). */
#include "drive/probe.h"

#include "base/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_FIELD 128

/* Copies s[0..n) without surrounding blanks, capped at MAX_FIELD bytes. */
static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n > MAX_FIELD ? MAX_FIELD : n);
}

/* Iterates lines: sets *line and *len to the next line of *p; returns 0 at the end. */
static int next_line(const char **p, const char **line, size_t *len)
{
	if (!*p || !**p)
		return 0;
	*line = *p;
	*len = strcspn(*p, "\n");
	*p += *len + ((*p)[*len] ? 1 : 0);
	return 1;
}

/* Splits "  Key:   value" into a trimmed key and value (owned); 0 if there is no ':'. */
static int key_value(const char *line, size_t len, char **key, char **val)
{
	const char *c = memchr(line, ':', len);
	if (!c)
		return 0;
	*key = trimmed(line, (size_t)(c - line));
	*val = trimmed(c + 1, len - (size_t)(c - line) - 1);
	return 1;
}

/* The first dotted number ("1.1.0", "2025.1.0.0") in s[0..n), or NULL. */
static char *dotted_number(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]) || (i && isalnum((unsigned char)s[i - 1])))
			continue;
		size_t j = i, dots = 0;
		while (j < n && (isdigit((unsigned char)s[j]) ||
				 (s[j] == '.' && j + 1 < n && isdigit((unsigned char)s[j + 1]))))
			dots += s[j++] == '.';
		if (dots)
			return xstrndup(s + i, j - i > MAX_FIELD ? MAX_FIELD : j - i);
		i = j;
	}
	return NULL;
}

char *probe_parse_rocprof_version(const char *text)
{
	const char *p = text, *line;
	size_t len;
	while (next_line(&p, &line, &len)) {
		char *k, *v;
		if (!key_value(line, len, &k, &v))
			continue;
		int hit = strcasecmp(k, "version") == 0 || strcasecmp(k, "rocprofv3 version") == 0;
		char *num = hit ? dotted_number(v, strlen(v)) : NULL;
		free(k);
		free(v);
		if (num)
			return num;
	}
	p = text;
	while (next_line(&p, &line, &len)) {
		char *num = dotted_number(line, len);
		if (num)
			return num;
	}
	return NULL;
}

char *probe_parse_ncu_version(const char *text)
{
	const char *p = text, *line;
	size_t len;
	while (next_line(&p, &line, &len)) {
		while (len && isspace((unsigned char)*line))
			line++, len--;
		if (len > 8 && strncasecmp(line, "Version ", 8) == 0)
			return dotted_number(line + 8, len - 8);
	}
	return NULL;
}

static void push_gpu(probe_gpus *g, char *arch, char *name, int cus)
{
	if (g->n >= 1024) { /* hostile output: keep the list bounded */
		free(arch);
		free(name);
		return;
	}
	g->v = xrealloc(g->v, (g->n + 1) * sizeof *g->v);
	g->v[g->n++] = (probe_gpu){arch, name, cus};
}

/* An agent block of rocminfo being read. */
typedef struct agent {
	char *name, *marketing;
	int is_gpu, cus, seen;
} agent;

static void agent_flush(agent *a, probe_gpus *g)
{
	if (a->seen && a->is_gpu && a->name && *a->name) {
		/* "gfx950" or an ISA name "amdgcn-amd-amdhsa--gfx950:xnack-": keep "gfx950". */
		const char *gfx = strstr(a->name, "gfx");
		char *arch = gfx ? xstrndup(gfx, strcspn(gfx, ": \t")) : xstrdup(a->name);
		push_gpu(g, arch, a->marketing, a->cus);
		a->marketing = NULL;
	}
	free(a->name);
	free(a->marketing);
	memset(a, 0, sizeof *a);
}

static void agent_field(agent *a, char *k, char *v)
{
	if (!a->name && strcmp(k, "Name") == 0) {
		a->name = v;
		return;
	}
	if (!a->marketing && strcmp(k, "Marketing Name") == 0) {
		a->marketing = v;
		return;
	}
	if (strcmp(k, "Device Type") == 0)
		a->is_gpu = strcasecmp(v, "GPU") == 0;
	else if (strcmp(k, "Compute Unit") == 0 && !a->cus) {
		long cus = strtol(v, NULL, 10);
		a->cus = cus > 0 && cus < 100000 ? (int)cus : 0;
	}
	free(v);
}

void probe_parse_rocminfo(const char *text, probe_gpus *g)
{
	agent a;
	memset(&a, 0, sizeof a);
	const char *p = text, *line;
	size_t len;
	while (next_line(&p, &line, &len)) {
		size_t off = 0;
		while (off < len && isspace((unsigned char)line[off]))
			off++;
		if (len - off > 6 && strncmp(line + off, "Agent ", 6) == 0 &&
		    isdigit((unsigned char)line[off + 6])) {
			agent_flush(&a, g);
			a.seen = 1;
			continue;
		}
		char *k, *v;
		if (!a.seen || !key_value(line, len, &k, &v))
			continue;
		agent_field(&a, k, v);
		free(k);
	}
	agent_flush(&a, g);
}

void probe_parse_nvidia_smi(const char *text, probe_gpus *g)
{
	const char *p = text, *line;
	size_t len;
	while (next_line(&p, &line, &len)) {
		const char *comma = memchr(line, ',', len);
		if (!comma)
			continue;
		char *name = trimmed(line, (size_t)(comma - line));
		size_t rest = len - (size_t)(comma - line) - 1;
		size_t cap_len = strcspn(comma + 1, ",\n");
		char *cap = trimmed(comma + 1, cap_len < rest ? cap_len : rest);
		char *arch = NULL;
		int major, minor;
		char tail;
		if (sscanf(cap, "%d.%d%c", &major, &minor, &tail) == 2 && major >= 0 &&
		    major < 100 && minor >= 0 && minor < 10) {
			arch = xmalloc(16);
			snprintf(arch, 16, "sm_%d%d", major, minor);
		}
		free(cap);
		if (!*name) {
			free(name);
			free(arch);
			continue;
		}
		push_gpu(g, arch, name, 0);
	}
}
