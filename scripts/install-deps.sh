#!/usr/bin/env bash
# Installs the Debian packages Ecodex needs, only those missing. Safe to re-run.
# Libraries: Tesseract, Leptonica, ZBar, SQLite, zlib (-dev packages, linked as system libraries),
# libheif (HEIC/HEIF/AVIF photos, an iPhone's default; with libde265 and dav1d for decoding).
# Language data: English, German, French, Spanish, Italian, Dutch, and the Latin-script
# model (whole phone photos are read with it).
# Tools used by tests and benchmarks: tesseract CLI (baseline), zbarimg, zint
# (barcode test images), ImageMagick (sample rendering), time, Chromium
# (renders the HTML report headless in tests), Python with venv (the Dask driver's test
# installs scripts/distributed/requirements.txt into .venv-distributed/) and jsonschema (the
# JSON contract tests validate every output against docs/schema/ with it), PostgreSQL (the
# update server's tests start their own cluster) and wrk (scripts/server-load-test.sh).
set -euo pipefail

packages=(
  libtesseract-dev libleptonica-dev libzbar-dev libsqlite3-dev zlib1g-dev libheif-dev pkg-config
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra
  tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-nld tesseract-ocr-script-latn
  zbar-tools zint imagemagick fonts-dejavu-core fonts-dejavu-extra fonts-urw-base35
  time chromium strace
  python3 python3-venv python3-jsonschema
  postgresql wrk
)

# --all-languages: also Tesseract's data for every other EU official language and Norwegian,
# so `--lang pol`, `--lang ces+slk`, ... read those labels (the default install stays small).
if [ "${1:-}" = "--all-languages" ]; then
  for l in bul ces dan ell est fin gle hrv hun lav lit mlt nor pol por ron slk slv swe; do
    packages+=("tesseract-ocr-$l")
  done
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
