/**
 * Programs other than the project's that documents name in code spans (`` `git clone` ``, `` `pip` ``):
 * the first word of a span that is one of these names another tool, not the project's command or one
 * of its parameters.
 */
export const WELL_KNOWN_PROGRAMS: ReadonlySet<string> = new Set(['git', 'node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'bunx', 'deno', 'docker', 'podman', 'pip', 'pip3', 'pipx', 'python', 'python3', 'uv', 'uvx', 'conda', 'cargo', 'rustc', 'go', 'curl', 'wget', 'kubectl', 'helm', 'terraform', 'make', 'gh', 'brew', 'mvn', 'gradle', 'java', 'ssh', 'rsync', 'tsc', 'ffmpeg', 'openssl', 'hg', 'mocha', 'jest', 'eslint', 'prettier', 'webpack', 'babel', 'pytest', 'mypy', 'ruff', 'tox']);
