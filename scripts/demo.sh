#!/usr/bin/env bash
# The demo command (`npm run demo`): set up, build, then serve the demo Worker on 127.0.0.1 with
# `wrangler dev` until Ctrl-C, which stops wrangler and its workerd processes together.
source "$(dirname "$0")/setup.sh"

port=${PORT:-8787}
pnpm exec turbo run build --filter=@toolctx/demo... --output-logs=errors-only

# wrangler starts node, esbuild and workerd processes: give them a process group of their own so
# one signal stops them all.
cd apps/demo
setsid pnpm exec wrangler dev --ip 127.0.0.1 --port "$port" --persist-to .wrangler/state \
  --show-interactive-dev-session=false --log-level warn &
group=$!
stop() { kill -TERM -- "-$group" 2>/dev/null || true; wait "$group" 2>/dev/null || true; exit 0; }
trap stop INT TERM HUP

for _ in $(seq 1 120); do
  if node -e "fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "http://127.0.0.1:$port/health"; then
    echo "toolctx demo is running: open http://127.0.0.1:$port (Ctrl-C stops it)"
    break
  fi
  kill -0 "$group" 2>/dev/null || { echo "wrangler dev exited before the demo answered" >&2; exit 1; }
  sleep 0.5
done
wait "$group"
