/* A stranger at the job's door: watches /proc/net/unix for the sockets of symmem jobs (the
 * launcher's and every PE's descriptor socket, all in the abstract namespace, so visible to every
 * user) and connects to each new one as soon as it appears, sends 4 bytes (half a hello) and
 * keeps the connection open. Only the jobs of the test are attacked: those of the launcher whose
 * pid is in PIDFILE (its own socket, and its PEs': their pid is in the name, their parent is the
 * launcher), so that jobs of anyone else on the machine are left alone. Run by
 * tests/fault/stranger.sh, as another user when the test is root.
 * Usage: stranger SECONDS PIDFILE [UID GID]; prints how many connections it made. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEEN 4096
#define MAX_OPEN 512

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char seen[MAX_SEEN][108];
static int nseen;
static int open_fds[MAX_OPEN];
static int nopen;

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

static int known(const char *name) {
  for (int i = 0; i < nseen; ++i) {
    if (strcmp(seen[i], name) == 0) return 1;
  }
  if (nseen < MAX_SEEN) snprintf(seen[nseen++], sizeof seen[0], "%s", name);
  return 0;
}

/* Connects to @name (without blocking: a full backlog just means later) and sends half a hello. */
static int attack(const char *name) {
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  size_t n = strlen(name);
  if (s < 0 || n + 1 > sizeof a.sun_path) return 0;
  memcpy(a.sun_path + 1, name, n); /* sun_path[0] = 0: the abstract namespace */
  if (connect(s, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) != 0) {
    close(s);
    return 0;
  }
  const char half[4] = {1, 0, 0, 0};
  (void)!send(s, half, sizeof half, MSG_NOSIGNAL);
  if (nopen == MAX_OPEN) close(open_fds[--nopen]);
  open_fds[nopen++] = s;
  return 1;
}

static long parent_of(long pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = fopen(path, "r");
  long ppid = -1;
  if (f != NULL && fgets(buf, sizeof buf, f) != NULL) {
    char *close_paren = strrchr(buf, ')');  /* the command name may hold spaces */
    if (close_paren != NULL) sscanf(close_paren + 2, "%*c %ld", &ppid);
  }
  if (f != NULL) fclose(f);
  return ppid;
}

static long launcher_pid(const char *pidfile) {
  FILE *f = fopen(pidfile, "r");
  long pid = -1;
  if (f != NULL && fscanf(f, "%ld", &pid) != 1) pid = -1;
  if (f != NULL) fclose(f);
  return pid;
}

/* symmem-run.<launcher pid>.<job> or symmem.<PE pid>.<nonce> of one of its PEs. */
static int ours(const char *name, long launcher) {
  long pid = -1;
  if (launcher <= 0) return 0;
  if (sscanf(name, "symmem-run.%ld.", &pid) == 1) return pid == launcher;
  if (sscanf(name, "symmem.%ld.", &pid) == 1) return parent_of(pid) == launcher;
  return 0;
}

static int scan(const char *pidfile) {
  const long launcher = launcher_pid(pidfile);
  FILE *f = fopen("/proc/net/unix", "r");
  char line[512];
  int made = 0;
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    char *at = strstr(line, " @symmem");
    if (at == NULL) continue;
    char *name = at + 2;
    name[strcspn(name, "\n ")] = '\0';
    if (ours(name, launcher) && !known(name)) made += attack(name);
  }
  if (f != NULL) fclose(f);
  return made;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: stranger SECONDS PIDFILE [UID GID]\n");
    return 2;
  }
  if (argc >= 5 && (setgid((gid_t)atoi(argv[4])) != 0 || setuid((uid_t)atoi(argv[3])) != 0)) {
    perror("stranger: cannot become the other user");
    return 2;
  }
  const double until = now_s() + atof(argv[1]);
  int made = 0;
  signal(SIGTERM, on_term);
  while (!stop && now_s() < until) {
    made += scan(argv[2]);
    usleep(1000);
  }
  printf("stranger (uid %d): %d connections to %d symmem sockets\n", (int)getuid(), made, nseen);
  return 0;
}
