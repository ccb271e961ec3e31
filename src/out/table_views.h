/* The per-command terminal views behind -f table: each leads with the command's answer on its
 * first line, then the few rows a person reads first, within the view's width. The generic
 * tree of the whole envelope stays one flag away (--full). A view reads the envelope only and
 * tolerates absent keys (it then shows less), so a new field never breaks it. */
#ifndef FLYPROF_OUT_TABLE_VIEWS_H
#define FLYPROF_OUT_TABLE_VIEWS_H

#include "base/json/jv.h"
#include "out/table_fmt.h"

/* Rows shown per list in a view (the envelope may hold more; --full shows them). */
#define TV_ROWS 8

/* `data` is the envelope's data of a successful run. */
void tv_bubbles(tf *t, const jv *data);
void tv_map(tf *t, const jv *data);
void tv_report(tf *t, const jv *data);
void tv_diff(tf *t, const jv *data);
void tv_bundle(tf *t, const jv *data);
void tv_tile(tf *t, const jv *data);
void tv_doctor(tf *t, const jv *data);
void tv_list(tf *t, const jv *data);

#endif
