# Sourced by test.sh and demo.sh: brings a machine that has only Node and npm to where the project
# runs — the pinned pnpm, then the dependencies exactly as the lockfile says.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export TURBO_TELEMETRY_DISABLED=1 WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
# npm passes its own settings down as npm_config_*; pnpm would read them as its own.
while IFS= read -r name; do unset "$name"; done < <(env | grep -o '^npm_config_[^=]*' || true)

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "› installing pnpm $pnpm_version"
  npm install --global --silent --no-audit --no-fund --exact "pnpm@$pnpm_version"
fi

echo "› installing dependencies from pnpm-lock.yaml"
pnpm install --frozen-lockfile --reporter=silent
