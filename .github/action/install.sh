#!/usr/bin/env bash
# The "Install docdrift" step of the GitHub Action (action.yml): builds docdrift from the action's
# checkout and installs it the way npm users get it, so the Action runs the very bundle the npm
# package ships (package.json `bin`, dist/cli/docdrift.js) with only the package's runtime
# dependencies beside it:
#   1. npm ci in the action's directory: the build needs development dependencies (tsc, rolldown);
#      --ignore-scripts, since `npm pack` below builds through no script (the build runs here);
#   2. npm run build, then npm pack into a scratch folder;
#   3. npm install of that tarball into its own folder (no lockfile: the runtime dependencies
#      resolve within their caret ranges, as in a user's project).
# Writes the installed bin's path as the step output `bin` (read by run.sh as DOCDRIFT_BIN).
#
# Environment: GITHUB_ACTION_PATH (the action's checkout; default: this script's repository),
# RUNNER_TEMP (scratch space; default: a new temporary directory), GITHUB_OUTPUT (optional).
# Exit code: npm's, when a step fails; 0 otherwise.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
action_path="${GITHUB_ACTION_PATH:-$(cd "$here/../.." && pwd)}"
scratch="${RUNNER_TEMP:-$(mktemp -d)}/docdrift-action"
rm -rf "$scratch"
mkdir -p "$scratch/pack" "$scratch/install"
npm_flags=(--no-audit --no-fund --prefer-offline --loglevel=error)

cd "$action_path"
npm ci --ignore-scripts "${npm_flags[@]}"
npm run build --silent
tarball="$(npm pack --ignore-scripts --silent --pack-destination "$scratch/pack")"
cd "$scratch/install"
echo '{ "name": "docdrift-action-install", "private": true }' > package.json
npm install "${npm_flags[@]}" "$scratch/pack/$tarball"
bin="$scratch/install/node_modules/docdrift/dist/cli/docdrift.js"
test -f "$bin"
echo "docdrift $(node "$bin" --version) installed from $tarball"
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  echo "bin=$bin" >> "$GITHUB_OUTPUT"
fi
