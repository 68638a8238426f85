# Shared by board/cross/*: where things live and small helpers. Sourced, not run.
# shellcheck disable=SC2034 # the variables are for the scripts that source this file
#
# Everything the cross toolchain makes is scratch state under $cross (.build-cross in the
# checkout, ignored by git through `.build*`):
#   chroot-sid/              Debian sid amd64 with its swiftlang: the compiler (trixie's 6.0 is
#                            older than Package.swift's 6.1; sid's 6.2 needs sid's glibc, so it
#                            runs in a chroot rather than on this Debian 12 host)
#   runtime-arm64/           sid's swiftlang:arm64 unpacked: the aarch64 swiftmodules and static
#                            runtime, of exactly the chroot's compiler version
#   sysroot-trixie-<arch>/   trixie's target libraries and headers, with a dpkg database
#   sdks/                    the Swift SDK bundles (SE-0387) that `swift build --swift-sdk` reads
#   build-trixie-<arch>/     SwiftPM's scratch path for that SDK; bin-trixie-<arch>/ the binaries
#   debs/<suite>-<arch>/     downloaded .debs, kept so a rebuild does not fetch them again
# Each of the first three is built once per key (its recipe: suite, architecture, packages,
# mirror): a changed key builds it anew; a stamp file beside it records the key it was built for.

# The checkout this script is in, not the caller's directory: board/cross/ is two levels down.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cross=$repo/.build-cross
chroot_dir=$cross/chroot-sid
mirror=${HYZER_CROSS_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# sid's compiler finds its own libraries only with this (without it the driver dies at start).
swift_libs=/usr/libexec/swift/lib/swift/linux
# The target: Debian 13 "trixie" (Raspberry Pi OS today on the board) and its glibc.
target_suite=trixie
target_glibc=2.41

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}
note() { echo "${0##*/}: $*" >&2; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (chroot, mounts, mmdebstrap)"; }

need_commands() { # command...
	local missing=() c
	for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
	[ ${#missing[@]} = 0 ] || die "missing host commands: ${missing[*]} (apt-get install mmdebstrap dpkg-dev binutils-aarch64-linux-gnu)"
}

# Debian's architecture name -> the target triple, GNU multiarch directory, ELF machine.
arch_triple() {
	case $1 in
	arm64) echo aarch64-unknown-linux-gnu ;;
	# Debian's swiftlang is built for x86_64-pc-linux-gnu: its amd64 swiftmodules carry that
	# name (Swift.swiftmodule/x86_64-pc-linux-gnu.swiftmodule), and the compiler looks a
	# module up by the exact target triple. Its arm64 ones are aarch64-unknown-linux-gnu.
	amd64) echo x86_64-pc-linux-gnu ;;
	*) die "unsupported architecture '$1' (arm64 or amd64)" ;;
	esac
}
arch_multiarch() {
	case $1 in
	arm64) echo aarch64-linux-gnu ;;
	amd64) echo x86_64-linux-gnu ;;
	*) die "unsupported architecture '$1' (arm64 or amd64)" ;;
	esac
}

sdk_name() { echo "$target_suite-$1"; } # arch
sysroot_dir() { echo "$cross/sysroot-$target_suite-$1"; }
scratch_dir() { echo "$cross/build-$target_suite-$1"; }
bin_dir() { echo "$cross/bin-$target_suite-$1"; }

# The key of a stage: a hash of its recipe text. Changing any input changes the key.
key_of() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }
stage_current() { # dir key: is dir built for this key?
	[ -d "$1" ] && [ -f "$1.stamp" ] && [ "$(cat "$1.stamp")" = "$2" ]
}

# Refuses to go on if anything is mounted under dir: an rm -rf there would reach into the
# bind-mounted checkout or /opt/swift-packages. board/cross/enter mounts only inside a
# private mount namespace, so this holds unless someone mounted by hand.
no_mounts_under() { # dir
	local dir
	dir=$(realpath -m "$1")
	if awk -v d="$dir/" '{ if (index($2 "/", d) == 1) found = 1 } END { exit !found }' /proc/self/mounts; then
		die "something is mounted under $dir; unmount it first (findmnt -R $dir)"
	fi
}

remove_tree() { # dir: removes a scratch tree under $cross, and only there
	local dir
	dir=$(realpath -m "$1")
	case $dir in "$cross"/?*) ;; *) die "refusing to remove $dir: not under $cross" ;; esac
	[ -e "$dir" ] || return 0
	no_mounts_under "$dir"
	rm -rf --one-file-system "$dir"
}
