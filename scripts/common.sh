# Shared by scripts/demo and scripts/test: find the repository, install or name what is missing.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=$(nproc 2>/dev/null || echo 2)

# need_packages PKG... : installs missing Debian packages when run as root, else names them.
need_packages() {
  missing=""
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || {
      echo "could not install:$missing" >&2; return 1; }
  else
    echo "missing packages:$missing" >&2
    echo "install them with: sudo apt-get install$missing" >&2
    return 1
  fi
}

# configure_build DIR [cmake args...]
configure_build() {
  dir=$1; shift
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$JOBS" >"$dir.build.log" 2>&1 || {
    tail -60 "$dir.build.log"; return 1; }
}
