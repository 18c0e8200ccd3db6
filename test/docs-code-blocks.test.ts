/** Tests the invocations parseDoc finds in shell code blocks: wrappers, prompts, continuations, exact token positions. */

import { describe, expect, test } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';

/** Parses `lines` as docs/x.md and returns its invocations as [command, line:col, ...args as text@line:col]. */
function invocations(lines: string[], file = 'docs/x.md'): string[][] {
  const { doc } = parseDoc(file, lines.join('\n'));
  return doc.invocations.map((inv) => [
    inv.command,
    `${inv.location.line}:${inv.location.column}`,
    ...inv.args.map((a) => `${a.text}@${a.location.line}:${a.location.column}`),
  ]);
}

describe('tokens and exact positions', () => {
  test('multi-line command with `\\` continuations: tokens on continuation lines keep their columns', () => {
    const doc = [
      '# Collect',
      '',
      '```bash',
      'ng_collect_rollouts +agent_name=simple_agent \\',
      '    +input_jsonl_fpath=data/example.jsonl \\',
      '\t+output_jsonl_fpath=out.jsonl \\',
      '    +limit=5',
      '```',
    ];
    expect(invocations(doc)).toEqual([
      [
        'ng_collect_rollouts', '4:1',
        '+agent_name=simple_agent@4:21',
        '+input_jsonl_fpath=data/example.jsonl@5:5',
        '+output_jsonl_fpath=out.jsonl@6:2',
        '+limit=5@7:5',
      ],
    ]);
  });

  test('end positions are one past the token, quotes included', () => {
    const { doc } = parseDoc('a.md', ['```bash', 'tool "+config_paths=[a,b]" --x', '```'].join('\n'));
    expect(doc.invocations[0]!.args).toEqual([
      { text: '+config_paths=[a,b]', location: { file: 'a.md', line: 2, column: 6, endLine: 2, endColumn: 27 }, quoted: true, quotedWord: true },
      { text: '--x', location: { file: 'a.md', line: 2, column: 28, endLine: 2, endColumn: 31 } },
    ]);
    expect(doc.invocations[0]!.location).toEqual({ file: 'a.md', line: 2, column: 1, endLine: 2, endColumn: 5 });
  });

  test('programs run through docker run, node and python -m are named with how they were run', () => {
    const { doc } = parseDoc('a.md', ['```bash',
      'docker run --rm -v "$PWD:/w" -w /w -e A=1 -it ghcr.io/acme/tool:1.2 --x 1',
      'docker container run --name=t acme/tool tool --y',
      'docker run --entrypoint sh acme/tool -c ls',
      'node --require ./hook.cjs ./bin/cli.js --z',
      'node -e "console.log(1)"',
      'python3 -m tool_pkg --w',
      '```'].join('\n'));
    expect(doc.invocations.map((i) => [i.command, i.via ?? '', i.args.map((a) => a.text).join(' ')])).toEqual([
      ['ghcr.io/acme/tool:1.2', 'image', '--x 1'],
      ['acme/tool', 'image', 'tool --y'],
      ['./bin/cli.js', 'file', '--z'],
      ['node', '', '-e console.log(1)'],
      ['tool_pkg', 'module', '--w'],
    ]);
  });

  test('a word written with quotes or escapes is marked quoted; a bare word or an expansion is not', () => {
    const { doc } = parseDoc('a.md', ['```bash', `tool "a prompt" 'b' c\\ d plain $VAR`, '```'].join('\n'));
    expect(doc.invocations[0]!.args.map((a) => [a.text, a.quoted ?? false])).toEqual([
      ['a prompt', true], ['b', true], ['c d', true], ['plain', false], ['$VAR', false],
    ]);
  });

  test('a word running to the end of the block ends inside its line (found by the property test)', () => {
    // The unclosed backquote makes the word run over the joining newline to the end of the block.
    const { doc } = parseDoc('a.md', ['', '```', '```sh', '', ''].join('\n'));
    expect(doc.invocations[0]!.location).toEqual({ file: 'a.md', line: 3, column: 1, endLine: 3, endColumn: 6 });
    // A joining newline after an empty line sits on that empty line (it was put one column past line 2, twice over).
    const second = parseDoc('a.md', ['```bash', 'tool `a', '', '', '```'].join('\n')).doc;
    expect(second.invocations[0]!.args[0]!.location).toEqual({ file: 'a.md', line: 2, column: 6, endLine: 3, endColumn: 1 });
  });

  test('blanks after a continuation backslash are tolerated', () => {
    expect(invocations(['```bash', 'tool +a=1 \\  ', '  +b=2', '```'])).toEqual([['tool', '2:1', '+a=1@2:6', '+b=2@3:3']]);
  });

  test('comments, full-line and trailing, are dropped', () => {
    expect(invocations([
      '```sh',
      '# first start the server',
      'ng_run +config_paths=[a.yaml]  # runs forever',
      'ng_status # check #2',
      '```',
    ])).toEqual([
      ['ng_run', '3:1', '+config_paths=[a.yaml]@3:8'],
      ['ng_status', '4:1'],
    ]);
  });

  test('quoted words: single, double, mixed; position is where the quoted word starts', () => {
    expect(invocations([
      '```bash',
      `tool "+config_paths=[configs/a.yaml,configs/b.yaml]" '+msg=hello world' +x="a b"c --name='it'\\''s'`,
      '```',
    ])).toEqual([
      ['tool', '2:1', '+config_paths=[configs/a.yaml,configs/b.yaml]@2:6', '+msg=hello world@2:54', '+x=a bc@2:73', "--name=it's@2:83"],
    ]);
  });

  test('env-var prefixes, &&, ||, ;, | and newlines split commands', () => {
    expect(invocations([
      '```bash',
      'CUDA_VISIBLE_DEVICES=0 HF_HOME=/tmp/hf ng_train +lr=1e-4 && ng_eval +k=1 || echo failed; cat log | grep x',
      '```',
    ])).toEqual([
      ['ng_train', '2:40', '+lr=1e-4@2:49'],
      ['ng_eval', '2:61', '+k=1@2:69'],
      ['echo', '2:77', 'failed@2:82'],
      ['cat', '2:90', 'log@2:94'],
      ['grep', '2:100', 'x@2:105'],
    ]);
  });

  test('${VAR}, $(...), backquotes and <placeholders> stay as text without shifting positions', () => {
    expect(invocations([
      '```bash',
      'tool +out=${OUT_DIR}/run_$(date +%s) +n=`nproc` --input <path/to/file.jsonl> +z="$HOME/x y"',
      '```',
    ])).toEqual([
      ['tool', '2:1', '+out=${OUT_DIR}/run_$(date +%s)@2:6', '+n=`nproc`@2:38', '--input@2:49', '<path/to/file.jsonl>@2:57', '+z=$HOME/x y@2:78'],
    ]);
  });

  test('redirections and their targets are not arguments', () => {
    expect(invocations(['```bash', 'tool +a=1 > out.log 2>&1 < in.txt', '```'])).toEqual([['tool', '2:1', '+a=1@2:6']]);
  });

  test('heredoc bodies are skipped', () => {
    expect(invocations([
      '```bash',
      'cat > config.yaml <<EOF',
      'agent_name: x',
      'tool +not=a_command',
      'EOF',
      'tool +a=1',
      '```',
    ])).toEqual([['cat', '2:1'], ['tool', '6:1', '+a=1@6:6']]);
  });

  test('odd syntax never throws', () => {
    const odd = ['```bash', 'tool "unterminated +a=1', 'for f in *.py; do lint $f; done', 'x=$((1 + (2', 'case $a in', ') ;;', '```'];
    expect(() => parseDoc('a.md', odd.join('\n'))).not.toThrow();
    expect(invocations(odd).map((i) => i[0])).toEqual(['tool', 'lint']);
  });
});

describe('prompts and output', () => {
  test('`$ ` prompts are removed; in console blocks lines without a prompt are output', () => {
    expect(invocations([
      '```console',
      '$ ng_run +config_paths=[a.yaml] \\',
      '    +debug=true',
      'Server started on :8000',
      '$ ng_status',
      'ok',
      '```',
    ])).toEqual([
      ['ng_run', '2:3', '+config_paths=[a.yaml]@2:10', '+debug=true@3:5'],
      ['ng_status', '5:3'],
    ]);
  });

  test('`> ` continuation prompts in shell-session blocks', () => {
    expect(invocations(['```shell-session', '% tool +a=1 &&', '> tool +b=2', '```'])).toEqual([
      ['tool', '2:3', '+a=1@2:8'],
      ['tool', '3:3', '+b=2@3:8'],
    ]);
  });

  test('virtualenv and user@host prompts', () => {
    expect(invocations(['```console', '(.venv) $ tool +a=1', 'done', 'me@box:~/repo$ tool +b=2', '```'])).toEqual([
      ['tool', '2:11', '+a=1@2:16'],
      ['tool', '4:16', '+b=2@4:21'],
    ]);
  });

  test('a console block without any prompt is read as plain commands', () => {
    expect(invocations(['```console', 'tool +a=1', '```'])).toEqual([['tool', '2:1', '+a=1@2:6']]);
  });

  test('a comment before the first `$ ` prompt still makes a session', () => {
    expect(invocations(['```bash', '# check the version', '$ tool --version', 'tool 1.2.3', '```'])).toEqual([
      ['tool', '3:3', '--version@3:8'],
    ]);
  });

  test('a bash block whose first line has a `$ ` prompt is a session', () => {
    expect(invocations(['```bash', '$ tool --version', 'tool 1.2.3', '```'])).toEqual([['tool', '2:3', '--version@2:8']]);
  });
});

describe('wrappers', () => {
  test.each([
    ['uv run ng_run +a=1', 'ng_run', '8'],
    ['uv run --with pandas --python 3.12 ng_run +a=1', 'ng_run', '36'],
    ['uv run -- ng_run +a=1', 'ng_run', '11'],
    ['poetry run ng_run +a=1', 'ng_run', '12'],
    ['pipx run --spec nemo-gym ng_run +a=1', 'ng_run', '26'],
    ['python -m nemo_gym.cli +a=1', 'nemo_gym.cli', '11'],
    ['python3 -u -m nemo_gym.cli +a=1', 'nemo_gym.cli', '15'],
    ['uv run python -m nemo_gym.cli +a=1', 'nemo_gym.cli', '18'],
    ['npx docdrift --root .', 'docdrift', '5'],
    ['npx -y docdrift@1.2.0 --root .', 'docdrift', '8'],
    ['uvx --from nemo-gym ng_run +a=1', 'ng_run', '21'],
    ['pnpm exec docdrift --root .', 'docdrift', '11'],
    ['sudo -E env FOO=1 time ng_run +a=1', 'ng_run', '24'],
  ])('%s', (line, command, column) => {
    const [inv] = invocations(['```bash', line, '```']);
    expect(inv!.slice(0, 2)).toEqual([command, `2:${column}`]);
  });

  test('python running a script is the command `python`', () => {
    expect(invocations(['```bash', 'python train.py +lr=1', '```'])).toEqual([['python', '2:1', 'train.py@2:8', '+lr=1@2:17']]);
  });
});

describe('which blocks are read, and where they sit', () => {
  test('languages: bash, sh, shell, zsh, console and none are read; python, yaml, text are not', () => {
    const doc = ['bash', 'sh', 'shell', 'zsh', 'console', '', 'python', 'yaml', 'text', 'BASH']
      .flatMap((lang) => ['```' + lang, lang === 'console' ? '$ tool' : 'tool', '```', '']);
    const { doc: parsed } = parseDoc('a.md', doc.join('\n'));
    expect(parsed.codeBlocks.map((b) => b.lang)).toEqual(['bash', 'sh', 'shell', 'zsh', 'console', undefined, 'BASH']);
    expect(parsed.invocations.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(parsed.invocations[0]!.block).toBe(parsed.codeBlocks[0]);
    expect(parsed.codeBlocks[0]!.location).toEqual({ file: 'a.md', line: 1, column: 1, endLine: 3, endColumn: 4 });
  });

  test('an indented code block (no fence) is read when its lines look like command lines; code, data and output are not', () => {
    expect(invocations(['Text:', '', '    tool +a=1', ''])).toEqual([['tool', '3:5', '+a=1@3:10']]);
    expect(invocations(['Run:', '', '    $ tool serve --port 80', '    serving on :80', ''])).toEqual([['tool', '3:7', 'serve@3:12', '--port@3:18', '80@3:25']]);
    expect(invocations(['Code:', '', '    import tool', '    tool.run(port=1)', ''])).toEqual([]);
    expect(invocations(['Data:', '', '    port: 80', '    host: x', ''])).toEqual([]);
    expect(invocations(['Help:', '', '    Usage: tool [OPTIONS]', '      --port INTEGER  The port.', ''])).toEqual([]);
    expect(invocations(['Log:', '', '    2018-02-16 18:20:31 - tool - DEBUG', ''])).toEqual([]);
  });

  test('a fence inside a list item: columns include the indentation', () => {
    expect(invocations([
      '1. Install:',
      '',
      '   ```sh',
      '   pip install nemo-gym  # from PyPI',
      '   ng_run +a=1 \\',
      '       +b=2',
      '   ```',
    ])).toEqual([
      ['pip', '4:4', 'install@4:8', 'nemo-gym@4:16'],
      ['ng_run', '5:4', '+a=1@5:11', '+b=2@6:8'],
    ]);
  });

  test('a fence inside a blockquote inside a list item, with a prompt', () => {
    expect(invocations(['- Run:', '', '  > ```bash', '  > $ ng_run ++debug=true', '  > ```'])).toEqual([
      ['ng_run', '4:7', '++debug=true@4:14'],
    ]);
  });

  test('a fence inside MDX JSX, indented', () => {
    expect(invocations(['<Tabs>', '  <Tab title="uv">', '    ```bash', '    uv run ng_run +a=1', '    ```', '  </Tab>', '</Tabs>'], 'docs/x.mdx')).toEqual([
      ['ng_run', '4:12', '+a=1@4:19'],
    ]);
  });

  test('CRLF line endings', () => {
    expect(invocations(['```bash\r', 'tool +a=1 \\\r', '  +b=2\r', '```\r'])).toEqual([['tool', '2:1', '+a=1@2:6', '+b=2@3:3']]);
  });
});

describe('info strings doc engines write (s46 sweep H14: these blocks were not read, their stale examples passed with no note)', () => {
  test.each([
    ['sh-session', ['$ tool --seed 1', 'output line']],
    ['{.bash}', ['tool --seed 1']],
    ['{bash}', ['tool --seed 1']],
    ['{.bash .numberLines}', ['tool --seed 1']],
    ['bash{1,2}', ['tool --seed 1']],
    ['bash=', ['tool --seed 1']],
    ['bash:title=run.sh', ['tool --seed 1']],
    ['Shell', ['tool --seed 1']],
    // s47 sweep J2: PowerShell blocks run programs with POSIX-like flags.
    ['pwsh', ['tool --seed 1']],
    ['powershell', ['tool --seed 1']],
    ['ps1', ['tool --seed 1']],
  ])('```%s is read as shell', (info, body) => {
    // After a `$ ` prompt the words start two columns further.
    const at = body[0]!.startsWith('$ ') ? 2 : 0;
    expect(invocations(['# x', '', `\`\`\`${info}`, ...body, '```'])).toEqual([['tool', `4:${1 + at}`, `--seed@4:${6 + at}`, `1@4:${13 + at}`]]);
  });

  test.each(['python', '{note}', 'text', 'bash-completion', '{}', 'yaml{1}'])('```%s is not', (info) => {
    expect(invocations(['# x', '', `\`\`\`${info}`, 'tool --seed 1', '```'])).toEqual([]);
  });
});

describe('PowerShell blocks (s47 sweep J2)', () => {
  test('backtick continuations join lines and keep columns; `PS C:\\>` prompts are cut and their output lines skipped', () => {
    expect(invocations(['```powershell', 'tool --seed 1 `', '  --name x', '```'])).toEqual([['tool', '2:1', '--seed@2:6', '1@2:13', '--name@3:3', 'x@3:10']]);
    expect(invocations(['```pwsh', 'PS C:\\work> tool --seed 1', 'seed is 1', 'PS> tool --name y', '```'])).toEqual([
      ['tool', '2:13', '--seed@2:18', '1@2:25'],
      ['tool', '4:5', '--name@4:10', 'y@4:17'],
    ]);
  });

  test("a `$env:` assignment sets a variable once (read by the PowerShell grammar), and is no command", () => {
    const { doc } = parseDoc('docs/x.md', ['```powershell', '$env:TOOL_MODE = "fast"', 'tool --seed 1', '```'].join('\n'));
    expect(doc.invocations.map((i) => i.command)).toEqual(['tool']);
    expect((doc.envUsages ?? []).filter((u) => u.name === 'TOOL_MODE')).toHaveLength(1);
  });
});
