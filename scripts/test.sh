#!/usr/bin/env bash
# The test command (`npm test`): set up, then type checks, lint, the layering check
# (dependency-cruiser), builds, publint, the API reports (scripts/api-report.mjs) and every test
# in Node, workerd and headless Chromium, through turbo. Exits non-zero if anything fails.
source "$(dirname "$0")/setup.sh"

if [ ! -x /usr/bin/chromium ]; then
  echo "› installing Debian's chromium for the browser tests"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

pnpm exec turbo run lint depcheck typecheck build publint api:check test docs --output-logs=errors-only --continue --concurrency=2 "$@"
