#!/bin/sh
# Fetches LLVM 19's target descriptions (llvm/lib/Target and llvm/include/llvm)
# from Debian's `llvm-toolchain-19` source package, for the opt-in conformance
# run `bench/llvm_targets/run`. See bench/llvm_targets/README.md.
#
# Usage: bench/llvm_targets/fetch.sh [DIR]     (default: bench/out/llvm-src)
#
# Nothing on the system is changed: apt reads a private deb-src list and keeps
# its indexes under DIR/apt; the system's sources.list stays as it is. The
# version fetched is the installed llvm-19's (the llvm-tblgen-19 the run
# compares with), so both tools read the text that tool was built from
# (Debian's patches are not applied: none changes what the comparison reads,
# and both tools read the same files either way). Idempotent: an unpacked
# tree is kept.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../out/llvm-src}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

version=$(dpkg-query -W -f '${Version}' llvm-19 2>/dev/null || true)
if [ -z "$version" ]; then
    echo "fetch.sh: llvm-19 is not installed (apt-get install -y llvm-19); its version picks the source" >&2
    exit 2
fi
upstream=${version#*:}
upstream=${upstream%%-*}
tree=$dir/llvm-toolchain-19_$upstream
if [ -f "$tree/llvm/include/llvm/Target/Target.td" ] && [ -d "$tree/llvm/lib/Target" ]; then
    echo "$tree"
    exit 0
fi

# A deb-src line for the installed release (bookworm, trixie, ...).
. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
apt_dir=$dir/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
echo "deb-src http://deb.debian.org/debian $suite main" > "$apt_dir/sources.list"
for s in "$suite-updates" "$suite-backports"; do
    echo "deb-src http://deb.debian.org/debian $s main" >> "$apt_dir/sources.list"
done
apt_options="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null
 -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache"
# shellcheck disable=SC2086
apt-get -q $apt_options update >&2
cd "$dir"
# apt checks the files against the signed Sources index.
# shellcheck disable=SC2086
apt-get -q $apt_options source --download-only "llvm-toolchain-19=$version" >&2

orig=$dir/llvm-toolchain-19_$upstream.orig.tar.xz
[ -f "$orig" ] || { echo "fetch.sh: $orig not downloaded" >&2; exit 1; }
# Only what TableGen reads: the targets and LLVM's own .td includes.
tar -xJf "$orig" -C "$dir" --wildcards '*/llvm/lib/Target/*' '*/llvm/include/llvm/*'
echo "$tree"
