import { readFileSync } from 'node:fs';
const { parseDoc } = await import('/work/main/dist/src/docs/parse.js');
const text = readFileSync('/work/corpus/snapshots/paperless-ngx-env/docs/changelog.md', 'utf8');
for (let i = 0; i < 3; i++) { const t = performance.now(); parseDoc('docs/changelog.md', text); console.log((performance.now() - t).toFixed(0)); }
