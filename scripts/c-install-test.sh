#!/usr/bin/env bash
# Installs libdtb with `make -C capi install` into a temporary prefix and
# builds programs against the installed files alone, as a user of the C
# library does: examples/c/dtbprobe.c through pkg-config, as C99 with
# -pedantic and linked with libdtb.a, and capi/testdata/cxx.cc with g++
# (dtb.h as C++); runs each on the golden tables (testdata/golden); and
# checks that libdtb.so.N has the SONAME libdtb.so.N, N the header's
# DTB_ABI_VERSION, and exports the calls of dtb.h alone. Needs go, make,
# cc, g++, pkg-config and binutils (readelf, nm); capi's TestInstall runs
# it (go test ./capi). Prints one line and exits 0 when all pass.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() {
	echo "c-install-test: $*" >&2
	exit 1
}

make -s -C "$repo/capi" install PREFIX="$prefix" BUILD="$work/build"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
libdir=$(pkg-config --variable=libdir dtb)
abi=$(sed -n 's/^#define DTB_ABI_VERSION \([0-9]*\)$/\1/p' "$prefix/include/dtb.h")
[[ -n $abi ]] || fail "no DTB_ABI_VERSION in the installed dtb.h"
for f in "include/dtb.h" "lib/libdtb.so.$abi" "lib/libdtb.so" "lib/libdtb.a" "lib/pkgconfig/dtb.pc"; do
	[[ -e $prefix/$f ]] || fail "make install did not install $f"
done
[[ $(readlink "$libdir/libdtb.so") == "libdtb.so.$abi" ]] || fail "lib/libdtb.so does not link to libdtb.so.$abi"
# The Go-generated headers (libdtb.h) stay out of the prefix.
[[ $(ls "$prefix/include") == dtb.h ]] || fail "include holds more than dtb.h: $(ls "$prefix/include")"
readelf -d "$libdir/libdtb.so.$abi" | grep -q "(SONAME).*\[libdtb.so.$abi\]" ||
	fail "libdtb.so.$abi has no SONAME libdtb.so.$abi: $(readelf -d "$libdir/libdtb.so.$abi" | grep SONAME)"
others=$(nm -D --defined-only "$libdir/libdtb.so.$abi" | awk '$3 !~ /^dtb_/ { print $3 }')
[[ -z $others ]] || fail "libdtb.so.$abi exports more than the dtb_ calls: $(echo $others)"

# Each program, built its way, answers a probe of the golden tables.
cd "$work"
flags=(-O2 -Wall -Wextra -Werror -pthread)
read -r -a cflags <<<"$(pkg-config --cflags dtb)"
read -r -a libs <<<"$(pkg-config --libs dtb)"
want="W:WK10:BK5  win  rules win  theoretical win  distance 3  dtw 3  mtc -1"
cc "${flags[@]}" "$repo/examples/c/dtbprobe.c" "${cflags[@]}" "${libs[@]}" -Wl,-rpath,"$libdir" -o dtbprobe
cc "${flags[@]}" -std=c99 -pedantic "$repo/examples/c/dtbprobe.c" "${cflags[@]}" "${libs[@]}" -Wl,-rpath,"$libdir" -o dtbprobe-c99
cc "${flags[@]}" "$repo/examples/c/dtbprobe.c" "${cflags[@]}" "$libdir/libdtb.a" -o dtbprobe-static
for prog in dtbprobe dtbprobe-c99 dtbprobe-static; do
	got=$("./$prog" "$repo/testdata/golden" W:WK10:BK5) || fail "$prog failed"
	[[ $got == "$want" ]] || fail "$prog printed \"$got\", want \"$want\""
done
if ldd dtbprobe-static | grep -q libdtb; then
	fail "dtbprobe-static loads libdtb.so"
fi
g++ -O2 -Wall -Wextra -Werror -pedantic -std=c++11 "$repo/capi/testdata/cxx.cc" "${cflags[@]}" "${libs[@]}" -Wl,-rpath,"$libdir" -o cxx
got=$(./cxx "$repo/testdata/golden" W:WK10:BK5)
want="dtb v$(pkg-config --modversion dtb) abi $abi
W:WK10:BK5 rules 1 distance 3"
[[ $got == "$want" ]] || fail "cxx printed \"$got\", want \"$want\""
echo "c-install-test: ok: libdtb.so.$abi, libdtb.a, dtb.h and dtb.pc $(pkg-config --modversion dtb) under a prefix; C, C99, static and C++ programs probe"
