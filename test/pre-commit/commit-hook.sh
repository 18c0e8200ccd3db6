#!/usr/bin/env bash
# Installs this checkout's `docdrift` pre-commit hook into a fresh git repository and commits to it:
# a drifting README must be refused with the finding, a clean one accepted, and a file that is
# not staged must not be reported (the hook scopes docdrift to the staged paths), while a staged
# code change reports the docs it makes stale.
#
# Usage: test/pre-commit/commit-hook.sh WORKDIR   (WORKDIR: an empty scratch directory)
# Needs: git, node, npm, pre-commit on PATH. Exit 0 when every step behaved; otherwise the first
# failing step is printed on stderr and the exit code is 1.
set -euo pipefail

checkout="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(cd "$1" && pwd)"
hookrepo="$work/hook-repo"
project="$work/project"
export PRE_COMMIT_HOME="$work/pre-commit-home"   # a fresh hook environment, never the user's cache
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
unset NO_COLOR

fail() { echo "commit-hook.sh: $*" >&2; exit 1; }
step() { echo "== $*"; }

# 1. The hook repository: a commit of this checkout's working tree (tracked and new files, not
#    ignored ones), so the test covers uncommitted work. pre-commit clones it at that commit.
step "snapshot of $checkout"
mkdir -p "$hookrepo"
(cd "$checkout" && git ls-files -z --cached --others --exclude-standard) |
  tar -C "$checkout" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$hookrepo" -xf -
git -C "$hookrepo" init -q
git -C "$hookrepo" add -A
git -C "$hookrepo" commit -qm snapshot
rev="$(git -C "$hookrepo" rev-parse HEAD)"

# 2. A tiny Python project documented in a reference page and a README.
step "project in $project"
mkdir -p "$project/tool" "$project/docs"
cd "$project"
git init -q
cat > pyproject.toml <<'TOML'
[project]
name = "tool"
version = "1.0.0"

[project.scripts]
tool = "tool.main:main"
TOML
: > tool/__init__.py
cat > tool/main.py <<'PY'
from pydantic import BaseModel, Field


class ToolConfig(BaseModel):
    epochs: int = Field(default=10, description="Passes over the data.")
    seed: int = Field(default=0, description="Random seed.")


def main() -> None:
    ToolConfig.model_validate({})
PY
cat > docs/reference.md <<'MD'
# Reference

### `tool`

| Parameter | Type | Default | Description |
| --- | --- | --- | --- |
| `epochs` | int | `10` | Passes over the data. |
| `seed` | int | `0` | Random seed. |
MD
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hookrepo
    rev: $rev
    hooks:
      - id: docdrift
YAML
pre-commit install >/dev/null

readme() {
  printf '# tool\n\n```bash\ntool +epochs=3 %s\n```\n\nParameters: [reference](docs/reference.md#tool).\n' "$1" > README.md
}

# 3. A README example with a misspelled parameter: the commit is refused with the finding.
step "commit a drifting README (the hook environment is installed now)"
readme "+sede=1"
git add -A
start=$SECONDS
if git commit -qm "drifting README" > "$work/drift.log" 2>&1; then
  cat "$work/drift.log" >&2
  fail "the commit with a drifting README was accepted"
fi
echo "   refused after $((SECONDS - start)) s (hook install + run)"
grep -q 'example-param-unknown' "$work/drift.log" || { cat "$work/drift.log" >&2; fail "no example-param-unknown finding in the hook output"; }
grep -q 'README.md' "$work/drift.log" || { cat "$work/drift.log" >&2; fail "the finding does not name README.md"; }
grep -q 'sede' "$work/drift.log" || { cat "$work/drift.log" >&2; fail "the finding does not name the misspelled parameter sede"; }
git rev-parse -q --verify HEAD >/dev/null && fail "a commit was created despite the failing hook"

# 4. The corrected README commits.
step "commit the corrected README"
readme "+seed=1"
git add -A
start=$SECONDS
git commit -qm "clean README" > "$work/clean.log" 2>&1 || { cat "$work/clean.log" >&2; fail "the clean commit was refused"; }
echo "   accepted after $((SECONDS - start)) s"
grep -q 'docdrift.*Passed' "$work/clean.log" || { cat "$work/clean.log" >&2; fail "the hook did not report Passed"; }

# 5. Scoping: drift committed earlier in another file (bypassing the hook) is not reported when
#    only the README is staged; the README is still checked against the whole project.
step "drift in an unstaged file is out of scope"
printf '# Notes\n\n```bash\ntool +epoch=2\n```\n\n[reference](docs/reference.md#tool)\n' > docs/notes.md
git add docs/notes.md
git commit -qm "notes with drift" --no-verify
readme "+seed=2"
git add README.md
git commit -qm "README only" > "$work/scoped.log" 2>&1 || { cat "$work/scoped.log" >&2; fail "a README-only commit was refused for drift in docs/notes.md"; }

# 6. Code-only drift: renaming a field without touching the docs is refused, and the finding is
#    in the reference page, which was not staged.
step "commit a code-only rename"
sed -i 's/    seed: int/    random_seed: int/' tool/main.py
git add tool/main.py
if git commit -qm "rename seed" > "$work/code.log" 2>&1; then
  cat "$work/code.log" >&2
  fail "a commit renaming a documented field without its docs was accepted"
fi
grep -q 'docs/reference.md' "$work/code.log" || { cat "$work/code.log" >&2; fail "the stale reference row was not reported"; }
grep -q 'seed' "$work/code.log" || { cat "$work/code.log" >&2; fail "the finding does not name seed"; }
echo "ok"
