/**
 * Environment variables as parameters (issue #31): the `environment` pseudo-command built from
 * what the code reads, and the reference sections that document env vars (env tables, lists and
 * parameter headings, `.env.example` files, the env column of a flag table).
 *
 * The pseudo-command ({@link ENVIRONMENT_COMMAND}, `kind: 'environment'`) lets the ordinary rules
 * judge env vars as they judge flags: a variable read by code and absent from every env section
 * (`reference-param-missing`), a documented one read nowhere (`reference-param-unknown`), one set in
 * an example and read nowhere (`example-param-unknown`), a documented default that differs from the
 * code's (`reference-default-mismatch`). A CLI flag is never demanded in an env section nor an env
 * var in a flag table: env sections hold only env rows, and env vars are parameters of this
 * command only.
 */
import { ENVIRONMENT_COMMAND, type CommandSpec, type DocFile, type DocTable, type DynamicEnvRead, type EnvExtraction, type EnvNameStatus, type EnvSource, type HeadingBlock, type ParamSpec, type ReferenceLayout, type ReferenceRow, type ReferenceSection } from '../model/types.js';
import { foldSpelling } from '../shared/names.js';
import { headingMatchText } from '../shared/strings.js';
import { readEnvTable } from '../docs/reference-table.js';

/**
 * Variables every program may read from its environment and no project documents as its own
 * (the shell's, the OS's, CI providers', Node's and Python's): read by code, they are never
 * demanded in an env reference; documented, they are not judged.
 */
const WELL_KNOWN = new Set([
  'HOME', 'PATH', 'PWD', 'OLDPWD', 'USER', 'USERNAME', 'LOGNAME', 'SHELL', 'TERM', 'TERM_PROGRAM', 'LANG', 'LANGUAGE', 'TZ',
  'TMPDIR', 'TEMP', 'TMP', 'HOSTNAME', 'EDITOR', 'VISUAL', 'PAGER', 'BROWSER', 'DISPLAY', 'WAYLAND_DISPLAY', 'SHLVL', 'PS1',
  'CI', 'CONTINUOUS_INTEGRATION', 'BUILD_NUMBER', 'TRAVIS', 'APPVEYOR', 'CIRCLECI', 'GITLAB_CI', 'BUILDKITE', 'TF_BUILD', 'JENKINS_URL',
  'NODE_ENV', 'NODE_OPTIONS', 'NODE_PATH', 'NODE_DEBUG', 'INIT_CWD', 'DEBUG', 'VERBOSE', 'NO_COLOR', 'FORCE_COLOR', 'COLORTERM', 'COLUMNS', 'LINES',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'all_proxy',
  'PYTHONPATH', 'PYTHONHASHSEED', 'PYTHONUNBUFFERED', 'PYTHONIOENCODING', 'PYTHONDONTWRITEBYTECODE', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'CONDA_DEFAULT_ENV',
  'JAVA_HOME', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE', 'PROGRAMFILES', 'SYSTEMROOT', 'SYSTEMDRIVE', 'COMSPEC', 'WINDIR', 'PATHEXT', 'OS',
  'JEST_WORKER_ID', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'TS_NODE_PROJECT', 'BABEL_ENV', 'VERCEL', 'NETLIFY', 'SUDO_USER', 'SUDO_UID',
  'PREFIX', 'MODE', 'PROD', 'DEV', 'SSR', 'BASE_URL', 'NEXT_RUNTIME', 'NEXT_PHASE', 'NETLIFY_DEV', 'CF_PAGES', 'RENDER', 'DYNO', 'K_SERVICE',
  // Frameworks' own: Expo's platform, Django's settings module and async guard, Flask's app and debug switches.
  'EXPO_OS', 'DJANGO_SETTINGS_MODULE', 'DJANGO_ALLOW_ASYNC_UNSAFE', 'FLASK_APP', 'FLASK_ENV', 'FLASK_DEBUG', 'FLASK_RUN_PORT', 'FLASK_RUN_HOST', 'PYTHONWARNINGS',
]);
/** Well-known families: GitHub Actions' runner variables (`GITHUB_SHA`, not `GITHUB_TOKEN`, which projects document as theirs), `npm_config_cache`, `LC_ALL`, `XDG_CONFIG_HOME`, `PYTEST_CURRENT_TEST`. */
const WELL_KNOWN_PREFIX = /^(?:GITHUB_(?:ACTIONS?|ACTION_\w+|SHA|REF|REF_NAME|REF_TYPE|HEAD_REF|BASE_REF|WORKSPACE|EVENT_\w+|RUN_\w+|ACTOR|TRIGGERING_ACTOR|OUTPUT|ENV|PATH|STEP_SUMMARY|STATE|SERVER_URL|API_URL|GRAPHQL_URL|REPOSITORY|REPOSITORY_\w+|JOB|WORKFLOW\w*|RETENTION_DAYS)$|RUNNER_|npm_|LC_|XDG_|VERCEL_|AWS_LAMBDA_|PYTEST_|VSCODE_|TERM_|SSH_|CODEBUILD_|BITBUCKET_|CIRCLE_|TRAVIS_|GITLAB_|CI_|COV_CORE_|COVERAGE_|TOX_|NOX_)/;

/**
 * Variables a CI runner sets (`GITHUB_REPOSITORY`, `RUNNER_OS`, `CI_COMMIT_SHA`): code may read
 * them unasked, but an example that sets one most likely meant a variable of the project's own
 * (nuts' README exports `GITHUB_REPOSITORY` where the code reads `GITHUB_REPO`).
 */
const CI_RUNNER_RE = /^(?:GITHUB_|RUNNER_|CODEBUILD_|BITBUCKET_|CIRCLE_|TRAVIS_|GITLAB_|CI_)/;

/**
 * First words of variables that belong to another program or service: cloud SDKs, model
 * providers and ML runtimes, package managers, CI hosts, observability agents. A project that
 * reads `VLLM_USE_V1` or `AWS_PROFILE` passes on or peeks at that program's setting; it does not
 * make `VLLM_` or `AWS_` its own namespace, and its env reference need not carry that program's
 * variables (see {@link vendorNamespace}). Databases and caches (`POSTGRES_`, `REDIS_`) are not
 * here: projects configure them as settings of their own.
 */
const VENDOR_NAMESPACES = new Set([
  'AWS', 'AZURE', 'GOOGLE', 'GCP', 'GCLOUD', 'GCS', 'FIREBASE', 'CLOUDFLARE', 'DIGITALOCEAN', 'HEROKU',
  'OPENAI', 'ANTHROPIC', 'MISTRAL', 'COHERE', 'GROQ', 'DEEPSEEK', 'OPENROUTER', 'OLLAMA', 'TOGETHER', 'REPLICATE',
  'HF', 'HUGGINGFACE', 'TRANSFORMERS', 'TOKENIZERS', 'VLLM', 'CUDA', 'NVIDIA', 'NCCL', 'TORCH', 'PYTORCH', 'OMP', 'MKL',
  'TF', 'XLA', 'JAX', 'KERAS', 'ONNX', 'GRADIO', 'STREAMLIT', 'WANDB', 'MLFLOW', 'LANGCHAIN', 'LANGSMITH',
  'UV', 'PIP', 'POETRY', 'CONDA', 'NPM', 'YARN', 'PNPM', 'DOCKER', 'KUBERNETES', 'KUBECONFIG', 'HELM',
  'GITHUB', 'GITLAB', 'BITBUCKET', 'SLACK', 'SENTRY', 'OTEL', 'DD', 'DATADOG',
  // Payment, messaging and analytics services a hosted edition uses (linkwarden's and karakeep's
  // `STRIPE_SECRET_KEY`): undemanded while the reference documents none of their variables.
  'STRIPE', 'PADDLE', 'TWILIO', 'SENDGRID', 'MAILGUN', 'POSTHOG', 'MIXPANEL', 'RECAPTCHA', 'TURNSTILE',
]);

/**
 * Whether a variable's first word names another program's namespace ({@link VENDOR_NAMESPACES}),
 * unless it is the project's own name (`projectWords`, the upper-case first word of each command
 * name: `GITHUB` for a project whose command is `github-release`; MinerU's `mineru-vllm-server`
 * does not make `VLLM_` its own).
 */
export function vendorNamespace(name: string, projectWords: ReadonlySet<string> = new Set()): boolean {
  const first = name.split('_')[0]!.toUpperCase();
  return first !== name.toUpperCase() && VENDOR_NAMESPACES.has(first) && !projectWords.has(first);
}

/** Whether a variable is one every program may read (see {@link WELL_KNOWN}). */
export function isWellKnownEnv(name: string): boolean {
  return WELL_KNOWN.has(name) || WELL_KNOWN_PREFIX.test(name);
}

/**
 * Files whose reads are the project's tooling, not what its users set: tests, fixtures, examples,
 * benchmarks, build scripts and bundler/test-runner configs (`vite.config.ts`, `conftest.py`).
 */
const TOOLING_FILE = /(?:^|\/)(?:tests?|__tests__|__mocks__|spec|specs|e2e|e2e[-_]tests?|integration[-_]tests?|fixtures?|examples?|benchmarks?|bench|scripts|tools|\.github|docs?|cypress|playwright)\/|(?:^|\/)(?:test_[^/]*\.py|[^/]*_test\.py|conftest\.py|setup\.py|noxfile\.py|[^/]*\.(?:test|spec|stories)\.[cm]?[jt]sx?|[^/]*\.config\.[cm]?[jt]s|Gruntfile\.js|gulpfile\.js)$/;

/** Whether reads in `file` (project-relative) are tooling (see {@link TOOLING_FILE}). */
export function isToolingFile(file: string): boolean {
  return TOOLING_FILE.test(file);
}

/**
 * The names of the variables the project supplies itself (`env.internal`): written by its code or
 * set by its image. A test or example that writes a variable (`os.environ["X"] = …` in
 * conftest.py) or an example's image supplies nothing to the project's users: tooling files
 * ({@link isToolingFile}) do not count.
 */
export function suppliedEnvNames(env: EnvExtraction): Set<string> {
  return new Set((env.internal ?? []).filter((v) => !isToolingFile(v.location.file)).map((v) => v.name));
}

/** A variable as users set it: a case-insensitive pydantic-settings name upper-case (`qdrant_url` → `QDRANT_URL`). */
function userSpelling(v: ParamSpec): string {
  return v.envCaseInsensitive ? v.name.toUpperCase() : v.name;
}

/** Order in which a variable's read sites give its type, default and description: a declaration beats a bare read. */
const SOURCE_RANK: Record<EnvSource, number> = { settings: 0, schema: 1, flag: 2, read: 3 };

/**
 * The `environment` pseudo-command: one parameter per variable the code reads, its read sites
 * merged by name (a case-insensitive pydantic-settings variable is named upper-case, as users set
 * it). A variable every program reads ({@link isWellKnownEnv}), read only in tooling files
 * ({@link isToolingFile}) or one the project supplies itself (`env.internal`, outside tooling files) is `hidden`: known,
 * never demanded. A variable the code names in a message saying it is obsolete (`env.obsolete`) is
 * `deprecated`. Undefined when the code reads no
 * variable a user sets (`Model.envUnchecked` then names the documents that document some).
 *
 * Shapes: `env.vars` are `ParamSpec`s of origin `env-var` (src/model/types.ts, `EnvExtraction`).
 */
export function environmentCommand(env: EnvExtraction): CommandSpec | undefined {
  const internal = suppliedEnvNames(env);
  const obsolete = new Set(env.obsolete ?? []);
  const byName = new Map<string, ParamSpec[]>();
  for (const v of env.vars) {
    const name = userSpelling(v);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    const list = byName.get(name);
    if (list) list.push(v);
    else byName.set(name, [v]);
  }
  const params: ParamSpec[] = [];
  for (const [name, sites] of byName) {
    const ranked = [...sites].sort((a, b) => SOURCE_RANK[a.envSource ?? 'read'] - SOURCE_RANK[b.envSource ?? 'read']);
    const first = ranked[0]!;
    const withDefault = ranked.find((s) => s.default !== undefined);
    const withType = ranked.find((s) => s.type !== undefined);
    const withDescription = ranked.find((s) => s.description !== undefined);
    const aliases = [...new Set(sites.flatMap((s) => s.aliases))].filter((a) => a !== name);
    const userFacing = sites.some((s) => !isToolingFile(s.location.file));
    // `dest` (the settings field or flag a variable fills) means "the flag that sets this field"
    // to the rules: an env var is a parameter of its own here.
    const { dest: _field, ...rest } = first;
    params.push({
      ...rest,
      name,
      aliases,
      ...(withType?.type !== undefined ? { type: withType.type } : {}),
      ...(withDefault?.default !== undefined ? { default: withDefault.default } : {}),
      ...(withDescription?.description !== undefined ? { description: withDescription.description } : {}),
      required: sites.every((s) => s.required) && withDefault === undefined,
      hidden: isWellKnownEnv(name) || !userFacing || internal.has(name) || sites.every((s) => s.hidden),
      origin: 'env-var',
      // Read only to warn that it is obsolete: a removed setting, which no reference owes a row.
      ...(obsolete.has(name) ? { deprecated: true } : {}),
    });
  }
  // No variable a user sets: no command (what the docs document then is said in a note).
  if (!params.some((p) => !p.hidden)) return undefined;
  return {
    name: ENVIRONMENT_COMMAND,
    aliases: [],
    configClasses: [],
    params,
    mappedBy: 'inferred',
    paramsKnown: true,
    kind: 'environment',
  };
}

/** A variable's name as a row writes it: `$QDRANT_URL`, `QDRANT_URL=…`, `${QDRANT_URL}` → `QDRANT_URL`. */
export function envRowName(text: string): string {
  return text.trim().replace(/^export\s+/, '').replace(/^\$\{?/, '').replace(/\}$/, '').replace(/[=:].*$/s, '').trim();
}

/** A name shaped like an environment variable with a word separator: `QDRANT_URL`, `NEXT_PUBLIC_API`. */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** A one-word upper-case name (`PORT`, `DEBUG`): an env var only where the heading says so or the code reads it. */
const ENV_WORD = /^[A-Z][A-Z0-9]+$/;
/** A heading that says its rows are environment variables ("Environment variables", "Env vars", "`.env`", "Environment"). */
const ENV_HEADING = /\benv(?:ironment)?[\s_-]*var(?:iable)?s?\b|\benv\s+vars?\b|(?:^|\s)`?\.env\b|^\s*environment\s*$|\benvironment\s+(?:config(?:uration)?|settings|options)\b|\bconfigur\w+\s+(?:via|through|with|by|using)\s+(?:the\s+)?environment\b/i;

/** Whether a heading's text says its section lists environment variables. */
export function isEnvHeading(text: string): boolean {
  return ENV_HEADING.test(headingMatchText(text));
}

/** "environment variable" in the singular, which a heading over one variable's how-to says. */
const SINGULAR_ENV_VARIABLE = /\benv(?:ironment)?[\s_-]*var(?:iable)?\b(?!s)/i;
/** The same words in the plural. */
const PLURAL_ENV_VARIABLES = /\benv(?:ironment)?[\s_-]*var(?:iable)?s\b/i;

/**
 * Whether a heading says its section lists environment variables ({@link isEnvHeading}) other
 * than by the singular "environment variable" alone: "Environment variables", "`.env`" and
 * "Environment" do; "Default connectivity via environment variable" does not.
 */
export function isEnvListHeading(text: string): boolean {
  if (!isEnvHeading(text)) return false;
  const t = headingMatchText(text);
  if (!SINGULAR_ENV_VARIABLE.test(t) || PLURAL_ENV_VARIABLES.test(t)) return true;
  return ENV_HEADING.test(t.replace(SINGULAR_ENV_VARIABLE, ' '));
}

/** Rows of one layout in one block, and what was taken from the block for the env section. */
interface EnvRows {
  layout: ReferenceLayout;
  rows: ReferenceRow[];
}

/**
 * Whether rows name environment variables: under a heading that says so, at least half of them
 * are upper-case names; elsewhere two thirds at least are `WORD_WORD` names and one of them is a
 * variable the code reads (or the column is headed as one: "Variable", "Env"), so that a table of
 * constants or error codes is not taken for an env reference.
 */
function envShaped(rows: readonly ReferenceRow[], underEnvHeading: boolean, readByCode: (name: string) => boolean, header?: readonly string[]): boolean {
  if (rows.length === 0) return false;
  const names = rows.map((r) => envRowName(r.names[0] ?? r.rawName));
  if (underEnvHeading) {
    const shaped = names.filter((n) => ENV_NAME.test(n) || ENV_WORD.test(n)).length;
    return shaped * 2 >= names.length && shaped > 0;
  }
  const shaped = names.filter((n) => ENV_NAME.test(n)).length;
  if (shaped * 3 < names.length * 2) return false;
  const headed = header !== undefined && /\b(?:env|environment|variable|var)\b/i.test(header[0] ?? '');
  return headed || names.some(readByCode);
}

/**
 * Whether list items or parameter headings under a heading that does not say "environment" name
 * environment variables (`### \`LD_DB_HOST\`` per variable under "List of options", `` - `OIDC_RP_SCOPES` -
 * … `` bullets): two of them at least, two thirds `WORD_WORD` names, and at least two and half of
 * those read by the code. Stricter than a table (one read name), since lists and headings of
 * upper-case names are as often constants, error codes or enum members.
 */
function envRowsShaped(rows: readonly ReferenceRow[], readByCode: (name: string) => boolean): boolean {
  if (rows.length < 2) return false;
  const names = rows.map((r) => envRowName(r.names[0] ?? r.rawName));
  const shaped = names.filter((n) => ENV_NAME.test(n));
  if (shaped.length * 3 < names.length * 2) return false;
  const read = shaped.filter(readByCode).length;
  return read >= 2 && read * 2 >= shaped.length;
}

/**
 * Env rows named as users set them (`$X`, `X=…` → `X`). A row whose text goes on naming more
 * variables (`` - `NPM_USERNAME` and `NPM_PASSWORD` to set a Basic … ``) documents each.
 */
function asEnvRows(rows: readonly ReferenceRow[]): ReferenceRow[] {
  return rows.map((r) => {
    const name = envRowName(r.names[0] ?? r.rawName);
    const more: string[] = [];
    let rest = r.description ?? '';
    for (let m = ENV_FOLLOWERS.exec(rest); m && more.length < 8; m = ENV_FOLLOWERS.exec(rest)) {
      more.push(m[1]!);
      rest = rest.slice(m[0].length);
    }
    return { ...r, names: [name, ...more.filter((n) => n !== name)] };
  });
}

/** `and `B``, `, `C``, `/ `D`` at the start of a row's text: more variables the row names. */
const ENV_FOLLOWERS = /^\s*(?:and|or|,|\/)\s*`?\$?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`?/;

/** What {@link splitEnvSections} returns for one document. */
export interface EnvSplit {
  /** The document without the tables and rows taken for env sections: what the other sections are read from. */
  rest: DocFile;
  /** The env sections found in it (commands `[environment]`). */
  sections: ReferenceSection[];
}

/**
 * Finds a document's env sections and removes their rows from what the command sections are
 * read from. A heading block gives an env section when its heading (or a parent's) says
 * "Environment variables" (or matches the config's `env.sections`, `configured`) and its tables, lists or parameter headings are mostly upper-case
 * names, or, under any heading, when a table's names are env-shaped (see {@link envShaped}) or its
 * list items or parameter headings are mostly variables the code reads ({@link envRowsShaped}).
 * The sections are marked `inferred` (found by content): a reference listing under half of the
 * variables the code reads is a selection, and missing ones are not reported
 * (`partialReference`).
 */
export function splitEnvSections(doc: DocFile, readByCode: (name: string) => boolean, configured: (headingText: string) => boolean = () => false): EnvSplit {
  // A block's tables and rows include its nested blocks': each belongs to the innermost block
  // holding it (blocks come in document order, a nested block after its parent).
  const tableOwner = new Map<number, HeadingBlock>();
  const listOwner = new Map<number, HeadingBlock>();
  const headingOwner = new Map<number, HeadingBlock>();
  for (const block of doc.blocks) {
    for (const t of block.tables) tableOwner.set(t.location.line, block);
    for (const r of block.listRows ?? []) listOwner.set(r.location.line, block);
    for (const r of block.headingRows ?? []) headingOwner.set(r.location.line, block);
  }
  const sections: ReferenceSection[] = [];
  const takenLines = new Set<number>();
  const stack: HeadingBlock[] = [];
  for (const block of doc.blocks) {
    while (stack.length > 0 && !(block.heading.location.line > stack[stack.length - 1]!.heading.location.line && block.endLine <= stack[stack.length - 1]!.endLine)) stack.pop();
    const says = (b: HeadingBlock): boolean => isEnvHeading(b.heading.text) || configured(b.heading.text);
    const underEnv = says(block) || stack.some(says);
    stack.push(block);
    const taken: EnvRows[] = [];
    for (const table of block.tables) {
      if (tableOwner.get(table.location.line) !== block) continue;
      const rows = readEnvTable(table);
      if (rows && rows.length > 0 && envShaped(rows, underEnv, readByCode, table.header)) {
        taken.push({ layout: 'table', rows });
        takenLines.add(table.location.line);
      }
    }
    for (const [layout, all, owner] of [['list', block.listRows, listOwner], ['headings', block.headingRows, headingOwner]] as const) {
      const own = (all ?? []).filter((r) => owner.get(r.location.line) === block);
      if (own.length > 0 && (underEnv ? envShaped(own, true, readByCode) : envRowsShaped(own, readByCode))) {
        taken.push({ layout, rows: own });
        for (const r of own) takenLines.add(r.location.line);
      }
    }
    if (taken.length === 0) continue;
    // `### \`LD_ENABLE_OIDC\`` over a list of the variables it turns on: the heading's variable is
    // documented too (the heading is this section's, not a row of its parent's headings).
    const headingName = block.heading.codes.length === 1 ? envRowName(block.heading.codes[0]!) : undefined;
    const headingRow: ReferenceRow[] = headingName !== undefined && ENV_NAME.test(headingName) && !taken.some((t) => t.rows.some((r) => envRowName(r.names[0] ?? r.rawName) === headingName))
      ? [{ names: [headingName], rawName: block.heading.codes[0]!, links: [], location: block.heading.location }]
      : [];
    sections.push({
      file: doc.file,
      heading: block.heading,
      commands: [ENVIRONMENT_COMMAND],
      global: false,
      layout: [...taken].sort((a, b) => b.rows.length - a.rows.length)[0]!.layout,
      rows: asEnvRows([...headingRow, ...taken.flatMap((t) => t.rows)]).sort((a, b) => a.location.line - b.location.line),
      endLine: block.endLine,
      inferred: { evidence: underEnv ? 'its heading says it lists environment variables' : 'its rows name environment variables the code reads' },
    });
  }
  // Under a heading that says "Environment variables" with no table, list or heading rows docdrift
  // reads (`` - `COREPACK_ROOT` has no functional impact… ``, prose): the variables named in
  // inline code there are documented, and judged only for being missing.
  for (const block of doc.blocks) {
    // A how-to heading naming one variable ("Default connectivity via environment variable",
    // "Declaring the broadcast uri environment variable") says how to set it, not that the
    // section lists the variables: its names are documented by their sentences (`env-prose`).
    if (!(isEnvListHeading(block.heading.text) || configured(block.heading.text))) continue;
    if (sections.some((s) => s.heading.location.line >= block.heading.location.line && s.heading.location.line <= block.endLine)) continue;
    const names = [...new Set((block.codes ?? []).map(envRowName).filter((n) => ENV_NAME.test(n) || (ENV_WORD.test(n) && readByCode(n))))];
    if (names.length === 0) continue;
    sections.push({
      file: doc.file,
      heading: block.heading,
      commands: [ENVIRONMENT_COMMAND],
      global: false,
      layout: 'list',
      rows: names.map((n) => ({ names: [n], rawName: n, links: [], location: block.heading.location })),
      endLine: block.endLine,
      inferred: { evidence: 'its heading says it lists environment variables, named in inline code' },
      mentionsOnly: true,
    });
  }
  if (takenLines.size === 0) return { rest: doc, sections };
  const blocks = doc.blocks.map((block) => {
    const rest: HeadingBlock = { ...block, tables: block.tables.filter((t) => !takenLines.has(t.location.line)) };
    if (block.listRows) rest.listRows = block.listRows.filter((r) => !takenLines.has(r.location.line));
    if (block.headingRows) rest.headingRows = block.headingRows.filter((r) => !takenLines.has(r.location.line));
    return rest;
  });
  return { rest: { ...doc, blocks }, sections };
}


/**
 * The env section of a flag table's env column (`| --port | PORT | … |`), or of flag rows naming
 * their variable in a parenthesis (`` `--no-cache` … (`TS_NODE_CACHE`) ``): each row's variables,
 * with the row's position, so that a variable a flag is also read from counts as documented.
 * Undefined when no row of `section` has an env cell.
 */
export function envColumnSection(section: ReferenceSection): ReferenceSection | undefined {
  const rows: ReferenceRow[] = [];
  for (const row of section.rows) {
    // `` * `--no-cache` Disable the cache (`TS_NODE_CACHE`, default: `true`) ``: a flag row naming
    // its variable in a parenthesis, as a list writes an env column.
    const named = row.env ?? (/^\s*`?-/.test(row.rawName) ? /\(\s*`?\$?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`?\s*[,;)]/.exec(row.description ?? '')?.[1] : undefined);
    if (!named) continue;
    for (const name of named.match(/\$?\{?[A-Za-z_][A-Za-z0-9_]*\}?/g) ?? []) {
      const clean = envRowName(name);
      if (!ENV_NAME.test(clean) && !ENV_WORD.test(clean)) continue;
      rows.push({ names: [clean], rawName: clean, links: [], location: row.location, ...(row.description !== undefined ? { description: row.description } : {}) });
    }
  }
  if (rows.length === 0) return undefined;
  return { ...section, commands: [ENVIRONMENT_COMMAND], global: false, rows, inferred: { evidence: 'the env column of a flag table' } };
}

/**
 * The section of a `.env.example`-style file (rows from `parseEnvFile`, src/docs/env-file.ts).
 * Its values are samples (`DATABASE_URL=postgres://user:pass@localhost/db`), not defaults: rows
 * keep no `default`.
 */
export function envFileSection(file: string, rows: readonly ReferenceRow[], lines: number): ReferenceSection {
  const heading = { depth: 1 as const, text: file, codes: [], slug: '', location: { file, line: 1, column: 1 } };
  return {
    file,
    heading,
    commands: [ENVIRONMENT_COMMAND],
    global: false,
    layout: 'env-file',
    rows: rows.map((r) => {
      const { default: _sample, defaultLocation: _at, ...rest } = r;
      return { ...rest, names: [envRowName(r.names[0] ?? r.rawName)] };
    }),
    endLine: Math.max(lines, 1),
    inferred: { evidence: 'an example env file' },
  };
}

/** Last words of a package name that say what kind of package it is, not whose: `mineru-vl-utils` → `MINERU_VL`. */
const PACKAGE_KIND_WORDS = new Set(['UTILS', 'UTIL', 'SDK', 'CLIENT', 'CORE', 'COMMON', 'LIB', 'LIBS', 'PY', 'PYTHON', 'JS', 'TS', 'NODE', 'TOOLS', 'PLUGIN', 'EXTRAS']);

/**
 * The env namespaces (`MINERU_VL_`) of the sibling packages a project depends on: a dependency
 * not held in the repository (`local` names are skipped) whose name starts with a word of the
 * project's command names (`projectWords`) and has a second word once its kind words are dropped
 * (`mineru-vl-utils` → `MINERU_VL_`, `@karakeep/sdk-extra` → `KARAKEEP_SDK_EXTRA_`). Such a package
 * is the project's own code shipped apart: a documented variable in its namespace is read there,
 * out of docdrift's sight. A one-word namespace (`opal-common` → `OPAL`) would be the whole
 * project's, so none is given for it.
 */
export function dependencyEnvPrefixes(deps: { dependencies: readonly string[]; local: readonly string[] } | undefined, projectWords: ReadonlySet<string>): string[] {
  if (!deps) return [];
  const fold = (n: string): string => n.toLowerCase().replace(/[._-]+/g, '-');
  const local = new Set(deps.local.map(fold));
  const out = new Set<string>();
  for (const dep of deps.dependencies) {
    if (local.has(fold(dep))) continue;
    const words = dep.toUpperCase().split(/[^A-Z0-9]+/).filter((w) => w !== '');
    while (words.length > 1 && PACKAGE_KIND_WORDS.has(words[words.length - 1]!)) words.pop();
    if (words.length < 2 || !projectWords.has(words[0]!)) continue;
    out.add(`${words.join('_')}_`);
  }
  return [...out].sort();
}

/**
 * A private variable by naming convention: a double underscore after the first word
 * (`PIPX__DOC_DEFAULT_PYTHON`, which pipx's man-page script sets) or a leading underscore
 * (`_PIPX_COMPLETE`). Read by a bare `os.environ`/`process.env` access only: a settings class's
 * nested names (`APP_DB__HOST`, pydantic's `env_nested_delimiter`) are users' settings.
 */
export function isPrivateEnvName(name: string): boolean {
  return /^_|^[A-Za-z0-9]+__/.test(name);
}

/** Words that mark a developer's switch: debugging, tracing, a test mode, the project's own demo instance. */
const DEVELOPER_WORDS = new Set(['DEBUG', 'TRACE', 'TEST', 'TESTS', 'TESTING', 'DEMO']);

/**
 * A developer's switch: a variable with the word `DEBUG`, `TRACE`, `TEST`, `TESTING` or `DEMO`
 * (`TS_NODE_DEBUG`, `MINERU_SEAL_OCR_DEBUG_DIR`, `GEMINI_CLI_INTEGRATION_TEST`, mealie's `IS_DEMO`
 * for its public demo).
 */
export function isDebugSwitch(name: string): boolean {
  return name.toUpperCase().split('_').some((w) => DEVELOPER_WORDS.has(w));
}

/**
 * The `environment` command with the variables no env reference is expected to carry marked
 * `undemanded` (known, counted, checked where documented, never demanded): a developer's switch
 * ({@link isDebugSwitch}: ts-node's `TS_NODE_DEBUG` gates a logger for its maintainers), and another
 * program's variable the code peeks at ({@link vendorNamespace}: MinerU reads vLLM's `VLLM_USE_V1`
 * and Gradio's `GRADIO_ALLOWED_PATHS`) when no env section documents a variable of that namespace.
 * A reference that documents `GITHUB_TOKEN` still owes a row to `GITHUB_REPO`. A private name
 * ({@link isPrivateEnvName}) read by a bare access is a developer's too.
 *
 * @param projectWords upper-case words of the project's command names (see {@link vendorNamespace})
 */
export function quietEnvParams(cmd: CommandSpec | undefined, sections: readonly ReferenceSection[], projectWords: ReadonlySet<string>): CommandSpec | undefined {
  if (!cmd) return undefined;
  const documented = new Set(sections.flatMap((s) => s.rows.flatMap((r) => r.names)).map((n) => n.split('_')[0]!.toUpperCase()));
  // With no env section at all nothing is demanded: the run note lists what the code reads.
  if (sections.length === 0) return cmd;
  const params = cmd.params.map((p): ParamSpec => {
    if (p.hidden) return p;
    if (isDebugSwitch(p.name) || (isPrivateEnvName(p.name) && (p.envSource ?? 'read') === 'read')) return { ...p, undemanded: 'developer' };
    if (vendorNamespace(p.name, projectWords) && !documented.has(p.name.split('_')[0]!.toUpperCase())) return { ...p, undemanded: 'vendor' };
    return p;
  });
  return { ...cmd, params };
}

/**
 * How far a documented or example variable that the code does not read can be called unknown
 * (see `Model.envNameStatus`): `own` in the project's namespace (it shares its first word with a
 * variable the code reads, `QDRANT_SEARCH_LIM` beside `QDRANT_URL`); `foreign` for a variable
 * some other program may read (`OPENAI_API_KEY` passed to an SDK, `CUDA_VISIBLE_DEVICES`), drift
 * only as a near miss; `excluded` for a well-known one, one named after a CLI flag or config
 * field of a command behind a prefix of one or two words (`flagNamed`, given folded names:
 * `AIDER_DARK_MODE` for `--dark-mode`), one a computed read may produce
 * (`os.environ[PREFIX + key]`; `` process.env[`${p}_CLIENT_ID`] `` for a head the reading file holds
 * as a string, `"OIDC"`), or one the code mentions anywhere (`mentioned`: a word of its text).
 * `supplied` ({@link suppliedEnvNames}): variables the project supplies itself, whose hidden
 * parameters still show its namespace.
  * A CI runner's variable (`GITHUB_REPOSITORY`) is `foreign`, not `excluded`: an example that sets
 * one is checked as a near miss. A first word of another program's namespace ({@link vendorNamespace}:
 * `VLLM_`, `AWS_`) is never `own` unless `projectWords` (the upper-case first word of each command
 * name) holds it. `dependencyPrefixes` ({@link dependencyEnvPrefixes}): namespaces of sibling packages
 * the project depends on, whose variables are `foreign`.
 */
export function envNameStatus(name: string, cmd: CommandSpec, dynamic: readonly DynamicEnvRead[], mentioned: (name: string) => boolean, flagNamed: (folded: string) => boolean = () => false, supplied: ReadonlySet<string> = new Set(), projectWords: ReadonlySet<string> = new Set(), dependencyPrefixes: readonly string[] = []): EnvNameStatus {
  if (mentioned(name)) return 'excluded';
  // A CI runner's variable that a document sets is a near miss at most (`GITHUB_REPOSITORY` for `GITHUB_REPO`).
  if (isWellKnownEnv(name)) return CI_RUNNER_RE.test(name) ? 'foreign' : 'excluded';
  // `AIDER_DARK_MODE` beside a `--dark-mode` flag: a framework derives the flag's variable
  // (configargparse `auto_env_var_prefix`, click `auto_envvar_prefix`, yargs `.env()`), whether or
  // not docdrift read the prefix.
  const parts = name.split('_');
  for (let i = 1; i < Math.min(parts.length, 3); i++) if (flagNamed(foldSpelling(parts.slice(i).join('_')))) return 'excluded';
  // A computed name with a literal start (`os.environ["APP_" + key]`) may be any variable so
  // spelled. One with none (`process.env[varName]`, an env substitution in config values) is
  // not taken to read a documented variable: a name the code holds anywhere (`{ port: 'APP_PORT' }`)
  // is already `mentioned`, and one it holds nowhere could only come from its users' input.
  // Looked up in an index of the reads built once per `dynamic` list: a scan of every read per
  // name, folding both, cost names x reads (8,000 `os.environ.get("ZP<i>_" + k)` reads, 8,000
  // exported names: rules 10.3 s -> 0.13 s, s28 sweep2 D3).
  const reads = dynamicReadIndexOf(dynamic);
  if (reads.producesPrefixOf(name) || reads.producesHeadSuffix(name)) return 'excluded';
  const first = name.split('_')[0]!;
  if (first.length < 2 || first === name || vendorNamespace(name, projectWords)) return 'foreign';
  // `MINERU_VL_API_KEY` beside a dependency on `mineru-vl-utils`: the sibling package reads it.
  if (dependencyPrefixes.some((p) => name.startsWith(p))) return 'foreign';
  // A variable the project supplies itself (`CLI_VERSION` set by its image) is hidden, yet it marks
  // the project's namespace as well as one its users set (`CLI_TITLE` beside it is its own).
  // Counted once per parameter list (see namespaceCountsOf): a scan of the parameters per name
  // cost names x parameters (8,000 fields, 8,000 exported names: rules 19.8 s -> 2.8 s with the
  // abbreviation index of names.ts, the rest being the bounded "did you mean" search; s28 sweep2 D2).
  const counts = namespaceCountsOf(cmd.params, supplied);
  return (counts.byFirstWord.get(first) ?? 0) > (counts.byName.get(name) ?? 0) ? 'own' : 'foreign';
}

/** The parameters that mark the project's namespace, counted by first word and by name ({@link namespaceCountsOf}). */
interface NamespaceCounts {
  /** The parameter list and its length when counted: a list grown since is counted again. */
  length: number;
  /** How many evidence parameters have each first word (`QDRANT` of `QDRANT_URL`). */
  byFirstWord: Map<string, number>;
  /** How many evidence parameters have each name (excluded when the name asked about is that one). */
  byName: Map<string, number>;
}

const namespaceCounts = new WeakMap<readonly ParamSpec[], WeakMap<ReadonlySet<string>, NamespaceCounts>>();

/**
 * Counts of the parameters of `params` that are evidence of the project's namespace (not hidden,
 * or supplied by the project and not well-known, see {@link envNameStatus}), by first word of the
 * name and by name. A name is `own` when more evidence parameters share its first word than carry
 * it: the same as "some evidence parameter other than the name shares its first word". Counted
 * once per (params array, supplied set) and again when the array's length changed (s29: was a
 * scan of the parameters with a `split` per name, names x parameters: 8,000 fields, 8,000
 * exported names, rules 19.8 s, s28 sweep2 D2).
 */
function namespaceCountsOf(params: readonly ParamSpec[], supplied: ReadonlySet<string>): NamespaceCounts {
  let bySupplied = namespaceCounts.get(params);
  if (!bySupplied) namespaceCounts.set(params, (bySupplied = new WeakMap()));
  let counts = bySupplied.get(supplied);
  if (counts?.length === params.length) return counts;
  counts = { length: params.length, byFirstWord: new Map(), byName: new Map() };
  for (const p of params) {
    if (p.hidden && !(supplied.has(p.name) && !isWellKnownEnv(p.name))) continue;
    const first = p.name.split('_', 1)[0]!;
    counts.byFirstWord.set(first, (counts.byFirstWord.get(first) ?? 0) + 1);
    counts.byName.set(p.name, (counts.byName.get(p.name) ?? 0) + 1);
  }
  bySupplied.set(supplied, counts);
  return counts;
}

/** Computed env reads indexed for {@link envNameStatus} (see {@link dynamicReadIndexOf}). */
interface DynamicReadIndex {
  /** Whether a read with a literal start may produce `name` (its folded spelling starts with the read's folded prefix). */
  producesPrefixOf(name: string): boolean;
  /** Whether a read with a literal end and known heads produces `name` exactly (`OIDC` + `_CLIENT_ID`). */
  producesHeadSuffix(name: string): boolean;
}

const dynamicReadIndexes = new WeakMap<readonly DynamicEnvRead[], { length: number; index: DynamicReadIndex }>();

/**
 * The computed reads of `dynamic` indexed once per list (again if its length changed): the
 * folded non-empty prefixes in a Set with their distinct lengths, so a name is tested by its
 * folded start at each such length; the heads by suffix, so a name is tested by its end at each
 * suffix length. Same answers as testing every read (`name.startsWith(prefix)` implies the folded
 * test, so the folded test alone decides; `name.slice(0, -0)` is `''`, kept for an empty suffix).
 * s29: was every read per name with `foldSpelling` of both (8,000 reads x 8,000 names: rules
 * 10.3 s -> 0.13 s, s28 sweep2 D3).
 */
function dynamicReadIndexOf(dynamic: readonly DynamicEnvRead[]): DynamicReadIndex {
  const cached = dynamicReadIndexes.get(dynamic);
  if (cached?.length === dynamic.length) return cached.index;
  const prefixes = new Set<string>();
  const headsBySuffix = new Map<string, Set<string>>();
  for (const d of dynamic) {
    if (d.prefix !== '') prefixes.add(foldSpelling(d.prefix));
    if (d.suffix === undefined) continue;
    let heads = headsBySuffix.get(d.suffix);
    if (!heads) headsBySuffix.set(d.suffix, (heads = new Set()));
    for (const h of d.heads ?? []) heads.add(h);
  }
  const prefixLengths = [...new Set([...prefixes].map((p) => p.length))].sort((a, b) => a - b);
  const suffixLengths = [...new Set([...headsBySuffix.keys()].map((s) => s.length))].sort((a, b) => a - b);
  const index: DynamicReadIndex = {
    producesPrefixOf: (name) => {
      if (prefixes.size === 0) return false;
      const folded = foldSpelling(name);
      for (const n of prefixLengths) {
        if (n > folded.length) break;
        if (prefixes.has(folded.slice(0, n))) return true;
      }
      return false;
    },
    producesHeadSuffix: (name) => {
      for (const n of suffixLengths) {
        if (n >= name.length) break;
        if (headsBySuffix.get(n === 0 ? '' : name.slice(-n))?.has(name.slice(0, -n))) return true;
      }
      return false;
    },
  };
  dynamicReadIndexes.set(dynamic, { length: dynamic.length, index });
  return index;
}

/**
 * Heading patterns (`createHeadingMatcher` syntax) that make a page worth parsing for its env
 * section even when it names no command: "Environment variables", "Env vars", "`.env`".
 */
export const ENV_HEADING_PATTERNS: readonly string[] = ['*environment variable*', '*env var*', '*env variable*', 'environment', '*.env*', '*environment config*', '*environment settings*'];

/**
 * Names of variables the code reads that make a page mentioning one worth parsing: multi-word
 * (`QDRANT_URL`), not well-known, read outside tooling files. Sorted, distinct.
 */
export function envMentionNames(env: EnvExtraction): string[] {
  const out = new Set<string>();
  for (const v of env.vars) {
    const name = userSpelling(v);
    if (name.includes('_') && name.length >= 4 && !isWellKnownEnv(name) && !isToolingFile(v.location.file)) out.add(name);
  }
  return [...out].sort();
}

