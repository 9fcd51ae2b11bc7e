#!/bin/sh
# init_bench.sh [BUILD_DIR] [REPEATS]
#
# Time to start a job: how long symmem_init (or symmem_init_attr) takes under each bootstrap, at 2
# and 4 PEs, against OpenSHMEM's shmem_init (OpenMPI's OSHMEM, oshrun). Each PE times its own init
# call with a monotonic clock; a run's figure is the slowest PE (init is collective: the job is
# formed when the last PE returns); the table shows the median of REPEATS runs (default 7).
#
#   launcher   symmem-run -n N prog                       (SYMMEM_BOOTSTRAP=auto)
#   mpi        mpirun prog, SYMMEM_BOOTSTRAP=mpi           (symmem_init calls MPI_Init itself)
#   mpi-comm   mpirun prog: MPI_Init, then symmem_init_attr(SYMMEM_INIT_WITH_MPI_COMM) is timed
#   pmix       mpirun prog, SYMMEM_BOOTSTRAP=pmix          (no MPI in the program)
#   uid        N processes from a shell; rank 0's time includes symmem_get_uniqueid
#   oshmem     OMPI_MCA_osc=^rdma oshrun prog: shmem_init
#   MPI_Init   for reference, not a symmem bootstrap: MPI_Init alone in a bare MPI program, the
#              part of the mpi case that belongs to the MPI library (mpi-comm is symmem's part)
# Both libraries get a 64 MiB symmetric heap. Needs: a symmem build with its plugins, mpicc,
# mpirun and oshcc/oshrun (OpenMPI 4.1). A case whose tool is missing prints "n/a".
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
reps=${2:-7}
build=$(cd "$build" && pwd) || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MPIRUN="mpirun --allow-run-as-root --oversubscribe"

# ---- the timed programs --------------------------------------------------------------------------
cat >"$tmp/common.h" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
EOF
cat >"$tmp/sym_init.c" <<'EOF'
#include <string.h>
#include <unistd.h>
#include <symmem/symmem.h>
#include <symmem/init_attr.h>
#include "common.h"
/* sym_init | sym_init uid RANK N IDFILE */
int main(int argc, char **argv) {
  double t0 = now_us();
  int rc;
  if (argc > 4 && !strcmp(argv[1], "uid")) {
    int rank = atoi(argv[2]), n = atoi(argv[3]);
    symmem_uniqueid_t id;
    FILE *f;
    if (rank == 0) {
      if (symmem_get_uniqueid(&id) != 0) return 2;
      char tmp[512];
      snprintf(tmp, sizeof tmp, "%s.tmp", argv[4]);
      f = fopen(tmp, "wb");
      fwrite(&id, sizeof id, 1, f);
      fclose(f);
      rename(tmp, argv[4]);
    } else {
      while ((f = fopen(argv[4], "rb")) == NULL) usleep(200);
      if (fread(&id, sizeof id, 1, f) != 1) return 2;
      fclose(f);
      t0 = now_us(); /* this rank's init starts once it has the id */
    }
    symmem_init_attr_t attr = SYMMEM_INIT_ATTR_INITIALIZER;
    symmem_set_attr_uniqueid_args(rank, n, &id, &attr);
    rc = symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID, &attr);
  } else {
    rc = symmem_init();
  }
  double t1 = now_us();
  if (rc != 0) return 2;
  printf("INIT_US %.0f %s\n", t1 - t0, symmem_bootstrap_name());
  symmem_finalize();
  return 0;
}
EOF
cat >"$tmp/sym_init_mpi.c" <<'EOF'
#include <mpi.h>
#include <symmem/symmem.h>
#include <symmem/init_attr.h>
#include "common.h"
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  symmem_init_attr_t attr = SYMMEM_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &comm;
  double t0 = now_us();
  int rc = symmem_init_attr(SYMMEM_INIT_WITH_MPI_COMM, &attr);
  double t1 = now_us();
  if (rc != 0) MPI_Abort(MPI_COMM_WORLD, 2);
  printf("INIT_US %.0f %s\n", t1 - t0, symmem_bootstrap_name());
  symmem_finalize();
  MPI_Finalize();
  return 0;
}
EOF
cat >"$tmp/mpi_init.c" <<'EOF'
#include <mpi.h>
#include "common.h"
int main(int argc, char **argv) {
  double t0 = now_us();
  MPI_Init(&argc, &argv);
  double t1 = now_us();
  printf("INIT_US %.0f MPI_Init\n", t1 - t0);
  MPI_Finalize();
  return 0;
}
EOF
cat >"$tmp/osh_init.c" <<'EOF'
#include <shmem.h>
#include "common.h"
int main(void) {
  double t0 = now_us();
  shmem_init();
  double t1 = now_us();
  printf("INIT_US %.0f oshmem\n", t1 - t0);
  shmem_finalize();
  return 0;
}
EOF

SYMFLAGS="-O2 -I$src/include -I$build/include -I$tmp -L$build/src -Wl,-rpath,$build/src -lsymmem"
have() { command -v "$1" >/dev/null 2>&1; }
cc -o "$tmp/sym_init" "$tmp/sym_init.c" $SYMFLAGS || { echo "cannot build against $build"; exit 2; }
have mpicc && mpicc -o "$tmp/sym_init_mpi" "$tmp/sym_init_mpi.c" $SYMFLAGS 2>/dev/null
have mpicc && mpicc -O2 -I"$tmp" -o "$tmp/mpi_init" "$tmp/mpi_init.c" 2>/dev/null
have oshcc && oshcc -O2 -I"$tmp" -o "$tmp/osh_init" "$tmp/osh_init.c" 2>/dev/null

# ---- running one case ----------------------------------------------------------------------------
# run_case NAME NP: one run; prints the slowest PE's init time in microseconds, or nothing.
run_case() {
  out="$tmp/out"
  : >"$out"
  case $1 in
    launcher) [ -x "$build/tools/symmem-run" ] || return
              timeout 60 "$build/tools/symmem-run" -n "$2" --timeout 50 "$tmp/sym_init" >"$out" 2>&1 ;;
    mpi)      have mpirun || return
              SYMMEM_BOOTSTRAP=mpi timeout 60 $MPIRUN -n "$2" "$tmp/sym_init" >"$out" 2>&1 ;;
    mpi-comm) [ -x "$tmp/sym_init_mpi" ] || return
              timeout 60 $MPIRUN -n "$2" "$tmp/sym_init_mpi" >"$out" 2>&1 ;;
    pmix)     have mpirun || return
              SYMMEM_BOOTSTRAP=pmix timeout 60 $MPIRUN -n "$2" "$tmp/sym_init" >"$out" 2>&1 ;;
    uid)      rm -f "$tmp/id"
              r=0
              while [ "$r" -lt "$2" ]; do
                timeout 60 "$tmp/sym_init" uid "$r" "$2" "$tmp/id" >"$out.$r" 2>&1 &
                r=$((r + 1))
              done
              wait
              cat "$out".* >"$out"; rm -f "$out".* ;;
    MPI_Init) [ -x "$tmp/mpi_init" ] || return
              timeout 60 $MPIRUN -n "$2" "$tmp/mpi_init" >"$out" 2>&1 ;;
    oshmem)   [ -x "$tmp/osh_init" ] || return
              OMPI_MCA_osc=^rdma SHMEM_SYMMETRIC_SIZE=64m timeout 60 \
                oshrun --allow-run-as-root --oversubscribe -n "$2" "$tmp/osh_init" >"$out" 2>&1 ;;
  esac
  n=$(grep -c '^INIT_US' "$out")  # every PE must report, or the run does not count
  [ "$n" -eq "$2" ] || { sed 's/^/    | /' "$out" | tail -5 >&2; return; }
  grep '^INIT_US' "$out" | awk '$2 > m { m = $2 } END { print m }'
}

# median_case NAME NP: the median over $reps runs, in microseconds ("" when the case fails).
median_case() {
  i=0
  : >"$tmp/samples"
  while [ "$i" -lt "$reps" ]; do
    v=$(run_case "$1" "$2")
    [ -n "$v" ] && echo "$v" >>"$tmp/samples"
    i=$((i + 1))
  done
  sort -n "$tmp/samples" | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

export SYMMEM_SYMMETRIC_SIZE=64m
cases="launcher mpi mpi-comm pmix uid MPI_Init"
ms() { awk -v v="$1" 'BEGIN { if (v != "") printf "%.2f", v / 1000; else print "n/a" }'; }
printf 'init time, slowest PE, median of %s runs (host: %s, %s cores)\n\n' "$reps" "$(uname -n)" "$(nproc)"
printf '%-10s %4s %12s %12s %10s\n' bootstrap PEs "init ms" "oshmem ms" "speed-up"
: >"$tmp/ratios"
for np in 2 4; do
  osh=$(median_case oshmem "$np")
  for c in $cases; do
    t=$(median_case "$c" "$np")
    ratio=n/a
    if [ -n "$t" ] && [ -n "$osh" ]; then
      ratio=$(awk -v o="$osh" -v s="$t" 'BEGIN { printf "%.1fx", o / s }')
      [ "$c" = MPI_Init ] || echo "$c/$np ${ratio%x}" >>"$tmp/ratios"
    fi
    printf '%-10s %4s %12s %12s %10s\n' "$c" "$np" "$(ms "$t")" "$(ms "$osh")" "$ratio"
  done
done
echo
if [ -s "$tmp/ratios" ]; then
  short=$(awk '$2 < 5 { printf "%s%s (%sx)", sep, $1, $2; sep = ", " }' "$tmp/ratios")
  if [ -z "$short" ]; then
    echo "target met: every symmem bootstrap starts >= 5x faster than shmem_init"
  else
    echo "target (>= 5x faster than shmem_init) NOT met by: $short"
    echo "(mpi includes the MPI_Init that symmem makes for a program that has not: compare the MPI_Init row)"
  fi
fi
