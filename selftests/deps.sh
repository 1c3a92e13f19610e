#!/bin/bash
# Install the Debian packages hybridnet needs to build and test, if missing.
# Needs root (apt-get); prints what it would do otherwise.
#
#   deps.sh [--stamp FILE]
#
# --stamp FILE: write FILE (a makefile of comments) when it is missing or
# when packages were installed, and leave it alone otherwise: make's
# deps gate (Makefile, HN_DEPS_GOALS) includes it, and starts again when
# it changed.
set -euo pipefail

stamp=""
[ "${1:-}" != --stamp ] || stamp=${2:?deps.sh: --stamp needs a FILE}

pkgs=(build-essential linux-source-6.1 linux-headers-amd64 linux-image-amd64
      qemu-system-x86 busybox-static cpio kmod libnl-3-dev libnl-genl-3-dev
      gnuplot-nox python3 python3-yaml iproute2	# iproute2: make check-vm-run
      iperf3	# netdev-traffic-vm.sh, make bench-netdev, make results-tcp
      tcpdump	# capture-vm.sh; docs/netdev.md "Capturing"
      tshark	# make check-install: the Wireshark dissector decodes a capture
      iputils-ping ethtool	# docs/netdev.md's examples (make check-docs)
      python3-markdown-it	# make check-docs reads the Markdown
      debootstrap	# make check-fresh
      dkms mandoc man-db pkgconf bash-completion	# make check-install, -man, -dkms
      sparse	# make check-style
      libelf-dev flex bison bc)	# the last four: the debug kernel
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	[ -z "$stamp" ] || [ -e "$stamp" ] ||
		echo "# selftests/deps.sh: every package was there" >"$stamp"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing ${missing[*]}; run 'make deps' as root" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ -z "$stamp" ] || echo "# selftests/deps.sh installed ${missing[*]}" >"$stamp"
