/**
 * Dispatchers shared by several console scripts (issue 12, item 4): `extractPython` reports which
 * function each script name runs when one function switches on `sys.argv[0]`, for the spellings
 * real projects use; the end-to-end twin is `fixtures/frameworks/entry-argv-dispatch`.
 */
import { describe, expect, it } from 'vitest';
import { routeFor } from '../src/extract/python/argv-dispatch.js';
import { extractPython } from '../src/extract/python/index.js';

async function dispatch(text: string, extra: Record<string, string> = {}) {
  const sources = [{ file: 'pkg/__init__.py', text: '' }, { file: 'pkg/cli.py', text }, ...Object.entries(extra).map(([file, t]) => ({ file, text: t }))];
  const result = await extractPython(sources);
  return Object.fromEntries([...result.argvDispatch].map(([fn, routes]) => [fn, Object.fromEntries(routes.map((r) => [r.name, r.words ? `${r.target} ${r.words.join(' ')}` : r.target]))]));
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

  it('legacy scripts re-entering the main program with sub-command words, after str methods on the name', async () => {
    const legacy = [
      'import sys',
      'from pathlib import Path',
      '',
      'from pkg.main import dispatch',
      'from pkg.main import main as gym_main',
      '',
      'LEGACY = {"collect_rollouts": ["eval", "run", "--no-serve"], "help": ["--help"], "bad": ["x", 1]}',
      '',
      '',
      'def main():',
      '    alias = Path(sys.argv[0]).name',
      '    key = alias.removeprefix("nemo_gym_").removeprefix("ng_")',
      '    if key == "reinstall":',
      '        print("deprecated", file=sys.stderr)',
      '        dispatch("pkg.general:reinstall", sys.argv[1:])',
      '        return',
      '    tokens = LEGACY.get(key)',
      '    sys.argv = [sys.argv[0], *tokens, *sys.argv[1:]]',
      '    gym_main()',
      '',
    ].join('\n');
    const main = 'def dispatch(target, args):\n    pass\n\n\ndef main():\n    pass\n';
    const found = await dispatch(legacy, { 'pkg/main.py': main, 'pkg/general.py': 'def reinstall():\n    pass\n' });
    expect(found).toEqual({ 'pkg.cli:main': { reinstall: 'pkg.general:reinstall', collect_rollouts: 'pkg.main:main eval run', help: 'pkg.main:main ' } });
    const result = await extractPython([{ file: 'pkg/__init__.py', text: '' }, { file: 'pkg/cli.py', text: legacy }, { file: 'pkg/main.py', text: main }]);
    const routes = result.argvDispatch.get('pkg.cli:main') ?? [];
    expect(routeFor(routes, 'ng_collect_rollouts')?.words).toEqual(['eval', 'run']);
    expect(routeFor(routes, 'nemo_gym_collect_rollouts')?.words).toEqual(['eval', 'run']);
    expect(routeFor(routes, 'ng_unknown')).toBeUndefined();
  });

  it('nothing for a function that reads sys.argv but never compares argv[0], or compares another value', async () => {
    const code = `import sys\n\n${FUNCTIONS}def main():\n    if sys.argv[1] == "train":\n        train()\n    mode = sys.argv[0]\n    if len(mode) == 3:\n        evaluate()\n`;
    expect(await dispatch(code)).toEqual({});
  });
});
