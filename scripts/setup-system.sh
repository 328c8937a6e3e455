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
  # the WikDict dictionaries scripts/build_multilingual.py reads (tests regenerate its output)
  [/usr/share/dictd/freedict-ell-eng.index]=dict-freedict-ell-eng
  [/usr/share/dictd/freedict-eng-bul.index]=dict-freedict-eng-bul
  [/usr/share/dictd/freedict-eng-fin.index]=dict-freedict-eng-fin
  [/usr/share/dictd/freedict-eng-ind.index]=dict-freedict-eng-ind
  [/usr/share/dictd/freedict-eng-jpn.index]=dict-freedict-eng-jpn
  [/usr/share/dictd/freedict-eng-nor.index]=dict-freedict-eng-nor
  [/usr/share/dictd/freedict-fin-deu.index]=dict-freedict-fin-deu
  [/usr/share/dictd/freedict-fin-eng.index]=dict-freedict-fin-eng
  [/usr/share/dictd/freedict-fin-fra.index]=dict-freedict-fin-fra
  [/usr/share/dictd/freedict-fin-ita.index]=dict-freedict-fin-ita
  [/usr/share/dictd/freedict-fin-nld.index]=dict-freedict-fin-nld
  [/usr/share/dictd/freedict-fin-por.index]=dict-freedict-fin-por
  [/usr/share/dictd/freedict-fin-swe.index]=dict-freedict-fin-swe
  [/usr/share/dictd/freedict-pol-deu.index]=dict-freedict-pol-deu
  [/usr/share/dictd/freedict-pol-eng.index]=dict-freedict-pol-eng
  [/usr/share/dictd/freedict-pol-fra.index]=dict-freedict-pol-fra
  [/usr/share/dictd/freedict-pol-ita.index]=dict-freedict-pol-ita
  [/usr/share/dictd/freedict-pol-nld.index]=dict-freedict-pol-nld
  [/usr/share/dictd/freedict-pol-por.index]=dict-freedict-pol-por
  [/usr/share/dictd/freedict-pol-rus.index]=dict-freedict-pol-rus
  [/usr/share/dictd/freedict-pol-spa.index]=dict-freedict-pol-spa
  [/usr/share/dictd/freedict-pol-swe.index]=dict-freedict-pol-swe
  [/usr/share/dictd/freedict-pol-tur.index]=dict-freedict-pol-tur
  [/usr/share/dictd/freedict-deu-ell.index]=dict-freedict-deu-ell
  [/usr/share/dictd/freedict-ell-fra.index]=dict-freedict-ell-fra
  [/usr/share/dictd/freedict-ell-ita.index]=dict-freedict-ell-ita
  [/usr/share/dictd/freedict-ell-lit.index]=dict-freedict-ell-lit
  [/usr/share/dictd/freedict-ell-nld.index]=dict-freedict-ell-nld
  [/usr/share/dictd/freedict-ell-por.index]=dict-freedict-ell-por
  [/usr/share/dictd/freedict-ell-rus.index]=dict-freedict-ell-rus
  [/usr/share/dictd/freedict-ell-spa.index]=dict-freedict-ell-spa
  [/usr/share/dictd/freedict-ell-swe.index]=dict-freedict-ell-swe
  [/usr/share/dictd/freedict-fin-lit.index]=dict-freedict-fin-lit
  # the older FreeDict dictionaries (GPL) it reads for nine more languages
  [/usr/share/dictd/freedict-eng-afr.index]=dict-freedict-eng-afr
  [/usr/share/dictd/freedict-afr-eng.index]=dict-freedict-afr-eng
  [/usr/share/dictd/freedict-eng-ara.index]=dict-freedict-eng-ara
  [/usr/share/dictd/freedict-ara-eng.index]=dict-freedict-ara-eng
  [/usr/share/dictd/freedict-eng-ces.index]=dict-freedict-eng-ces
  [/usr/share/dictd/freedict-ces-eng.index]=dict-freedict-ces-eng
  [/usr/share/dictd/freedict-eng-cym.index]=dict-freedict-eng-cym
  [/usr/share/dictd/freedict-cym-eng.index]=dict-freedict-cym-eng
  [/usr/share/dictd/freedict-eng-dan.index]=dict-freedict-eng-dan
  [/usr/share/dictd/freedict-dan-eng.index]=dict-freedict-dan-eng
  [/usr/share/dictd/freedict-eng-hrv.index]=dict-freedict-eng-hrv
  [/usr/share/dictd/freedict-hrv-eng.index]=dict-freedict-hrv-eng
  [/usr/share/dictd/freedict-eng-hun.index]=dict-freedict-eng-hun
  [/usr/share/dictd/freedict-hun-eng.index]=dict-freedict-hun-eng
  [/usr/share/dictd/freedict-isl-eng.index]=dict-freedict-isl-eng
  [/usr/share/dictd/freedict-slv-eng.index]=dict-freedict-slv-eng
  # and those whose words it adds to eight WikDict languages (GPL)
  [/usr/share/dictd/freedict-eng-deu.index]=dict-freedict-eng-deu
  [/usr/share/dictd/freedict-deu-eng.index]=dict-freedict-deu-eng
  [/usr/share/dictd/freedict-eng-fra.index]=dict-freedict-eng-fra
  [/usr/share/dictd/freedict-fra-eng.index]=dict-freedict-fra-eng
  [/usr/share/dictd/freedict-eng-spa.index]=dict-freedict-eng-spa
  [/usr/share/dictd/freedict-spa-eng.index]=dict-freedict-spa-eng
  [/usr/share/dictd/freedict-eng-ita.index]=dict-freedict-eng-ita
  [/usr/share/dictd/freedict-ita-eng.index]=dict-freedict-ita-eng
  [/usr/share/dictd/freedict-eng-por.index]=dict-freedict-eng-por
  [/usr/share/dictd/freedict-por-eng.index]=dict-freedict-por-eng
  [/usr/share/dictd/freedict-eng-nld.index]=dict-freedict-eng-nld
  [/usr/share/dictd/freedict-nld-eng.index]=dict-freedict-nld-eng
  [/usr/share/dictd/freedict-eng-swe.index]=dict-freedict-eng-swe
  [/usr/share/dictd/freedict-swe-eng.index]=dict-freedict-swe-eng
  [/usr/share/dictd/freedict-eng-rus.index]=dict-freedict-eng-rus
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
