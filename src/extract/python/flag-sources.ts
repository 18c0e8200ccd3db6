/** Which Python files the CLI flag pass reads: a cheap text prefilter, so most files of a large project are parsed once and never walked for flags. */
import type { PythonSource } from './index.js';
import { moduleNameForFile } from './module-name.js';
import { pythonTextFacts, type PythonTextFacts } from './text-facts.js';

const FROM_IMPORT = /^[ \t]*from[ \t]+(?=[.\w])(\.*)([A-Za-z_][\w.]*)?[ \t]+import[ \t]+([^\n#]*)/gm;
const PLAIN_IMPORT = /^[ \t]*import[ \t]+([A-Za-z_][\w.]*)/gm;

/**
 * A predicate choosing the files the flag extractor reads: every file that names a CLI framework
 * (or `add_argument`), plus, for files that name cyclopts or jsonargparse, the modules they import
 * (`from litgpt.finetune.lora import setup`, relative imports too), where the command functions
 * usually live (litgpt's `CLI(PARSER_DATA)` maps words to functions of 22 modules that never
 * mention jsonargparse). Import lines are only a prefilter: the extractor still resolves names
 * through the syntax tree. Paths are project-relative POSIX paths; `packageRoots` as for
 * `extractPython`. `factsOf` gives a source's {@link PythonTextFacts} (default: scans its text);
 * a source's text is read only when it names cyclopts or jsonargparse. `entryModules` are the
 * modules the project's console scripts (or the config's `program`s) name: they are read too, since
 * an entry point's `main()` often calls a parser builder of another module without naming any
 * framework itself (`args = parse_arguments()`), and the command is found through that call.
 */
export function flagSourceFilter(
  sources: readonly PythonSource[],
  packageRoots: string[],
  factsOf: (source: PythonSource) => PythonTextFacts = (source) => pythonTextFacts(source.text),
  entryModules: Iterable<string> = [],
): (source: PythonSource) => boolean {
  const imported = new Set<string>(entryModules);
  for (const source of sources) {
    if (!factsOf(source).functionFramework) continue;
    const own = moduleNameForFile(source.file, packageRoots).split('.');
    const isPackage = /(^|\/)__init__\.pyi?$/.test(source.file);
    for (const m of source.text.matchAll(FROM_IMPORT)) {
      const dots = m[1]?.length ?? 0;
      let base: string[] = [];
      if (dots > 0) {
        // `from .x import y` in pkg/a.py is pkg.x; in pkg/__init__.py it is pkg.x as well.
        const keep = own.length - dots + (isPackage ? 1 : 0);
        if (keep < 0) continue;
        base = own.slice(0, keep);
      }
      const module = [...base, ...(m[2] ? m[2].split('.') : [])].join('.');
      if (module !== '') imported.add(module);
      for (const raw of (m[3] ?? '').replace(/[()]/g, '').split(',')) {
        const name = raw.trim().split(/\s+/)[0];
        if (name && /^[A-Za-z_]\w*$/.test(name)) imported.add(module === '' ? name : `${module}.${name}`);
      }
    }
    for (const m of source.text.matchAll(PLAIN_IMPORT)) if (m[1]) imported.add(m[1]);
  }
  // The engine asks twice per file (which files to read for flags, which trees to keep): answers are
  // remembered per source (and its content: the hash when it has one, else the text).
  const answers = new WeakMap<PythonSource, { file: string; content: string; answer: boolean }>();
  return (source) => {
    const known = answers.get(source);
    const content = source.hash ?? source.text;
    if (known && known.file === source.file && known.content === content) return known.answer;
    const answer = factsOf(source).framework || (imported.size > 0 && imported.has(moduleNameForFile(source.file, packageRoots)));
    answers.set(source, { file: source.file, content, answer });
    return answer;
  };
}
