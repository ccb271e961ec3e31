/* Appending a round to a task's ledger file, safe against concurrent appenders: the file is
 * locked (flock) for the read-count-write, the round gets the next number and the time, and the
 * line goes out in one O_APPEND write followed by fsync. A failed write is cut back to the old
 * size, so a reader never sees half a round that this process wrote. */
#ifndef FLYPROF_CORE_BUNDLE_LEDGER_FILE_H
#define FLYPROF_CORE_BUNDLE_LEDGER_FILE_H

#include "base/err.h"
#include "model/ledger.h"

/* How long an appender waits for another one to finish before BUNDLE_LOCKED. */
#define LEDGER_LOCK_WAIT_MS 30000

/* Validates the existing ledger (a malformed line is BAD_INPUT and nothing is written), sets
 * r->round and r->time, appends r. Creates the file (not its directory) when missing. */
int ledger_append(const char *path, ledger_round *r, fp_err *e);

#endif
