/* The process runner (src/drive/proc.c) against the stand-in build/fake/proc_helper: capture,
 * exit statuses, deadlines, SIGKILL escalation, whole-group kills, logs, env and cwd. */
#include "t.h"

#include "drive/proc.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* <build dir>/fake/proc_helper beside this test binary. */
static const char *helper(void)
{
	static char path[PATH_MAX + 64];
	if (!path[0]) {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (n <= 0)
			return NULL;
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(path, sizeof path, "%s/fake/proc_helper", exe);
	}
	return access(path, X_OK) == 0 ? path : NULL;
}

static int run(proc_opts *o, proc_result *r)
{
	fp_err e = FP_ERR_INIT;
	int rc = proc_run(o, r, &e);
	if (rc < 0)
		t_fail(__FILE__, __LINE__, "proc_run: %s", e.message ? e.message : "?");
	fp_err_clear(&e);
	return rc;
}

#define NEED_HELPER()                                                                              \
	do {                                                                                       \
		if (!helper())                                                                     \
			SKIP("build/fake/proc_helper not built");                                  \
	} while (0)

TEST(proc_captures_both_streams)
{
	NEED_HELPER();
	const char *argv[] = {helper(), "echo", "hello world", NULL};
	proc_opts o = {.argv = argv, .timeout_s = 10, .capture_max = 1024};
	proc_result r;
	run(&o, &r);
	CHECK_INT(r.status, PROC_EXITED);
	CHECK(proc_ok(&r));
	CHECK_STR(r.out, "hello world\n");
	CHECK_STR(r.err, "err\n");
	proc_result_release(&r);
}

TEST(proc_exit_status_and_error_mapping)
{
	NEED_HELPER();
	const char *argv[] = {helper(), "exit", "3", NULL};
	proc_opts o = {.argv = argv, .timeout_s = 10};
	proc_result r;
	run(&o, &r);
	CHECK_INT(r.status, PROC_EXITED);
	CHECK_INT(r.exit_code, 3);
	CHECK(!proc_ok(&r));
	fp_err e = FP_ERR_INIT;
	CHECK_INT(proc_error(&r, "helper", ERR_ROCPROFV3_MISSING, "logs/x.log", &e), -1);
	CHECK_INT(e.code, ERR_PROFILER_FAILED);
	CHECK_INT(jv_i64(jv_get(e.extra, "exit_code")), 3);
	CHECK_STR(jv_string(jv_get(e.extra, "log")), "logs/x.log");
	fp_err_clear(&e);
	proc_result_release(&r);
	const char *sig[] = {helper(), "signal", NULL};
	o.argv = sig;
	run(&o, &r);
	CHECK_INT(r.status, PROC_SIGNALED);
	CHECK_INT(r.term_signal, SIGUSR1);
	proc_result_release(&r);
}

TEST(proc_not_found_is_a_result)
{
	const char *a1[] = {"flyprof-no-such-tool-xyz", NULL};
	proc_opts o = {.argv = a1, .timeout_s = 5};
	proc_result r;
	CHECK_INT(run(&o, &r), 0);
	CHECK_INT(r.status, PROC_NOT_FOUND);
	fp_err e = FP_ERR_INIT;
	proc_error(&r, "rocprofv3", ERR_ROCPROFV3_MISSING, NULL, &e);
	CHECK_INT(e.code, ERR_ROCPROFV3_MISSING);
	fp_err_clear(&e);
	proc_result_release(&r);
	const char *a2[] = {"/nonexistent/dir/tool", NULL};
	o.argv = a2;
	run(&o, &r);
	CHECK_INT(r.status, PROC_NOT_FOUND);
	proc_result_release(&r);
	char *w = proc_which("sh");
	CHECK(w != NULL && w[0] == '/');
	free(w);
}

TEST(proc_deadline_kills)
{
	NEED_HELPER();
	const char *argv[] = {helper(), "hang", NULL};
	proc_opts o = {.argv = argv, .timeout_s = 0.3, .capture_max = 64};
	proc_result r;
	run(&o, &r);
	CHECK_INT(r.status, PROC_TIMED_OUT);
	CHECK(r.wall_s >= 0.3 && r.wall_s < 5);
	fp_err e = FP_ERR_INIT;
	proc_error(&r, "helper", ERR_ROCPROFV3_MISSING, NULL, &e);
	CHECK_INT(e.code, ERR_CAPTURE_TIMEOUT);
	fp_err_clear(&e);
	proc_result_release(&r);
	/* A child ignoring SIGTERM is SIGKILLed after the grace period. */
	const char *stubborn[] = {helper(), "ignore-term", NULL};
	o.argv = stubborn;
	o.kill_grace_s = 0.3;
	run(&o, &r);
	CHECK_INT(r.status, PROC_TIMED_OUT);
	CHECK(r.wall_s >= 0.6 && r.wall_s < 5);
	proc_result_release(&r);
}

/* 1 once pid is gone or a zombie waiting for init. */
static int gone(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		char path[64], buf[512];
		snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
		FILE *f = fopen(path, "r");
		if (!f)
			return 1;
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = 0;
		const char *rp = strrchr(buf, ')');
		if (rp && rp[1] == ' ' && rp[2] == 'Z')
			return 1;
		usleep(10 * 1000);
	}
	return 0;
}

static pid_t read_pid(const char *file)
{
	FILE *f = fopen(file, "r");
	int pid = 0;
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return (pid_t)pid;
}

TEST(proc_kills_the_whole_group)
{
	NEED_HELPER();
	char pidfile[400];
	snprintf(pidfile, sizeof pidfile, "%s/gc.pid", t_tmpdir());
	const char *argv[] = {helper(), "grandchild", pidfile, NULL};
	proc_opts o = {.argv = argv, .timeout_s = 0.8, .capture_max = 64};
	proc_result r;
	run(&o, &r);
	CHECK_INT(r.status, PROC_TIMED_OUT);
	pid_t gc = read_pid(pidfile);
	CHECK(gc > 0);
	if (gc > 0) {
		CHECK(gone(gc));
		if (!gone(gc))
			kill(gc, SIGKILL);
	}
	proc_result_release(&r);
}

TEST(proc_straggler_does_not_hold_the_pipes)
{
	NEED_HELPER();
	char pidfile[400];
	snprintf(pidfile, sizeof pidfile, "%s/orphan.pid", t_tmpdir());
	const char *argv[] = {helper(), "orphan", pidfile, NULL};
	proc_opts o = {.argv = argv, .timeout_s = 20, .capture_max = 64};
	proc_result r;
	run(&o, &r);
	CHECK_INT(r.status, PROC_EXITED);
	CHECK_INT(r.exit_code, 0);
	CHECK(r.wall_s < 5); /* the grandchild holds stdout; without the group kill: 20 s */
	pid_t gc = read_pid(pidfile);
	CHECK(gc > 0);
	if (gc > 0) {
		CHECK(gone(gc));
		if (!gone(gc))
			kill(gc, SIGKILL);
	}
	proc_result_release(&r);
}

TEST(proc_capture_is_bounded)
{
	NEED_HELPER();
	const char *argv[] = {helper(), "big", "100000", NULL};
	proc_opts o = {.argv = argv, .timeout_s = 10, .capture_max = 1000};
	proc_result r;
	run(&o, &r);
	CHECK_INT(r.out_len, 1000);
	CHECK_INT(r.out_dropped, 99000);
	CHECK_INT(strlen(r.out), 1000);
	proc_result_release(&r);
}

TEST(proc_logs_env_and_cwd)
{
	NEED_HELPER();
	const char *dir = t_tmpdir();
	char log[400];
	snprintf(log, sizeof log, "%s/child.log", dir);
	const char *argv[] = {helper(), "echo", "to-log", NULL};
	proc_opts o = {.argv = argv, .timeout_s = 10, .stdout_path = log, .stderr_path = log};
	proc_result r;
	run(&o, &r);
	CHECK(r.out == NULL);
	FILE *f = fopen(log, "r");
	char buf[128] = "";
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	CHECK(strstr(buf, "to-log\n") != NULL);
	CHECK(strstr(buf, "err\n") != NULL);
	proc_result_release(&r);

	const char *env_argv[] = {helper(), "env", "FLYPROF_PROC_TEST", NULL};
	const char *set[] = {"FLYPROF_PROC_TEST=yes", NULL};
	proc_opts oe = {.argv = env_argv, .env_set = set, .timeout_s = 10, .capture_max = 256};
	run(&oe, &r);
	CHECK_STR(r.out, "yes\n");
	proc_result_release(&r);

	const char *pwd_argv[] = {helper(), "pwd", NULL};
	char *real = realpath(dir, NULL);
	proc_opts oc = {.argv = pwd_argv, .cwd = dir, .timeout_s = 10, .capture_max = 4096};
	run(&oc, &r);
	char want[PATH_MAX + 2];
	snprintf(want, sizeof want, "%s\n", real ? real : dir);
	CHECK_STR(r.out, want);
	free(real);
	proc_result_release(&r);
}
