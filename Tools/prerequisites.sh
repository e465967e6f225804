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

# zlib's headers: the HTML page of a recording carries its records gzip-compressed. Swift's own
# Linux prerequisites include them, so this installs only on a machine set up otherwise.
ensure_zlib() {
  if pkg-config --exists zlib 2>/dev/null; then
    return
  fi
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "Installing zlib1g-dev with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq zlib1g-dev pkg-config >/dev/null \
      || fail "apt-get could not install zlib1g-dev." "Run it by hand to see why: apt-get install -y zlib1g-dev"
  else
    fail "zlib1g-dev is missing; this script installs it only as root." \
      "Run: sudo apt-get install -y zlib1g-dev" "then run this script again."
  fi
}

# xmllint (libxml2-utils): the tests of `replay check --junit` validate its report against the
# JUnit schema with it.
ensure_xmllint() {
  if command -v xmllint >/dev/null 2>&1; then
    return
  fi
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "Installing libxml2-utils with apt-get (xmllint, for the JUnit report's tests)"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq >/dev/null && apt-get install -y -qq libxml2-utils >/dev/null; } \
      || fail "apt-get could not install libxml2-utils." \
      "Run it by hand to see why: apt-get install -y libxml2-utils"
  else
    fail "xmllint (libxml2-utils) is missing; this script installs it only as root." \
      "Run: sudo apt-get install -y libxml2-utils" "then run this script again."
  fi
}

# Headless Chromium and Playwright for Python: the tests of `replay html` open its page in a real
# browser. Without them those tests are skipped and say why, except on CI, where they must run.
ensure_browser() {
  local missing=""
  if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
      step "Installing chromium with apt-get (for the HTML page tests)"
      export DEBIAN_FRONTEND=noninteractive
      { apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null; } \
        || missing="chromium (apt-get install -y chromium)"
    else
      missing="chromium (sudo apt-get install -y chromium)"
    fi
  fi
  if ! python3 -c "import playwright.sync_api" >/dev/null 2>&1; then
    step "Installing Playwright for Python with pip (for the HTML page tests; it drives the system's chromium, no browser download)"
    python3 -m pip install -q playwright >/dev/null 2>&1 \
      || python3 -m pip install -q --user playwright >/dev/null 2>&1 \
      || python3 -m pip install -q --break-system-packages playwright >/dev/null 2>&1 \
      || missing="${missing:+$missing and }Playwright (python3 -m pip install playwright)"
  fi
  if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
      fail "The HTML page tests need $missing, which could not be installed." \
        "Install it, then run this script again."
    fi
    printf '%swarning:%s the HTML page tests will be skipped: %s is missing.\n' "$bold" "$reset" "$missing" >&2
  fi
}

