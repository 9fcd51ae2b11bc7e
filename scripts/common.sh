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
# A new folder is set up for Ninja when it is there (it starts the compiles of a target's users
# while the target links, which make does not); a folder set up before keeps its generator.
configure_build() {
  dir=$1; shift
  gen=""
  [ -f "$dir/CMakeCache.txt" ] || ! command -v ninja >/dev/null || gen="-GNinja"
  cmake -S "$ROOT" -B "$dir" $gen -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$JOBS" >"$dir.build.log" 2>&1 || {
    tail -60 "$dir.build.log"; return 1; }
}

# nvcc_prefix BUILD: a minimal prefix in BUILD/prefix that symmem-nvcc finds from its own location
# (headers, libsymmem, libsymmem_device.a, symmem-nvcc and symmem-run), for GPU programs built outside
# CMake. Prints it.
nvcc_prefix() {
  local b=$1 p=$1/prefix libdir
  libdir=$(sed -n 's|^libdir="\$prefix/\(.*\)"$|\1|p' "$b/wrappers/symmem-nvcc")
  mkdir -p "$p/bin" "$p/$libdir" "$p/include" &&
    cp -r "$ROOT/include/." "$p/include/" && cp "$b/include/symmem/version.h" "$p/include/symmem/" &&
    cp -P "$b"/src/libsymmem.so* "$b"/src/libsymmem_device*.a "$p/$libdir/" &&
    cp "$b/wrappers/symmem-nvcc" "$b/tools/symmem-run" "$p/bin/" &&
    chmod +x "$p/bin/"* && echo "$p"
}
