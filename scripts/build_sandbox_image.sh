#!/usr/bin/env bash
# Build the docker backend's image, bootcamp-synth-sandbox:<tag>, without any docker registry.
#
# A Debian bookworm rootfs is made with `debootstrap --variant=minbase` (python3 and its standard
# library, and gnugo, the GTP engine that bootcamps may declare -- synth/engines.py -- nothing
# else) from the Debian mirror apt is already configured with, stripped of docs
# and caches, then imported with `docker import`. The tag is the first 12 hex digits of this
# script's sha256, so editing the script yields a new image; synth/sandbox/docker.py computes
# the same tag. Idempotent: exits at once when the tag exists (use --force to rebuild).
#
# Usage: scripts/build_sandbox_image.sh [--force] [--print-tag]
# Env:   SANDBOX_MIRROR (default: the bookworm URI of /etc/apt/sources.list*), SANDBOX_SUITE.
set -euo pipefail

REPO_NAME=bootcamp-synth-sandbox
SUITE="${SANDBOX_SUITE:-bookworm}"
SCRIPT_PATH="$(readlink -f "${BASH_SOURCE[0]}")"
TAG="$(sha256sum "$SCRIPT_PATH" | cut -c1-12)"
IMAGE="$REPO_NAME:$TAG"

fail() { echo "build_sandbox_image: FAILED: $*" >&2; exit 1; }

force=0
for arg in "$@"; do
    case "$arg" in
        --print-tag) echo "$IMAGE"; exit 0 ;;
        --force) force=1 ;;
        *) fail "unknown argument $arg (usage: $0 [--force] [--print-tag])" ;;
    esac
done

docker info >/dev/null 2>&1 || fail "no Docker engine answers; run scripts/docker_engine.sh first"
if [ "$force" -eq 0 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
    size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
    echo "build_sandbox_image: $IMAGE exists ($(( size / 1024 / 1024 )) MB), skipped"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || fail "debootstrap needs root"

# The Debian mirror apt already uses (deb822 .sources first, then one-line .list format).
find_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v suite="$SUITE" '
            BEGIN { RS = ""; FS = "\n" }
            {
                uri = ""; ok = 0
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); uri = a[2] }
                    if ($i ~ /^Suites:/ && (" " $i " ") ~ (" " suite " ")) ok = 1
                }
                if (ok && uri != "") { print uri; exit }
            }' "$f"
    done
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
        | awk -v suite="$SUITE" '$1 == "deb" && $0 ~ (" " suite " ") {
              for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' || true
}
MIRROR="${SANDBOX_MIRROR:-$(find_mirror | head -n 1 || true)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"

if ! command -v debootstrap >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
        --no-install-recommends debootstrap >/dev/null || fail "apt-get install debootstrap failed"
fi

WORK="$(mktemp -d /var/tmp/bootcamp-synth-rootfs.XXXXXX)"
ROOTFS="$WORK/rootfs"
cleanup() {
    # Never recurse into a mount left behind by an interrupted debootstrap.
    local m
    for m in $(findmnt -rn -o TARGET | grep -F "$ROOTFS" | sort -r); do umount -l "$m" || true; done
    rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

start=$(date +%s)
echo "build_sandbox_image: debootstrap $SUITE from $MIRROR (log $WORK/debootstrap.log)"
debootstrap --variant=minbase --include=python3,gnugo --exclude=e2fsprogs \
    "$SUITE" "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -n 20 "$WORK/debootstrap.log" >&2; fail "debootstrap failed"; }

# The stdlib must work as the sandbox uses it (no site, no bytecode writes, read-only root).
STDLIB_CHECK='import json, re, random, math, fractions, itertools, collections, hashlib, decimal'
chroot "$ROOTFS" /usr/bin/python3 -s -S -B -c "$STDLIB_CHECK, ctypes, sqlite3, zlib, resource" \
    || fail "python3 in the rootfs cannot import its standard library"
# The declared engines must answer GTP (synth/engines.py starts them by these paths).
gtp_answer="$(printf 'version\nquit\n' | chroot "$ROOTFS" /usr/games/gnugo --mode gtp --quiet 2>&1)" \
    || fail "gnugo in the rootfs does not start: $gtp_answer"
case "$gtp_answer" in "= 3."*) ;; *) fail "gnugo in the rootfs does not answer GTP: $gtp_answer" ;; esac
# Precompile everything (the image is read-only, so pycs cannot be written later).
chroot "$ROOTFS" /usr/bin/python3 -m compileall -q -j 0 /usr/lib/python3.11 >/dev/null 2>&1 || true

# Strip what a sandbox never needs.
rm -rf "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* \
    "$ROOTFS"/usr/share/locale/* "$ROOTFS"/usr/share/lintian "$ROOTFS"/usr/share/common-licenses \
    "$ROOTFS"/var/cache/apt/* "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/debconf/*-old \
    "$ROOTFS"/var/log/* "$ROOTFS"/usr/lib/python3.11/test "$ROOTFS"/usr/lib/python3.11/idlelib \
    "$ROOTFS"/usr/lib/python3.11/ensurepip "$ROOTFS"/usr/lib/python3.11/lib2to3/tests \
    "$ROOTFS"/tmp/* "$ROOTFS"/root/.cache
# The unprivileged user the containers run as (base-passwd ships it; make sure).
grep -q '^nobody:x:65534:65534:' "$ROOTFS/etc/passwd" \
    || fail "rootfs has no nobody user with uid/gid 65534"
chmod 1777 "$ROOTFS/tmp"
# No setuid/setgid programs (no-new-privileges already neuters them; this is belt and braces).
find "$ROOTFS" -xdev -type f -perm /6000 -exec chmod ug-s {} +

tar --numeric-owner -C "$ROOTFS" -c . | docker import \
    --change 'USER 65534:65534' \
    --change 'WORKDIR /tmp' \
    --change 'ENV PATH=/usr/bin:/bin LANG=C.UTF-8' \
    --change "LABEL bootcamp-synth.image=$TAG" \
    --change 'CMD ["/usr/bin/python3", "-s", "-S", "-B", "-c", "import signal; signal.pause()"]' \
    - "$IMAGE" >/dev/null || fail "docker import failed"

# Older builds of this script are dead weight (kept only while a container still uses one).
docker images --format '{{.Repository}}:{{.Tag}}' "$REPO_NAME" | grep -vxF "$IMAGE" \
    | xargs -r docker rmi >/dev/null 2>&1 || true

elapsed=$(( $(date +%s) - start ))
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
echo "build_sandbox_image: built $IMAGE in ${elapsed}s, $(( size / 1024 / 1024 )) MB"
