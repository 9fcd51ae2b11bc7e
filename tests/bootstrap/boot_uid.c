/* Unique-id bootstrap test: one process makes the id, the others join with it.
 *
 *   boot_uid run N [flags]            orchestrates N ranks on this host and checks the outcome
 *   boot_uid root N IDFILE [flags]    rank 0: symmem_get_uniqueid, writes the id (hex) to IDFILE, joins
 *   boot_uid child R N IDFILE [flags] rank R: waits for IDFILE, joins
 * flags:
 *   --split-hosts   SYMMEM_HOSTNAME differs between even and odd PEs: they must not map each other
 *   --missing       (run) rank N-1 is never started: the others fail naming it
 *   --stranger      (run) a process with a wrong secret and a raw TCP client try to join: refused,
 *                   logged by rank 0, and the job still completes
 *   --flood         (run) a raw TCP client sends a greeting header and then streams 256 MiB: the
 *                   root must refuse it after the greeting, holding no more than that in memory
 *   --kill1         (run) rank 1 is killed (SIGKILL) while the others wait in init
 *   --exit7         rank 1 calls symmem_global_exit(7) after init: every rank exits with 7
 *   --delay-ms MS   rank 0 waits MS before init (the others wait in init meanwhile)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot_common.h"

#define MAX_RANKS 64

struct opts {
  int split_hosts, missing, stranger, flood, kill1, exit7, delay_ms;
};

static struct opts parse_flags(int argc, char **argv, int first) {
  struct opts o = {0, 0, 0, 0, 0, 0, 0};
  for (int i = first; i < argc; ++i) {
    if (!strcmp(argv[i], "--split-hosts")) o.split_hosts = 1;
    else if (!strcmp(argv[i], "--missing")) o.missing = 1;
    else if (!strcmp(argv[i], "--stranger")) o.stranger = 1;
    else if (!strcmp(argv[i], "--flood")) o.flood = 1;
    else if (!strcmp(argv[i], "--kill1")) o.kill1 = 1;
    else if (!strcmp(argv[i], "--exit7")) o.exit7 = 1;
    else if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc) o.delay_ms = atoi(argv[++i]);
  }
  return o;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the id as a file of hex ------------------------------------------------------------------ */

static void write_id(const char *path, const symmem_uniqueid_t *id) {
  char tmp[4096], hex[2 * SYMMEM_UNIQUEID_BYTES + 2];
  for (int i = 0; i < SYMMEM_UNIQUEID_BYTES; ++i) sprintf(hex + 2 * i, "%02x", id->internal[i]);
  strcat(hex, "\n");
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  BCHECK(f != NULL);
  fputs(hex, f);
  fclose(f);
  BCHECK(rename(tmp, path) == 0); /* appears whole or not at all */
}

static void read_id(const char *path, symmem_uniqueid_t *id) {
  FILE *f = NULL;
  for (double t0 = now_s(); (f = fopen(path, "r")) == NULL && now_s() - t0 < 30;) usleep(10000);
  if (f == NULL) {
    fprintf(stderr, "no id file %s after 30 s\n", path);
    exit(3);
  }
  for (int i = 0; i < SYMMEM_UNIQUEID_BYTES; ++i) {
    unsigned v = 0;
    BCHECK(fscanf(f, "%2x", &v) == 1);
    id->internal[i] = (unsigned char)v;
  }
  fclose(f);
}

/* ---- a rank ------------------------------------------------------------------------------------ */

static int join(int rank, int n, const symmem_uniqueid_t *id, struct opts o) {
  if (o.split_hosts) boot_set_hostname(rank % 2);
  symmem_init_attr_t attr = SYMMEM_INIT_ATTR_INITIALIZER;
  BCHECK(symmem_set_attr_uniqueid_args(rank, n, id, &attr) == SYMMEM_SUCCESS);
  int rc = symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID, &attr);
  if (rc != SYMMEM_SUCCESS) {
    fprintf(stderr, "rank %d: symmem_init_attr failed (%d): %s\n", rank, rc, symmem_last_error());
    return 2;
  }
  BCHECK(symmem_my_pe() == rank && symmem_n_pes() == n);
  if (o.exit7 && rank == 1) symmem_global_exit(7);
  boot_workload("uid", o.split_hosts ? boot_host_split2 : NULL);
  symmem_finalize();
  return 0;
}

static int run_root(int n, const char *idfile, struct opts o) {
  symmem_uniqueid_t id = SYMMEM_UNIQUEID_INITIALIZER;
  BCHECK(symmem_get_uniqueid(&id) == SYMMEM_SUCCESS);
  write_id(idfile, &id);
  if (o.delay_ms > 0) usleep((useconds_t)o.delay_ms * 1000);
  return join(0, n, &id, o);
}

/* The root's address from the id (its layout is private, src/plugins/uid/uid_proto.h: port at 6,
 * IPv4 at 8). */
static struct sockaddr_in root_address(const symmem_uniqueid_t *id) {
  struct sockaddr_in to;
  memset(&to, 0, sizeof to);
  to.sin_family = AF_INET;
  memcpy(&to.sin_port, id->internal + 6, 2);
  memcpy(&to.sin_addr, id->internal + 8, 4);
  return to;
}

/* The id's layout is private (src/plugins/uid/uid_proto.h): port at 6, IPv4 at 8, secret at 24. */
static int run_strangers(const char *idfile) {
  symmem_uniqueid_t id;
  read_id(idfile, &id);
  struct sockaddr_in to = root_address(&id);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd >= 0 && connect(fd, (struct sockaddr *)&to, sizeof to) == 0) {
    const char junk[] = "GET / HTTP/1.0\r\n\r\n";
    (void)!write(fd, junk, sizeof junk - 1);
  }
  id.internal[30] ^= 0x5a; /* a wrong secret */
  symmem_init_attr_t attr = SYMMEM_INIT_ATTR_INITIALIZER;
  symmem_set_attr_uniqueid_args(1, 2, &id, &attr);
  int rc = symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID, &attr);
  if (fd >= 0) close(fd);
  printf("stranger: init with a wrong secret returned %d (%s)\n", rc, rc ? "refused, as it must be" : "ADMITTED");
  return rc != SYMMEM_SUCCESS ? 0 : 1;
}

/* The peak memory (VmHWM, KiB) of process `pid`, or -1. */
static long peak_kib(unsigned pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%u/status", pid);
  FILE *f = fopen(path, "r");
  long kib = -1;
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    if (!strncmp(line, "VmHWM:", 6)) kib = atol(line + 6);
  }
  if (f != NULL) fclose(f);
  return kib;
}

/* Sends a greeting header and then streams data as fast as the root takes it; the root must
 * refuse the connection after the greeting's 56 bytes. Before the limit, the root buffered all of
 * it (68 MiB seen) before looking at the greeting. */
static int run_flood(const char *idfile) {
  symmem_uniqueid_t id;
  read_id(idfile, &id);
  struct sockaddr_in to = root_address(&id);
  uint32_t root_pid;
  memcpy(&root_pid, id.internal + 40, 4);
  root_pid = ntohl(root_pid);
  long before = peak_kib(root_pid);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  BCHECK(fd >= 0 && connect(fd, (struct sockaddr *)&to, sizeof to) == 0);
  signal(SIGPIPE, SIG_IGN);
  static char chunk[1 << 16];
  memset(chunk, 0x42, sizeof chunk);
  uint32_t head[2] = {htonl(1), htonl(40)}; /* HELLO, the length of a hello */
  memcpy(chunk, head, sizeof head);
  size_t sent = 0;
  /* The root stopped while the kernel's buffers fill (megabytes), so that it finds them full. */
  kill((pid_t)root_pid, SIGSTOP);
  int big = 64 << 20;
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  for (ssize_t k; (k = send(fd, chunk, sizeof chunk, MSG_DONTWAIT)) > 0;) {
    sent += (size_t)k;
    memcpy(chunk, "\x42\x42\x42\x42\x42\x42\x42\x42", 8);
  }
  kill((pid_t)root_pid, SIGCONT);
  for (double t0 = now_s(); sent < (256u << 20) && now_s() - t0 < 5;) {
    ssize_t k = send(fd, chunk, sizeof chunk, 0);
    if (k <= 0) break; /* refused: the root closed the connection */
    sent += (size_t)k;
  }
  close(fd);
  long after = peak_kib(root_pid);
  printf("flood: sent %zu bytes; the root's peak memory grew by %ld KiB\n", sent, after - before);
  return before > 0 && after - before < 1024 ? 0 : 1;
}

/* ---- the orchestrator -------------------------------------------------------------------------- */

static pid_t spawn(char **args, const char *stderr_file) {
  pid_t pid = fork();
  BCHECK(pid >= 0);
  if (pid == 0) {
    if (stderr_file != NULL) {
      int fd = open(stderr_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) dup2(fd, 2);
    }
    execv("/proc/self/exe", args);
    _exit(127);
  }
  return pid;
}

/* Waits for every child, at most `limit` seconds in all; returns wait statuses in `st`. */
static void reap(pid_t *pids, int *st, int count, double limit) {
  double t0 = now_s();
  int left = count;
  for (int i = 0; i < count; ++i) st[i] = -1;
  while (left > 0) {
    int s;
    pid_t p = waitpid(-1, &s, WNOHANG);
    for (int i = 0; p > 0 && i < count; ++i) {
      if (pids[i] == p) st[i] = s, --left;
    }
    if (p > 0) continue;
    if (now_s() - t0 > limit) {
      fprintf(stderr, "orchestrator: children still running after %.0f s; killing them\n", limit);
      for (int i = 0; i < count; ++i) if (st[i] == -1) kill(pids[i], SIGKILL);
      limit += 5;
    }
    usleep(10000);
  }
}

static int exit_code(int st) { return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st); }

static int log_has(const char *path, const char *needle) {
  char line[4096];
  FILE *f = fopen(path, "r");
  int hit = needle[0] == '\0';
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    fputs(line, stderr); /* the root's messages belong in the test's output */
    hit = hit || strstr(line, needle) != NULL;
  }
  if (f != NULL) fclose(f);
  return hit;
}

/* Starts rank 0 (its stderr to `rootlog`), the other ranks and the strangers; returns how many. */
static int spawn_job(int n, int argc, char **argv, struct opts o, const char *idfile, const char *rootlog,
                     pid_t *pids) {
  static char nbuf[16], rbuf[MAX_RANKS][16];
  char *flags[16];
  int nf = 0, count = 0;
  for (int i = 3; i < argc && nf < 15; ++i) flags[nf++] = argv[i];
  snprintf(nbuf, sizeof nbuf, "%d", n);
  for (int r = 0; r < n && !(o.missing && r == n - 1); ++r) {
    char *args[32] = {argv[0], r == 0 ? "root" : "child"};
    int k = 2;
    snprintf(rbuf[r], sizeof rbuf[r], "%d", r);
    if (r != 0) args[k++] = rbuf[r];
    args[k++] = nbuf;
    args[k++] = (char *)idfile;
    for (int i = 0; i < nf; ++i) args[k++] = flags[i];
    pids[count++] = spawn(args, r == 0 ? rootlog : NULL);
  }
  if (o.stranger || o.flood) {
    char *args[] = {argv[0], o.flood ? "flood" : "stranger", (char *)idfile, NULL};
    pids[count++] = spawn(args, NULL);
  }
  return count;
}

/* Did the job end as the scenario requires? Also copies rank 0's messages to the output. */
static int judge(int n, struct opts o, const char *rootlog, const int *st, int count) {
  char want[128] = "";
  int want_exit = 0; /* -1: any non-zero */
  if (o.missing) snprintf(want, sizeof want, "PE %d did not arrive within", n - 1);
  if (o.kill1) snprintf(want, sizeof want, "closed its connection to the bootstrap root before finalize");
  if (o.missing || o.kill1) want_exit = -1;
  if (o.exit7) want_exit = 7;
  if (o.stranger || o.flood) snprintf(want, sizeof want, "that did not present this job's secret");
  int ok = log_has(rootlog, want);
  for (int i = 0; i < count; ++i) {
    int code = exit_code(st[i]);
    fprintf(stderr, "orchestrator: process %d exited with %d\n", i, code);
    ok = ok && (want_exit < 0 ? code != 0 : code == want_exit);
  }
  return ok;
}

static int run_all(int n, int argc, char **argv, struct opts o) {
  char dir[] = "/tmp/symmem-uid-XXXXXX", idfile[256], rootlog[256];
  BCHECK(n >= 1 && n <= MAX_RANKS && mkdtemp(dir) != NULL);
  snprintf(idfile, sizeof idfile, "%s/id", dir);
  snprintf(rootlog, sizeof rootlog, "%s/root.err", dir);
  pid_t pids[MAX_RANKS + 1];
  int st[MAX_RANKS + 1];
  double t0 = now_s();
  int count = spawn_job(n, argc, argv, o, idfile, rootlog, pids);
  if (o.kill1) {
    usleep(500 * 1000); /* rank 1 is inside init, waiting for rank 0 (--delay-ms) */
    kill(pids[1], SIGKILL);
  }
  reap(pids, st, count, 60);
  double took = now_s() - t0;
  int ok = judge(n, o, rootlog, st, count);
  printf("%s: %d ranks in %.2f s\n", ok ? "PASS" : "FAIL", n, took);
  unlink(idfile);
  unlink(rootlog);
  rmdir(dir);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "run")) return run_all(atoi(argv[2]), argc, argv, parse_flags(argc, argv, 3));
  if (argc >= 4 && !strcmp(argv[1], "root")) return run_root(atoi(argv[2]), argv[3], parse_flags(argc, argv, 4));
  if (argc >= 5 && !strcmp(argv[1], "child")) {
    symmem_uniqueid_t id;
    read_id(argv[4], &id);
    return join(atoi(argv[2]), atoi(argv[3]), &id, parse_flags(argc, argv, 5));
  }
  if (argc >= 3 && !strcmp(argv[1], "stranger")) return run_strangers(argv[2]);
  if (argc >= 3 && !strcmp(argv[1], "flood")) return run_flood(argv[2]);
  fprintf(stderr, "usage: %s run N [flags] | root N IDFILE [flags] | child R N IDFILE [flags]\n", argv[0]);
  return 2;
}
