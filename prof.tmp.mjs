import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
const cpu = () => Object.fromEntries(readdirSync('/proc/self/task').map((t) => { const s = /\) (.*)/.exec(readFileSync(`/proc/self/task/${t}/stat`, 'utf8'))[1].split(' '); return [t, (Number(s[11]) + Number(s[12])) * 10]; }));
const startup = cpu();
console.log('startup', startup);
const w = new Worker(`const { fromMarkdown } = require(${JSON.stringify(process.cwd() + '/node_modules/mdast-util-from-markdown/index.js')});`.replace(/.*/, `import('${process.cwd()}/node_modules/mdast-util-from-markdown/index.js').then(({fromMarkdown}) => { const t = fromMarkdown('- a\\n'.repeat(60000)); require('worker_threads').parentPort.postMessage('done'); });`), { eval: true, resourceLimits: { maxOldGenerationSizeMb: 192 } });
w.on('message', () => { console.log('after', cpu()); process.exit(0); });
w.on('error', (e) => { console.log('error', e.message, cpu()); process.exit(0); });
