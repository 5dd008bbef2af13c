#!/usr/bin/env bash
# The test command (`npm test`): set up, then builds, type checks, lint, the layering check
# (dependency-cruiser), publint, the API reports (scripts/api-report.mjs) and every test in Node,
# workerd and headless Chromium, through turbo. Runs every task even after one fails, and exits
# non-zero if any did.
source "$(dirname "$0")/setup.sh"

if [ ! -x /usr/bin/chromium ]; then
  echo "› installing Debian's chromium for the browser tests"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

turbo() { pnpm exec turbo run "$@" --output-logs=errors-only --continue; }

# The builds first: every task below needs them, and then the two queues below share nothing.
turbo build "$@"

# Two queues, one per core. The integration suite (test/: wrangler dev, Chromium, the packed
# tarballs; about 12 minutes) is the long pole, so it starts at once on its own; everything else
# takes turns on the other. One turbo run with --concurrency=2 started it only after three minutes
# of other tasks, since turbo runs ready tasks in no order it can be told.
turbo test --filter=@toolctx/tests --concurrency=1 "$@" &
integration=$!
status=0
turbo lint depcheck typecheck publint api:check docs --concurrency=1 "$@" || status=$?
turbo test --filter='!@toolctx/tests' --concurrency=1 "$@" || status=$?
wait "$integration" || status=$?
exit "$status"
