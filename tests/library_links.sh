#!/usr/bin/env bash
# libfftgen as a user links it (README, "Using the library"): the README's example, whole
# (tests/readme_example.c), compiled with the C compiler against this build folder through pkg-config;
# then the build installed (cmake --install) into a scratch prefix, and the example built against the
# installed copy through pkg-config and through CMake's find_package(fftgen). Every program must link
# and run: its round trip passes on a GPU, and where there is none it says so and exits 77.
# Usage: tests/library_links.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
example=$source/tests/readme_example.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}

run() { # DESCRIPTION PROGRAM
    local status=0
    "$2" || status=$?
    case $status in
        0 | 77) echo "ok: $1 (exit status $status)" ;;
        *) echo "FAILED: $1: exit status $status" >&2; exit 1 ;;
    esac
}

compile_with_pkg_config() { # PKG_CONFIG_DIR OUTPUT
    local flags
    flags=$(PKG_CONFIG_PATH=$1 pkg-config --cflags --libs fftgen)
    # shellcheck disable=SC2086  # the flags are words
    "$cc" -std=c11 -Wall -Wextra -Werror -o "$2" "$example" $flags
}

echo "== the build folder, through pkg-config ($build/fftgen.pc)"
compile_with_pkg_config "$build" "$work/from_build"
run "linked against $build/libfftgen.a" "$work/from_build"

echo "== installed: cmake --install into a scratch prefix"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
for file in bin/fftgen bin/fftgen-tune include/fftgen.h; do
    [ -e "$work/prefix/$file" ] || { echo "FAILED: cmake --install left out $file" >&2; exit 1; }
done
"$work/prefix/bin/fftgen" --n 4096 --explain >/dev/null
pc=$(find "$work/prefix" -name fftgen.pc)
[ -n "$pc" ] || { echo "FAILED: cmake --install left out fftgen.pc" >&2; exit 1; }
compile_with_pkg_config "$(dirname "$pc")" "$work/from_install"
run "linked against the installed library through pkg-config" "$work/from_install"

echo "== installed, through CMake: find_package(fftgen), target fftgen::fftgen"
mkdir "$work/consumer"
cp "$example" "$work/consumer/"
cat >"$work/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(readme_example C)
find_package(fftgen 0.1 REQUIRED)
add_executable(readme_example readme_example.c)
target_link_libraries(readme_example PRIVATE fftgen::fftgen)
CMAKE
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log" ||
    { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/consumer/build" >"$work/build.log" || { cat "$work/build.log" >&2; exit 1; }
run "linked through find_package(fftgen)" "$work/consumer/build/readme_example"
