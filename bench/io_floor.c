/* io_floor: the physical reference for `bubbles`: open and read every regular file of one
 * directory into memory, and nothing else.
 *
 *   io_floor [--threads N] DIR   ->  "files=<n> bytes=<b> threads=<t>" on stdout
 *
 * Each thread reads into one buffer it reuses (as bubbles' workers do), files are handed out
 * from a shared counter, and the bytes are touched only by read(2). It uses plain system calls
 * and no flyprof code on purpose, so that it stays the floor whatever the readers become.
 * bench/run.sh times it as a whole process (bench/peak_rss), exactly like flyprof, so process
 * start-up is on both sides of the ratio. A benchmark helper, not a test: it never judges. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_THREADS 64

typedef struct floor_job {
	int dirfd;
	char **names;
	size_t n;
	atomic_size_t next;
} floor_job;

typedef struct floor_worker {
	floor_job *job;
	size_t files, bytes;
	int failed;
} floor_worker;

static void *reader(void *arg)
{
	floor_worker *w = arg;
	floor_job *j = w->job;
	char *buf = NULL;
	size_t cap = 0;
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		int fd = openat(j->dirfd, j->names[i], O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0) {
			w->failed = 1;
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			close(fd);
			continue;
		}
		size_t want = (size_t)st.st_size + 1;
		if (want > cap) {
			free(buf);
			buf = malloc(want);
			cap = want;
			if (!buf) {
				perror("io_floor: malloc");
				exit(70);
			}
		}
		/* Stops at the size fstat gave: one read(2) per file, the least any reader can do.
		 */
		ssize_t r = 0;
		size_t got = 0;
		while (got < (size_t)st.st_size && (r = read(fd, buf + got, cap - got)) > 0)
			got += (size_t)r;
		if (r < 0)
			w->failed = 1;
		close(fd);
		w->files++;
		w->bytes += got;
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 1, a = 1;
	if (argc == 4 && strcmp(argv[1], "--threads") == 0) {
		threads = atoi(argv[2]);
		a = 3;
	}
	if (argc != a + 1 || threads < 1 || threads > MAX_THREADS) {
		fputs("usage: io_floor [--threads N] DIR\n", stderr);
		return 64;
	}
	DIR *d = opendir(argv[a]);
	if (!d) {
		perror(argv[a]);
		return 66;
	}
	floor_job job = {.dirfd = dirfd(d)};
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (job.n == cap) {
			cap = cap ? 2 * cap : 256;
			job.names = realloc(job.names, cap * sizeof *job.names);
			if (!job.names) {
				perror("io_floor: realloc");
				return 70;
			}
		}
		job.names[job.n++] = strdup(de->d_name);
	}
	atomic_init(&job.next, 0);
	floor_worker ws[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	memset(ws, 0, sizeof ws);
	for (int t = 0; t < threads; t++) {
		ws[t].job = &job;
		if (t && pthread_create(&tid[t], NULL, reader, &ws[t]) != 0) {
			perror("io_floor: pthread_create");
			return 70;
		}
	}
	reader(&ws[0]);
	size_t files = ws[0].files, bytes = ws[0].bytes;
	int failed = ws[0].failed;
	for (int t = 1; t < threads; t++) {
		pthread_join(tid[t], NULL);
		files += ws[t].files;
		bytes += ws[t].bytes;
		failed |= ws[t].failed;
	}
	printf("files=%zu bytes=%zu threads=%d\n", files, bytes, threads);
	for (size_t i = 0; i < job.n; i++)
		free(job.names[i]);
	free(job.names);
	closedir(d);
	return failed ? 74 : 0;
}
