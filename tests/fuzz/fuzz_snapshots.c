/* snapshots.json trees: any JSON gives entries (with no local name that leaves the directory)
 * or BAD_INPUT; lookups of every entry's own path find an entry. */
#include "fuzz.h"

#include "base/json/json_parse.h"
#include "read/amd/snapshots.h"

#include <stdlib.h>
#include <string.h>

FUZZ_TARGET(snapshots)
{
	fp_err e = FP_ERR_INIT;
	jv *tree = json_parse((const char *)data, size, "fuzz", &e);
	if (!tree) {
		fp_err_clear(&e);
		return 0;
	}
	snapshots s;
	if (snapshots_from_tree(tree, NULL, "fuzz", &s, &e) != 0) {
		if (e.code != ERR_BAD_INPUT)
			abort();
		fp_err_clear(&e);
		jv_free(tree);
		return 0;
	}
	for (size_t i = 0; i < s.n; i++) {
		const char *l = s.entries[i].local;
		if (!*l || strchr(l, '/') || strcmp(l, "..") == 0 || strcmp(l, ".") == 0)
			abort();
		int amb = 0;
		const snapshot_entry *f =
		    snapshots_find(&s, s.entries[i].path, strlen(s.entries[i].path), &amb);
		if (!f && !amb)
			abort();
		if (snapshots_snippet(&s, &s.entries[i], 1, 2) !=
		    NULL) /* no directory: unreadable */
			abort();
	}
	snapshots_release(&s);
	jv_free(tree);
	return 0;
}
