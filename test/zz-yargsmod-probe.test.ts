import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { extractTypeScriptFlags } from '../src/extract/typescript/flags.js';
it('probe', async () => {
  const spec = JSON.parse(readFileSync('/tmp/yargsmod/probe.json', 'utf8')) as Record<string, string>;
  const sources = Object.entries(spec).map(([file, text]) => ({ file, text }));
  const r = await extractTypeScriptFlags(sources);
  console.log(JSON.stringify(r.commands.map((c) => ({ path: c.path.join(' '), fw: c.framework, file: c.file, d: c.description, a: c.aliases, pu: c.passesUnknownFlags, params: c.params.map((p) => `${p.positional ? '<' : ''}${p.name}${p.aliases.length ? '|' + p.aliases.join('|') : ''}:${p.type ?? '?'}${p.default ? '=' + p.default.text : ''}${p.required ? '!' : ''}`).join(' ') })), null, 1));
  console.log(JSON.stringify(r.diagnostics));
});
