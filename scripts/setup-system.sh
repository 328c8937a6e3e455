#!/usr/bin/env bash
# The system programs the test suite needs (Debian package names). `make test` runs this first:
# as root with apt-get it installs what is missing; otherwise it stops at once with the one
# command to run, so a run never ends in a wall of errors or a silent skip.
set -euo pipefail
# program on PATH (or file) -> Debian package
declare -A NEED=(
  [bwrap]=bubblewrap
  [strace]=strace
  [chromium]=chromium
  [node]=nodejs
  [npm]=npm
  [/usr/share/wordnet/data.noun]=wordnet-base
  [/usr/share/publicsuffix/public_suffix_list.dat]=publicsuffix
)
missing=()
for prog in "${!NEED[@]}"; do
  if [[ $prog == /* ]]; then
    [ -e "$prog" ] || missing+=("${NEED[$prog]}")
  else
    command -v "$prog" >/dev/null 2>&1 || missing+=("${NEED[$prog]}")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages the tests need: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "the tests need these system packages, which are not installed: ${missing[*]}" >&2
echo "install them with:" >&2
echo "    sudo apt-get install -y ${missing[*]}" >&2
echo "(or run 'make unit' to run the tests without them; lab, sandbox and browser tests then skip)" >&2
exit 1
