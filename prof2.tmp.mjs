import { readFileSync } from 'node:fs';
const { parseDoc } = await import('/work/main/dist/src/docs/parse.js');
const files = ['/work/corpus/snapshots/paperless-ngx-env/docs/changelog.md', '/tmp/s38/ng-nogit/README.md', '/work/corpus/snapshots/vite-cli-cac/packages/vite/CHANGELOG.md'];
for (const f of files) { const text = readFileSync(f, 'utf8'); let best = Infinity; for (let i = 0; i < 6; i++) { const t = performance.now(); parseDoc('docs/x.md', text); best = Math.min(best, performance.now() - t); } console.log(f.split('/').slice(-2).join('/'), best.toFixed(0), 'ms'); }
