/* SIGINT/SIGTERM handling: the first signal sets a flag that long loops and the process
 * runner check; the command then ends with INTERRUPTED (exit 130) and the bundle keeps its
 * previous artifacts because every write is atomic. */
#ifndef FLYPROF_BASE_SIGNALS_H
#define FLYPROF_BASE_SIGNALS_H

void signals_install(void);
/* Number of the signal received, or 0. */
int signals_pending(void);

#endif
