#!/usr/bin/env bash
# The local base image of deploy/'s images, for a machine that reaches Debian's mirror but no image
# registry: Debian bookworm (debootstrap, minbase) with Debian's OpenJDK 17 JRE, security updates
# applied, imported with `docker import`. With a registry you do not need it: the Dockerfiles start
# from public images by default (eclipse-temurin:17-jre, debian:bookworm-slim).
#   deploy/base-image.sh [--tag expresso-base:bookworm-jre17] [--mirror http://deb.debian.org/debian]
# then build with --build-arg BASE_IMAGE=<tag> (deploy/try-compose.sh does). Needs root, debootstrap
# and a running dockerd; rerunning it rebuilds the image (a few minutes, ~100 MB downloaded).
set -euo pipefail

tag=expresso-base:bookworm-jre17
mirror=http://deb.debian.org/debian
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    --mirror) mirror="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "deploy/base-image.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "deploy/base-image.sh: debootstrap needs root" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "deploy/base-image.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
docker info >/dev/null 2>&1 || { echo "deploy/base-image.sh: no Docker engine answers (start dockerd)" >&2; exit 1; }

rootfs=$(mktemp -d /tmp/expresso-base.XXXXXX)
cleanup() {
  for m in proc sys dev/pts dev; do umount -l "$rootfs/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$rootfs"
}
trap cleanup EXIT

start=$(date +%s)
# ca-certificates-java and a JRE whose postinst runs in the chroot; minbase keeps the rest minimal
debootstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates bookworm "$rootfs" "$mirror"

# security and point-release updates, as a public Debian image would carry them
cat > "$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
SOURCES
mount -t proc proc "$rootfs/proc"
chroot "$rootfs" /bin/sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get -y -qq upgrade >/dev/null'
umount "$rootfs/proc"
# what Docker's Debian images drop: package caches and lists (an image's apt-get update refetches
# them), also after every apt-get install in an image built on this one
cat > "$rootfs/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/tmp/* "$rootfs"/var/log/*.log
: > "$rootfs/etc/resolv.conf"   # the engine writes its own at run time

java_home=$(dirname "$(dirname "$(readlink -f "$rootfs/usr/bin/java")")")
java_home=${java_home#"$rootfs"}
tar --numeric-owner -C "$rootfs" -c . | docker import \
  --change "ENV JAVA_HOME=$java_home" \
  --change 'ENV LANG=C.UTF-8' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' \
  --message "debootstrap bookworm (minbase) + openjdk-17-jre-headless from $mirror" \
  - "$tag" >/dev/null
echo "deploy/base-image.sh: $tag built in $(( $(date +%s) - start )) s: $(docker run --rm "$tag" java -version 2>&1 | head -1)"
