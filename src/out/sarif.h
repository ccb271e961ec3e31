/* SARIF 2.1.0 output of the recommendations (`report --sarif FILE`), so findings show up as
 * code annotations on the kernel's .py lines (GitHub code scanning and other viewers).
 * One run, tool.driver.name "flyprof" with one reportingDescriptor per fired rule; one result
 * per recommendation with ruleId, level (high/medium confidence: warning, low: note),
 * message.text, and locations[0].physicalLocation {artifactLocation.uri, region.startLine} from
 * the hot instruction's source (absolute paths become file:// URIs). A recommendation without
 * a source line has no location and says why in properties.no_location_reason. */
#ifndef FLYPROF_OUT_SARIF_H
#define FLYPROF_OUT_SARIF_H

#include "base/json/jv.h"

/* Builds the SARIF document from report.json; owned by the caller. */
jv *sarif_build(const jv *report);

/* Splits "path/file.py:LINE" (the first element of an inline chain "a -> b") into an owned
 * path and the line; returns 0, or -1 when there is no ":LINE" suffix. */
int sarif_split_source(const char *source, char **path, long *line);

#endif
