/* SARIF 2.1.0 output of the recommendations (`report --sarif FILE`), so findings show up as
 * code annotations on the kernel's .py lines (GitHub code scanning and other viewers).
 * One run, tool.driver.name "flyprof" with one reportingDescriptor per fired rule; one result
 * per recommendation with ruleId, level (high/medium confidence: warning, low: note),
 * message.text, and locations[0].physicalLocation {artifactLocation {uri, uriBaseId},
 * region {startLine, snippet.text}} from the actionable source line: the uri is relative to
 * SRCROOT (run.originalUriBaseIds: --worktree when it holds every located file, else their
 * deepest common directory), the snippet the line's text when the capture has a copy. A
 * whole-kernel finding (no source line) is located at the kernel (logicalLocations, kind
 * function) and says why in properties.no_location_reason. */
#ifndef FLYPROF_OUT_SARIF_H
#define FLYPROF_OUT_SARIF_H

#include "base/json/jv.h"

typedef struct sarif_opts {
	const char *root; /* preferred SRCROOT (--worktree) or NULL */
	const jv *texts;  /* path -> array of its lines (index = line - 1), for snippets; or NULL */
} sarif_opts;

/* Builds the SARIF document from report.json; owned by the caller. */
jv *sarif_build(const jv *report);
jv *sarif_build_opts(const jv *report, const sarif_opts *opts);

/* Splits "path/file.py:LINE" (the first element of an inline chain "a -> b") into an owned
 * path and the line; returns 0, or -1 when there is no ":LINE" suffix. */
int sarif_split_source(const char *source, char **path, long *line);

#endif
