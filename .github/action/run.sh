#!/usr/bin/env bash
# The "Run docdrift" step of the GitHub Action (action.yml): turns the action's inputs, passed as
# INPUT_* environment variables (never interpolated into script text, see
# https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#understanding-the-risk-of-script-injections),
# into docdrift arguments, runs the built CLI, and writes the step outputs.
#
# Environment (all optional; the action sets every one):
#   INPUT_CONFIG, INPUT_ROOT, INPUT_BASELINE, INPUT_SARIF_FILE  paths, empty for "not set"
#   INPUT_PATHS          files/directories to report on, separated by spaces or newlines
#   INPUT_FORMAT         docdrift --format (default github)
#   INPUT_FAIL_LEVEL     error | warning | none (default error)
#   INPUT_CHANGED_ONLY   true | false: --changed-since DOCDRIFT_BASE_SHA when that is set
#   INPUT_SUMMARY        true | false: --summary "$GITHUB_STEP_SUMMARY" when that is set
#   DOCDRIFT_BASE_SHA    the pull request's base commit (github.event.pull_request.base.sha)
#   DOCDRIFT_BIN         the docdrift bin to run (install.sh's output); default: dist/cli/docdrift.js here
#   GITHUB_OUTPUT        file receiving exit-code, errors, warnings (workflow commands spec:
#                        https://docs.github.com/en/actions/using-workflows/workflow-commands-for-github-actions#setting-an-output-parameter)
#   DOCDRIFT_ACTION_DRY_RUN=1  print each docdrift command line (one argument per line) instead of running it
# Exit code: docdrift's (0 clean, 1 findings at or above fail-level, 2 usage/config/internal error);
# with fail-level none, 0 unless docdrift exited 2. A bad input value exits 2 naming the input.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The bundle that package.json `bin` names, as install.sh installed it from the packed tarball
# (DOCDRIFT_BIN, its step output); without it, this checkout's own build (tests run it so).
bin="${DOCDRIFT_BIN:-$here/../../dist/cli/docdrift.js}"

input_error() {
  echo "::error title=docdrift action::input \`$1\` must be $2; got \"$3\"."
  exit 2
}
bool() { # variable-name input-name value: sets the variable to true/false, or exits 2
  case "$3" in
    true | True | TRUE) printf -v "$1" true ;;
    false | False | FALSE | '') printf -v "$1" false ;;
    *) input_error "$2" "true or false" "$3" ;;
  esac
}

format="${INPUT_FORMAT:-github}"
fail_level="${INPUT_FAIL_LEVEL:-error}"
bool changed_only changed-only "${INPUT_CHANGED_ONLY:-false}"
bool summary summary "${INPUT_SUMMARY:-true}"

common=()
[[ -n "${INPUT_ROOT:-}" ]] && common+=(--root "$INPUT_ROOT")
[[ -n "${INPUT_CONFIG:-}" ]] && common+=(--config "$INPUT_CONFIG")
[[ -n "${INPUT_BASELINE:-}" ]] && common+=(--baseline "$INPUT_BASELINE")
case "$fail_level" in
  error) ;;
  warning) common+=(--max-warnings 0) ;;
  none) ;;
  *) input_error fail-level "error, warning or none" "$fail_level" ;;
esac
if [[ "$changed_only" == true ]]; then
  if [[ -n "${DOCDRIFT_BASE_SHA:-}" ]]; then
    common+=(--changed-since "$DOCDRIFT_BASE_SHA")
  else
    echo "::notice title=docdrift action::changed-only is set but this run is not for a pull request; checking the whole project."
  fi
fi
paths=()
read -r -d '' -a paths <<< "${INPUT_PATHS:-}"

run() { # docdrift arguments… → docdrift's stdout; returns its exit code
  if [[ "${DOCDRIFT_ACTION_DRY_RUN:-}" == 1 ]]; then
    printf 'docdrift\n'; printf '%s\n' "$@"; printf '\n'
    return 0
  fi
  node "$bin" "$@"
}

# SARIF first, into its own file: a second run, since docdrift prints one format per run.
if [[ -n "${INPUT_SARIF_FILE:-}" ]]; then
  if [[ "${DOCDRIFT_ACTION_DRY_RUN:-}" == 1 ]]; then
    run "${common[@]}" --format sarif -- "${paths[@]}"
  else
    mkdir -p "$(dirname "$INPUT_SARIF_FILE")"
    run "${common[@]}" --format sarif -- "${paths[@]}" > "$INPUT_SARIF_FILE"
    sarif_code=$?
    if [[ $sarif_code -eq 2 ]]; then
      echo "::error title=docdrift action::docdrift --format sarif failed (exit code 2); see the messages above."
      exit 2
    fi
  fi
fi

args=("${common[@]}" --format "$format")
[[ "$summary" == true && -n "${GITHUB_STEP_SUMMARY:-}" ]] && args+=(--summary "$GITHUB_STEP_SUMMARY")
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
# `--`: a path input such as `--fix` is a path, never an option.
run "${args[@]}" -- "${paths[@]}" | tee "$out"
code=${PIPESTATUS[0]}

# Counts, from whichever output states them: JSON's summary, the github format's annotation
# lines (one `::error`/`::warning` command per finding), or the SARIF results' levels.
errors=''
warnings=''
if [[ $code -ne 2 && "${DOCDRIFT_ACTION_DRY_RUN:-}" != 1 ]]; then
  case "$format" in
    json)
      counts="$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).summary;console.log(r.errors+" "+r.warnings)' "$out" 2>/dev/null)" &&
        read -r errors warnings <<< "$counts"
      ;;
    github)
      errors="$(grep -c '^::error' "$out")"
      warnings="$(grep -c '^::warning' "$out")"
      ;;
    *)
      if [[ -n "${INPUT_SARIF_FILE:-}" && -s "$INPUT_SARIF_FILE" ]]; then
        counts="$(node -e 'const l=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).runs.flatMap(r=>r.results??[]).map(r=>r.level??"warning");console.log(l.filter(x=>x==="error").length+" "+l.filter(x=>x==="warning").length)' "$INPUT_SARIF_FILE" 2>/dev/null)" &&
          read -r errors warnings <<< "$counts"
      fi
      ;;
  esac
fi
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  {
    echo "exit-code=$code"
    echo "errors=$errors"
    echo "warnings=$warnings"
  } >> "$GITHUB_OUTPUT"
fi

if [[ $code -eq 2 ]]; then exit 2; fi
if [[ "$fail_level" == none ]]; then exit 0; fi
exit "$code"
