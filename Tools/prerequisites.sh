# Shared by the Tools/ scripts: checks the system prerequisites and installs what is missing when
# it can (as root, through apt-get), or says exactly what to run.

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
  bold=$'\e[1m' red=$'\e[31m' reset=$'\e[0m'
else
  bold="" red="" reset=""
fi

step() { printf '%s==> %s%s\n' "$bold" "$*" "$reset"; }
fail() {
  printf '%serror:%s %s\n' "$red" "$reset" "$1" >&2
  shift
  for line in "$@"; do printf '       %s\n' "$line" >&2; done
  exit 1
}

ensure_swift() {
  command -v swift >/dev/null 2>&1 || fail "Swift is not on PATH." \
    "Install Swift 6.1 or newer (https://www.swift.org/install/linux/)" \
    "and add its bin folder to PATH."
}

# libedit-dev gives the REPL its line editing; pkg-config lets SwiftPM find it.
ensure_libedit() {
  if pkg-config --exists libedit 2>/dev/null; then
    return
  fi
  local packages="libedit-dev pkg-config"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "Installing $packages with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || fail "apt-get update failed." \
      "Check the network or the apt sources, then run: apt-get install -y $packages"
    # shellcheck disable=SC2086
    apt-get install -y -qq $packages >/dev/null || fail "apt-get could not install $packages." \
      "Run it by hand to see why: apt-get install -y $packages"
    pkg-config --exists libedit \
      || fail "libedit-dev is installed but pkg-config cannot find libedit." \
      "Check that libedit.pc is under /usr/lib/*/pkgconfig."
  else
    fail "libedit-dev (and pkg-config) are missing; this script installs them only as root." \
      "Run: sudo apt-get install -y $packages" \
      "then run this script again."
  fi
}
