import { readdirSync } from 'node:fs';
console.log('tasks at start', readdirSync('/proc/self/task').join(' '));
const { createDocParser } = await import('/work/main/dist/src/docs/bounded-parse.js');
console.log('tasks after import', readdirSync('/proc/self/task').join(' '));
const p = await createDocParser({ files: 10 });
p.parse('a.md', '# x\n\ntext\n', { doc: true, directives: true });
console.log('tasks after parse', readdirSync('/proc/self/task').join(' '));
p.close();
