/* skills/references/bubble-knob-table.md, generated from the rules and the knob vocabulary
 * (data/rules.json, data/knobs_flydsl.json) by `flyprof --knob-table-md`; a test compares the
 * committed file with the generator's output so it cannot go stale. */
#ifndef FLYPROF_OUT_KNOB_TABLE_MD_H
#define FLYPROF_OUT_KNOB_TABLE_MD_H

#include "base/err.h"
#include "base/strbuf.h"
#include "core/diagnose/rules.h"

/* Appends the table for already loaded rules. */
void knob_table_md(strbuf *out, const rules *r);
/* Loads the rules and appends the table; on failure writes the error to stderr and returns
 * its exit status (78 for BAD_RULES), else 0. Used by main for --knob-table-md. */
int knob_table_md_main(strbuf *out);

#endif
