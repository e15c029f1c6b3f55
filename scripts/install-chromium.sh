#!/usr/bin/env bash
# Installs Debian's chromium for the one browser check of the report (Playwright's own browser download is not
# reachable from these machines). Needs root, as on CI; does nothing when chromium is already there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "chromium present: $(chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-chromium: chromium is missing and installing it needs root: apt-get install chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "chromium installed: $(chromium --version)"
