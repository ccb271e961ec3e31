/* The process runner (see proc.h). fork + execve rather than posix_spawn because the child must
 * call setpgid and report exec failures through a close-on-exec pipe; between fork and exec the
 * child only makes async-signal-safe calls (everything is prepared before the fork). */
#include "drive/proc.h"

#include "base/signals.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int is_exec_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *proc_which(const char *name)
{
	if (!name || !*name)
		return NULL;
	if (strchr(name, '/'))
		return is_exec_file(name) ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (1) {
		size_t n = strcspn(path, ":");
		strbuf sb = STRBUF_INIT;
		if (n == 0)
			sb_adds(&sb, "."); /* an empty PATH entry means the current directory */
		else
			sb_add(&sb, path, n);
		sb_addc(&sb, '/');
		sb_adds(&sb, name);
		if (is_exec_file(sb_str(&sb)))
			return sb_detach(&sb);
		sb_release(&sb);
		if (!path[n])
			return NULL;
		path += n + 1;
	}
}

/* environ with env_set entries replacing same-named variables. Strings are borrowed. */
static char **build_env(const char *const *set)
{
	size_t n_env = 0, n_set = 0;
	while (environ && environ[n_env])
		n_env++;
	while (set && set[n_set])
		n_set++;
	char **env = xcalloc(n_env + n_set + 1, sizeof *env);
	size_t k = 0;
	for (size_t i = 0; i < n_env; i++) {
		size_t klen = strcspn(environ[i], "=");
		int overridden = 0;
		for (size_t j = 0; j < n_set && !overridden; j++)
			overridden = strncmp(set[j], environ[i], klen) == 0 && set[j][klen] == '=';
		if (!overridden)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < n_set; j++)
		env[k++] = (char *)set[j];
	env[k] = NULL;
	return env;
}

/* File descriptors the child gets as stdout (index 0) and stderr (index 1), and the parent's
 * read ends when capturing. */
typedef struct streams {
	int child_fd[2];
	int read_fd[2];
} streams;

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void streams_close(streams *s)
{
	for (int i = 0; i < 2; i++) {
		close_fd(&s->child_fd[i]);
		close_fd(&s->read_fd[i]);
	}
}

static int open_stream(const proc_opts *o, int i, streams *s, fp_err *e)
{
	const char *path = i == 0 ? o->stdout_path : o->stderr_path;
	if (i == 1 && path && o->stdout_path && strcmp(path, o->stdout_path) == 0) {
		s->child_fd[1] = dup(s->child_fd[0]);
		return s->child_fd[1] < 0 ? fp_fail(e, ERR_IO_ERROR, "dup: %s", strerror(errno))
					  : 0;
	}
	if (path) {
		s->child_fd[i] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (s->child_fd[i] < 0) {
			fp_fail(e, ERR_IO_ERROR, "cannot create log %s: %s", path, strerror(errno));
			fp_err_extra(e, "file", jv_str(path));
			return -1;
		}
		return 0;
	}
	if (o->capture_max == 0) {
		s->child_fd[i] = open("/dev/null", O_WRONLY | O_CLOEXEC);
		return s->child_fd[i] < 0
			   ? fp_fail(e, ERR_IO_ERROR, "/dev/null: %s", strerror(errno))
			   : 0;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return fp_fail(e, ERR_IO_ERROR, "pipe: %s", strerror(errno));
	s->read_fd[i] = p[0];
	s->child_fd[i] = p[1];
	return 0;
}

/* In the child: only async-signal-safe calls until execve. */
static void child_exec(const char *path, const proc_opts *o, char **env, streams *s, int errfd)
{
	setpgid(0, 0);
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0 && in != 0) {
		dup2(in, 0);
		close(in);
	}
	dup2(s->child_fd[0], 1);
	dup2(s->child_fd[1], 2);
	/* Restore default dispositions the parent may have changed (SIGPIPE ignored). */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (o->cwd && chdir(o->cwd) < 0) {
		int err = errno;
		if (write(errfd, &err, sizeof err) < 0)
			_exit(127);
		_exit(127);
	}
	execve(path, (char *const *)o->argv, env);
	int err = errno;
	if (write(errfd, &err, sizeof err) < 0)
		_exit(127);
	_exit(127);
}

/* Reads what is available on a capture pipe; keeps at most max bytes. Returns 0 at EOF. */
static int drain(int *fd, strbuf *sb, size_t max, size_t *dropped)
{
	char buf[4096];
	ssize_t n = read(*fd, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0) {
		close_fd(fd);
		return 0;
	}
	size_t keep = sb->len < max ? max - sb->len : 0;
	if (keep > (size_t)n)
		keep = (size_t)n;
	sb_add(sb, buf, keep);
	*dropped += (size_t)n - keep;
	return 1;
}

/* Signals the child's whole group. While the leader is alive (not reaped) its pid cannot be
 * reused, so falling back to the pid alone is safe if setpgid has not happened yet. */
static void kill_group(pid_t pid, int sig, int leader_alive)
{
	if (kill(-pid, sig) < 0 && leader_alive)
		kill(pid, sig);
}

/* Waits up to `secs` for the leader to be reaped; returns 1 if it was. */
static int reap_within(pid_t pid, double secs, int *wstatus)
{
	double end = now_s() + secs;
	do {
		pid_t w = waitpid(pid, wstatus, WNOHANG);
		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return 1; /* nothing left to wait for */
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	} while (now_s() < end);
	return 0;
}

/* SIGTERM to the group, grace, then SIGKILL; reaps the leader. */
static void terminate(pid_t pid, double grace, int *wstatus)
{
	kill_group(pid, SIGTERM, 1);
	if (!reap_within(pid, grace, wstatus)) {
		kill_group(pid, SIGKILL, 1);
		while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
			;
	}
	kill_group(pid, SIGKILL, 0); /* stragglers that ignored SIGTERM */
}

/* Capture state of one run. */
typedef struct run_state {
	pid_t pid;
	streams st;
	strbuf buf[2];
	size_t dropped[2];
	int reaped, wstatus;
	proc_status forced; /* PROC_EXITED = not forced */
	int forced_sig;
} run_state;

static void poll_streams(run_state *rs, size_t max, int timeout_ms)
{
	struct pollfd fds[2];
	int idx[2], n = 0;
	for (int i = 0; i < 2; i++)
		if (rs->st.read_fd[i] >= 0) {
			fds[n] = (struct pollfd){rs->st.read_fd[i], POLLIN, 0};
			idx[n++] = i;
		}
	if (n == 0) {
		struct timespec ts = {0, (long)timeout_ms * 1000 * 1000};
		nanosleep(&ts, NULL);
		return;
	}
	if (poll(fds, (nfds_t)n, timeout_ms) <= 0)
		return;
	for (int k = 0; k < n; k++)
		if (fds[k].revents)
			drain(&rs->st.read_fd[idx[k]], &rs->buf[idx[k]], max, &rs->dropped[idx[k]]);
}

static void watch(run_state *rs, const proc_opts *o, double start)
{
	double grace = o->kill_grace_s > 0 ? o->kill_grace_s : 2.0;
	double drain_until = 0;
	while (1) {
		poll_streams(rs, o->capture_max, 20);
		if (!rs->reaped) {
			pid_t w = waitpid(rs->pid, &rs->wstatus, WNOHANG);
			if (w == rs->pid || (w < 0 && errno != EINTR))
				rs->reaped = 1;
			else if (o->timeout_s > 0 && now_s() - start >= o->timeout_s)
				rs->forced = PROC_TIMED_OUT;
			else if ((rs->forced_sig = signals_pending()) != 0)
				rs->forced = PROC_INTERRUPTED;
			if (rs->forced != PROC_EXITED) {
				terminate(rs->pid, grace, &rs->wstatus);
				rs->reaped = 1;
			}
			if (rs->reaped) {
				/* Stragglers would keep the pipes open and outlive us. */
				kill_group(rs->pid, SIGKILL, 0);
				drain_until = now_s() + 2.0;
			}
			continue;
		}
		if ((rs->st.read_fd[0] < 0 && rs->st.read_fd[1] < 0) || now_s() > drain_until)
			return;
	}
}

static void decode_status(run_state *rs, proc_result *r)
{
	r->status = rs->forced;
	if (rs->forced == PROC_INTERRUPTED)
		r->term_signal = rs->forced_sig;
	if (rs->forced != PROC_EXITED)
		return;
	if (WIFEXITED(rs->wstatus)) {
		r->exit_code = WEXITSTATUS(rs->wstatus);
	} else if (WIFSIGNALED(rs->wstatus)) {
		r->status = PROC_SIGNALED;
		r->term_signal = WTERMSIG(rs->wstatus);
	}
}

/* Reads the exec-failure pipe: an errno if exec failed, 0 if it succeeded (EOF). */
static int exec_errno(int fd)
{
	int err = 0;
	ssize_t n;
	do
		n = read(fd, &err, sizeof err);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof err ? err : 0;
}

static int spawn(const char *path, const proc_opts *o, run_state *rs, proc_result *r, fp_err *e)
{
	int ep[2];
	if (pipe2(ep, O_CLOEXEC) < 0)
		return fp_fail(e, ERR_IO_ERROR, "pipe: %s", strerror(errno));
	char **env = build_env(o->env_set);
	rs->pid = fork();
	if (rs->pid == 0)
		child_exec(path, o, env, &rs->st, ep[1]);
	free(env);
	close(ep[1]);
	if (rs->pid < 0) {
		close(ep[0]);
		r->status = PROC_SPAWN_FAILED;
		r->spawn_errno = errno;
		return 1;
	}
	setpgid(rs->pid, rs->pid); /* also in the parent: no race with an early kill */
	close_fd(&rs->st.child_fd[0]);
	close_fd(&rs->st.child_fd[1]);
	int err = exec_errno(ep[0]);
	close(ep[0]);
	if (err) {
		while (waitpid(rs->pid, &rs->wstatus, 0) < 0 && errno == EINTR)
			;
		r->status = err == ENOENT || err == EACCES || err == ENOEXEC ? PROC_NOT_FOUND
									     : PROC_SPAWN_FAILED;
		r->spawn_errno = err;
		return 1;
	}
	return 0;
}

int proc_run(const proc_opts *o, proc_result *r, fp_err *e)
{
	memset(r, 0, sizeof *r);
	if (!o || !o->argv || !o->argv[0])
		return fp_fail(e, ERR_INTERNAL, "proc_run: empty argv");
	double start = now_s();
	if (signals_pending()) { /* do not start anything once the user asked us to stop */
		r->status = PROC_INTERRUPTED;
		r->term_signal = signals_pending();
		return 0;
	}
	r->path = proc_which(o->argv[0]);
	if (!r->path) {
		r->status = PROC_NOT_FOUND;
		r->spawn_errno = ENOENT;
		return 0;
	}
	run_state rs;
	memset(&rs, 0, sizeof rs);
	rs.forced = PROC_EXITED;
	rs.st = (streams){{-1, -1}, {-1, -1}};
	if (open_stream(o, 0, &rs.st, e) < 0 || open_stream(o, 1, &rs.st, e) < 0) {
		streams_close(&rs.st);
		return -1;
	}
	int rc = spawn(r->path, o, &rs, r, e);
	if (rc == 0)
		watch(&rs, o, start);
	streams_close(&rs.st);
	if (rc < 0) {
		sb_release(&rs.buf[0]);
		sb_release(&rs.buf[1]);
		return -1;
	}
	if (rc == 0)
		decode_status(&rs, r);
	if (o->capture_max && !o->stdout_path) {
		r->out_len = rs.buf[0].len;
		r->out = xstrdup(sb_str(&rs.buf[0]));
	}
	if (o->capture_max && !o->stderr_path) {
		r->err_len = rs.buf[1].len;
		r->err = xstrdup(sb_str(&rs.buf[1]));
	}
	r->out_dropped = rs.dropped[0];
	r->err_dropped = rs.dropped[1];
	sb_release(&rs.buf[0]);
	sb_release(&rs.buf[1]);
	r->wall_s = now_s() - start;
	return 0;
}

void proc_result_release(proc_result *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
}

const char *proc_status_name(proc_status s)
{
	switch (s) {
	case PROC_EXITED:
		return "exited";
	case PROC_SIGNALED:
		return "signaled";
	case PROC_TIMED_OUT:
		return "timed_out";
	case PROC_INTERRUPTED:
		return "interrupted";
	case PROC_NOT_FOUND:
		return "not_found";
	case PROC_SPAWN_FAILED:
		return "spawn_failed";
	}
	return "unknown";
}

int proc_ok(const proc_result *r)
{
	return r && r->status == PROC_EXITED && r->exit_code == 0;
}

void proc_describe(const proc_result *r, char *buf, size_t n)
{
	switch (r->status) {
	case PROC_EXITED:
		snprintf(buf, n, "exited %d", r->exit_code);
		break;
	case PROC_SIGNALED:
		snprintf(buf, n, "killed by signal %d (%s)", r->term_signal,
			 strsignal(r->term_signal));
		break;
	case PROC_TIMED_OUT:
		snprintf(buf, n, "timed out after %.1f s", r->wall_s);
		break;
	case PROC_INTERRUPTED:
		snprintf(buf, n, "stopped: flyprof received signal %d", r->term_signal);
		break;
	case PROC_NOT_FOUND:
		snprintf(buf, n, "not found or not executable (%s)", strerror(r->spawn_errno));
		break;
	case PROC_SPAWN_FAILED:
		snprintf(buf, n, "could not start (%s)", strerror(r->spawn_errno));
		break;
	}
}

int proc_error(const proc_result *r, const char *what, err_code missing_code, const char *log,
	       fp_err *e)
{
	char desc[160];
	proc_describe(r, desc, sizeof desc);
	err_code c = ERR_PROFILER_FAILED;
	if (r->status == PROC_NOT_FOUND)
		c = missing_code;
	else if (r->status == PROC_TIMED_OUT)
		c = ERR_CAPTURE_TIMEOUT;
	else if (r->status == PROC_INTERRUPTED)
		c = ERR_INTERRUPTED;
	fp_fail(e, c, "%s: %s", what, desc);
	fp_err_extra(e, "status", jv_str(proc_status_name(r->status)));
	if (r->status == PROC_EXITED)
		fp_err_extra(e, "exit_code", jv_int(r->exit_code));
	if (log)
		fp_err_extra(e, "log", jv_str(log));
	return -1;
}
