import { createDocParser } from '/work/main/dist/src/docs/bounded-parse.js';
import { helperThreadsCpuMs } from '/work/main/dist/src/shared/thread-cpu.js';
import { readFileSync } from 'node:fs';
import { globbySync } from 'globby';
const root = process.argv[2];
const files = globbySync(['**/*.md', '**/*.mdx'], { cwd: root, gitignore: true });
const h0 = helperThreadsCpuMs(); const t0 = performance.now(); const c0 = process.cpuUsage();
const p = await createDocParser({ files: files.length });
let worst = [];
for (const f of files) {
  const text = readFileSync(`${root}/${f}`, 'utf8');
  const hb = helperThreadsCpuMs(); const pb = p.overruns().parseMs;
  const out = p.parse(f, text, { doc: true, directives: true });
  const dh = helperThreadsCpuMs() - hb, dp = p.overruns().parseMs - pb;
  worst.push([f, text.length, dp, dh]);
  for (const d of out.diagnostics) if (d.ruleId === 'parse-error') console.log('PARSE-ERROR', f, d.message.slice(0, 120));
}
const c = process.cpuUsage(c0);
console.log(files.length, 'docs; worker', p.overruns().parseMs, 'ms; helpers', helperThreadsCpuMs() - h0, 'ms; wall', (performance.now() - t0).toFixed(0), 'proc', ((c.user + c.system) / 1000).toFixed(0));
worst.sort((a, b) => (b[2] + b[3]) - (a[2] + a[3]));
for (const w of worst.slice(0, 8)) console.log(w.join('\t'));
p.close();
