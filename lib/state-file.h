/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpaged's runtime state, for clearpagectl status, and the backends
 * clearpagectl reset handed to the kernel, for clearpaged. Both live in
 * clearpaged's RuntimeDirectory= (CP_SAVINGS_DIR), are replaced whole
 * (cp_file_replace()) and go with it when the service stops.
 *
 * CP_STATE_FILE, written by clearpaged every interval, after a comment line:
 *
 *   daemon PID UPDATED ATTACHED DRY_RUN MONITOR_ONLY
 *   monitor-only REASON...                (only when MONITOR_ONLY is 1)
 *   backend NODE BACKEND HELD DECIDED ACTION FROM TO REASON...
 *
 * UPDATED and DECIDED: seconds since the epoch (DECIDED 0: no decision
 * yet, ACTION FROM TO "-"); ACTION: switched, reverted, returned (the
 * slower-than-kernel guard), would-switch (dry run); HELD: 1 while the
 * backend is left alone after clearpagectl reset.
 *
 * CP_HELD_FILE, written by clearpagectl reset and unpin, read by clearpaged
 * every interval: one "NODE BACKEND" line per backend reset, after a
 * comment line. clearpaged leaves those backends alone (on kernel, where
 * reset put them) until clearpagectl unpin takes them out of the file or a
 * reload removes it.
 */
#ifndef CLEARPAGE_STATE_FILE_H
#define CLEARPAGE_STATE_FILE_H

#include <stdbool.h>

#include "clearpage-client.h"
#include "savings-file.h"

#define CP_STATE_FILE CP_SAVINGS_DIR "/state"
#define CP_HELD_FILE CP_SAVINGS_DIR "/held"

#define CP_REASON_MAX 200

struct cp_backend_state {
	unsigned int node;
	int backend;			/* enum clearpage_backend */
	bool held;
	long long decided;		/* 0: no decision yet */
	char action[16];		/* "-" when none */
	int from, to;			/* strategies, -1 when none */
	char reason[CP_REASON_MAX];
};

struct cp_daemon_state {
	int pid;
	long long updated;
	bool attached, dry_run, monitor_only;
	char monitor_reason[CP_REASON_MAX];
	int count;
	struct cp_backend_state backends[CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT];
};

/* 0 or a negative errno. */
int cp_state_write(const char *path, const struct cp_daemon_state *state);
/* 0, -ENOENT (clearpaged is not running), -EINVAL (not this format). */
int cp_state_read(const char *path, struct cp_daemon_state *state);

struct cp_held {
	unsigned int node;
	int backend;
};

/* Returns how many (up to @max), 0 without a file, or a negative errno. */
int cp_held_read(const char *path, struct cp_held *held, int max);
/* Writes @count entries; with none, removes the file. 0 or -errno. */
int cp_held_write(const char *path, const struct cp_held *held, int count);

#endif /* CLEARPAGE_STATE_FILE_H */
