/** Python identifiers read NFKC-normalised as CPython reads them (PEP 3131), end to end through lint() (s46 sweep H3). */
import { afterAll, describe, expect, it } from 'vitest';
import { lintTwin, removeTempDirs, tempProject } from './helpers.js';

afterAll(removeTempDirs);

const REFERENCE = '# Reference\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Random seed. |\n| `name` | str | `"run"` | Name of the run. |\n';

/** The bad-input base project with `cli` as tool/cli.py and `extra` files beside it. */
function project(cli: string, extra: Record<string, string> = {}): string {
  return tempProject({
    'pyproject.toml': '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n',
    'tool/__init__.py': '',
    'tool/cli.py': cli,
    'README.md': '# tool\n\n```bash\ntool +seed=1 +name=demo\n```\n\nSee the [reference](docs/reference.md#tool).\n',
    'docs/reference.md': REFERENCE,
    ...extra,
  });
}

describe('fullwidth and compatibility spellings of Python names (PEP 3131)', () => {
  it('a config class, its base, a field, a keyword and the entry function spelled with fullwidth letters: the docs match, no finding', async () => {
    // CPython (ast.parse) names these ToolConfig(Base), main, seed, name, and the keyword `default`.
    const cli = [
      'from pydantic import BaseModel, Field',
      '',
      '',
      'class \uff22ase(BaseModel):',
      '    seed: int = Field(\uff44efault=0, description="Random seed.")',
      '',
      '',
      'class \uff34oolConfig(\uff22ase):',
      '    \uff4eame: str = Field(default="run", description="Name of the run.")',
      '',
      '',
      'def \uff4dain(cfg: dict) -> None:',
      '    \uff34oolConfig.model_validate(cfg)',
      '',
    ].join('\n');
    const { messages } = await lintTwin(project(cli));
    expect(messages).toEqual([]);
    // The class is really read through those names: a default the docs get wrong is reported.
    const drift = project(cli.replace('default="run"', 'default="go"'));
    expect((await lintTwin(drift)).messages.map((m) => [m.file, m.line, m.ruleId])).toEqual([['docs/reference.md', 8, 'reference-default-mismatch']]);
  });

  it('a class spelled `\uff34oolConfig` is found by the config\'s `tool.cli.ToolConfig`', async () => {
    const cli = 'from pydantic import BaseModel\n\n\nclass \uff34oolConfig(BaseModel):\n    seed: int = 0\n    name: str = "run"\n\n\ndef main() -> None:\n    pass\n';
    const config = JSON.stringify({ commands: { tool: { config: 'tool.cli.ToolConfig' } } });
    const { messages } = await lintTwin(project(cli, { 'docdrift.config.json': config }));
    expect(messages).toEqual([]);
    // The check is real: a row the class lacks is still reported.
    const missing = project(cli.replace('    name: str = "run"\n', ''), { 'docdrift.config.json': config });
    expect((await lintTwin(missing)).messages.map((m) => m.ruleId).sort()).toEqual(['example-param-unknown', 'reference-param-unknown']);
  });
});
