#include "base/data.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Generated at build time (build/gen/data_blobs.c). */
struct data_blob {
	const char *name;
	const unsigned char *bytes;
	size_t len;
};
extern const struct data_blob flyprof_data_blobs[];
extern const char *const flyprof_data_names[];

const char *const *data_names(void)
{
	return flyprof_data_names;
}

char *data_load(const char *name, size_t *len, const char **origin, fp_err *e)
{
	static char where[512];
	const char *dir = getenv("FLYPROF_DATA_DIR");
	if (dir && *dir) {
		char *path = path_join(dir, name);
		if (file_is_reg(path)) {
			snprintf(where, sizeof where, "%s", path);
			if (origin)
				*origin = where;
			char *buf = file_read_all(path, len, e);
			free(path);
			return buf;
		}
		free(path);
	}
	for (const struct data_blob *b = flyprof_data_blobs; b->name; b++) {
		if (strcmp(b->name, name) != 0)
			continue;
		snprintf(where, sizeof where, "<embedded>/%s", name);
		if (origin)
			*origin = where;
		if (len)
			*len = b->len;
		char *copy = xmalloc(b->len + 1);
		memcpy(copy, b->bytes, b->len);
		copy[b->len] = '\0';
		return copy;
	}
	fp_fail(e, ERR_NO_ARTIFACT, "no built-in data file named %s", name);
	return NULL;
}
