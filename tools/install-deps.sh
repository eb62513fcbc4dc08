#!/usr/bin/env bash
# Installs the Debian packages fftgen builds with, if any is missing. The CUDA 13 toolkit is
# expected at /usr/local/cuda (it is not a Debian package).
set -euo pipefail
# locales: the locale sources test_locale builds de_DE.UTF-8 from
packages=(cmake make gcc g++ pkg-config liblua5.4-dev libcmocka-dev libfftw3-dev locales)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "fftgen: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "fftgen: the CUDA 13 toolkit is needed at /usr/local/cuda (nvcc, NVRTC, cuFFT)" >&2
    exit 1
fi
