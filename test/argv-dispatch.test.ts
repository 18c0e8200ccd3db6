/**
 * Dispatchers shared by several console scripts (issue 12, item 4): `extractPython` reports which
 * function each script name runs when one function switches on `sys.argv[0]`, for the spellings
 * real projects use; the end-to-end twin is `fixtures/frameworks/entry-argv-dispatch`.
 */
import { describe, expect, it } from 'vitest';
import { extractPython } from '../src/extract/python/index.js';

async function dispatch(text: string, extra: Record<string, string> = {}) {
  const sources = [{ file: 'pkg/__init__.py', text: '' }, { file: 'pkg/cli.py', text }, ...Object.entries(extra).map(([file, t]) => ({ file, text: t }))];
  const result = await extractPython(sources);
  return Object.fromEntries([...result.argvDispatch].map(([fn, names]) => [fn, Object.fromEntries(names)]));
}

const FUNCTIONS = 'def train():\n    pass\n\n\ndef evaluate():\n    pass\n\n\n';

describe('argv[0] dispatchers', () => {
  it('if/elif chains over os.path.basename(sys.argv[0]), with `in` and reversed comparisons', async () => {
    const code = `import os\nimport sys\n\n${FUNCTIONS}def main():\n    prog = os.path.basename(sys.argv[0]).lower()\n    if prog in ("tool-train", "tt"):\n        sys.exit(train())\n    elif "tool-eval" == prog:\n        print("eval")\n        evaluate()\n    else:\n        raise SystemExit(f"unknown program {prog}")\n`;
    expect(await dispatch(code)).toEqual({ 'pkg.cli:main': { 'tool-train': 'pkg.cli:train', tt: 'pkg.cli:train', 'tool-eval': 'pkg.cli:evaluate' } });
  });

  it('a local dict read with .get, values imported from another module', async () => {
    const code = `import sys\nfrom pathlib import Path\nfrom pkg import jobs\n\n\ndef main():\n    table = {"tool-train": jobs.train, "tool-eval": jobs.evaluate, "tool-x": print}\n    handler = table.get(Path(sys.argv[0]).stem)\n    handler()\n`;
    expect(await dispatch(code, { 'pkg/jobs.py': FUNCTIONS })).toEqual({ 'pkg.cli:main': { 'tool-train': 'pkg.jobs:train', 'tool-eval': 'pkg.jobs:evaluate' } });
  });

  it('nothing for a function that reads sys.argv but never compares argv[0], or compares another value', async () => {
    const code = `import sys\n\n${FUNCTIONS}def main():\n    if sys.argv[1] == "train":\n        train()\n    mode = sys.argv[0]\n    if len(mode) == 3:\n        evaluate()\n`;
    expect(await dispatch(code)).toEqual({});
  });
});
