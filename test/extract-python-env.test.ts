/** Environment variables in Python code (issue #31): pydantic-settings fields, os.environ/os.getenv reads, click/typer envvar ties. */
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempProject } from './helpers.js';
import { extractPython, type PythonSource } from '../src/extract/python/index.js';
import type { EnvExtraction, ParamSpec } from '../src/model/types.js';

function py(file: string, text: string): PythonSource {
  return { file, text: text.replace(/^\n/, '') };
}

async function envOf(...sources: PythonSource[]): Promise<EnvExtraction> {
  return (await extractPython(sources)).env;
}

/** name → the spec's interesting keys, for compact assertions. */
function byName(env: EnvExtraction): Record<string, Partial<ParamSpec>> {
  const out: Record<string, Partial<ParamSpec>> = {};
  for (const v of env.vars) {
    const { location, deprecated: _d, hidden: _h, origin: _o, ...rest } = v;
    out[v.name] = { ...rest, location: { file: location.file, line: location.line, column: location.column } };
  }
  return out;
}

describe('pydantic-settings classes', () => {
  it('reads env_prefix + field name, case-insensitive by default, with type, default, description and required', async () => {
    const env = await envOf(
      py(
        'app/settings.py',
        `
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="QDRANT_", env_file=".env")

    url: str = "http://localhost:6333"
    """Where the Qdrant server listens."""
    api_key: str | None = None
    search_limit: int = Field(default=10, description="How many hits a search returns.")
    collection: str
    tags: list[str] = Field(default_factory=list)
    timeout: float = 2 * 5
`,
      ),
    );
    const vars = byName(env);
    expect(Object.keys(vars)).toEqual(['QDRANT_URL', 'QDRANT_API_KEY', 'QDRANT_SEARCH_LIMIT', 'QDRANT_COLLECTION', 'QDRANT_TAGS', 'QDRANT_TIMEOUT']);
    expect(vars['QDRANT_URL']).toEqual({
      name: 'QDRANT_URL',
      aliases: [],
      type: 'str',
      default: { kind: 'literal', text: '"http://localhost:6333"' },
      required: false,
      description: 'Where the Qdrant server listens.',
      owner: 'app.settings.Settings',
      location: { file: 'app/settings.py', line: 8, column: 5 },
      dest: 'url',
      envSource: 'settings',
      envCaseInsensitive: true,
    });
    expect(vars['QDRANT_SEARCH_LIMIT']).toMatchObject({ type: 'int', default: { kind: 'literal', text: '10' }, description: 'How many hits a search returns.' });
    expect(vars['QDRANT_COLLECTION']).toMatchObject({ required: true });
    expect(vars['QDRANT_COLLECTION']?.default).toBeUndefined();
    expect(vars['QDRANT_TAGS']?.default).toEqual({ kind: 'factory', text: 'list' });
    expect(vars['QDRANT_TIMEOUT']?.default).toEqual({ kind: 'expression', text: '2 * 5' });
    expect(env.dynamic).toEqual([]);
  });

  it('uses validation_alias / alias / AliasChoices without the prefix, and the v1 Field(env=…)', async () => {
    const env = await envOf(
      py(
        'svc/config.py',
        `
from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="svc_")

    auth_key: str = Field(validation_alias="my_auth_key")
    api_key: str = Field("k", alias="MY_API_KEY")
    redis_dsn: str = Field("redis://", validation_alias=AliasChoices("SERVICE_REDIS_DSN", "REDIS_URL"))
    both: str = Field("x", alias="IGNORED_ALIAS", validation_alias="WINS")
    plain: int = 1
`,
      ),
      py(
        'svc/legacy.py',
        `
from pydantic import BaseSettings, Field


class Legacy(BaseSettings):
    token: str = Field(..., env="LEGACY_TOKEN")
    hosts: list[str] = Field([], env=["LEGACY_HOSTS", "HOSTS"])

    class Config:
        env_prefix = "LEGACY_"
        case_sensitive = True

    level: str = "info"
`,
      ),
    );
    const vars = byName(env);
    expect(vars['my_auth_key']).toMatchObject({ aliases: [], dest: 'auth_key', required: true, envCaseInsensitive: true });
    expect(vars['MY_API_KEY']).toMatchObject({ dest: 'api_key' });
    expect(vars['SERVICE_REDIS_DSN']).toMatchObject({ aliases: ['REDIS_URL'], dest: 'redis_dsn' });
    expect(vars['WINS']).toMatchObject({ dest: 'both' });
    expect(vars['SVC_PLAIN']).toMatchObject({ dest: 'plain', owner: 'svc.config.Settings' });
    expect(vars['LEGACY_TOKEN']).toMatchObject({ dest: 'token', required: true, owner: 'svc.legacy.Legacy' });
    expect(vars['LEGACY_TOKEN']?.envCaseInsensitive).toBeUndefined();
    expect(vars['LEGACY_HOSTS']).toMatchObject({ aliases: ['HOSTS'] });
    // case_sensitive=True keeps the field name's case after the prefix.
    expect(vars['LEGACY_level']).toMatchObject({ dest: 'level' });
    expect(Object.keys(vars)).not.toContain('IGNORED_ALIAS');
  });

  it('follows project bases, class keyword config and populate_by_name, and constants as the prefix', async () => {
    const env = await envOf(
      py('core/consts.py', 'APP_PREFIX = "APP_"\n'),
      py(
        'core/base.py',
        `
from pydantic_settings import BaseSettings, SettingsConfigDict
from core.consts import APP_PREFIX


class AppSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=APP_PREFIX, populate_by_name=True)

    debug: bool = False
`,
      ),
      py(
        'core/web.py',
        `
from pydantic import Field
from core.base import AppSettings


class WebSettings(AppSettings):
    port: int = Field(8000, alias="PORT")


class Other(AppSettings, env_prefix="OTHER_"):
    name: str = "x"
`,
      ),
    );
    const web = env.vars.filter((v) => v.owner === 'core.web.WebSettings').map((v) => [v.name, v.aliases]);
    expect(web).toEqual([['APP_DEBUG', []], ['PORT', ['APP_PORT']]]);
    const other = env.vars.filter((v) => v.owner === 'core.web.Other').map((v) => v.name);
    expect(other).toEqual(['OTHER_DEBUG', 'OTHER_NAME']);
    expect(env.vars.filter((v) => v.owner === 'core.base.AppSettings').map((v) => v.name)).toEqual(['APP_DEBUG']);
  });

  it('spells nested models with env_nested_delimiter (and the whole model as JSON)', async () => {
    const env = await envOf(
      py(
        'app/settings.py',
        `
from typing import Optional
from pydantic import BaseModel
from pydantic_settings import BaseSettings, SettingsConfigDict


class Pool(BaseModel):
    size: int = 5


class Database(BaseModel):
    host: str = "localhost"
    port: int
    pool: Pool = Pool()


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="APP_", env_nested_delimiter="__")

    db: Optional[Database] = None


class NoDelimiter(BaseSettings):
    db: Database
`,
      ),
    );
    const settings = env.vars.filter((v) => v.owner === 'app.settings.Settings').map((v) => [v.name, v.dest, v.required]);
    expect(settings).toEqual([
      ['APP_DB', 'db', false],
      ['APP_DB__HOST', 'db.host', false],
      ['APP_DB__PORT', 'db.port', false],
      ['APP_DB__POOL', 'db.pool', false],
      ['APP_DB__POOL__SIZE', 'db.pool.size', false],
    ]);
    expect(env.vars.filter((v) => v.owner === 'app.settings.NoDelimiter').map((v) => [v.name, v.required])).toEqual([['DB', true]]);
    // Plain BaseModel classes are not read from the environment.
    expect(env.vars.some((v) => v.owner === 'app.settings.Database')).toBe(false);
  });
});

describe('direct reads', () => {
  it('reads os.environ[...] / .get / .setdefault / in, os.getenv, imported environ/getenv, with defaults', async () => {
    const env = await envOf(
      py(
        'tool/config.py',
        `
import os
from os import environ, getenv as ge

DEBUG = os.environ.get("TOOL_DEBUG", "0") == "1"
TOKEN = os.environ["TOOL_TOKEN"]
HOME_DIR = os.getenv("TOOL_HOME", default="~/.tool")
WORKERS = int(os.getenv("TOOL_WORKERS", "5"))
RATE = float(environ.get("TOOL_RATE") or 0.5)
REGION = ge("TOOL_REGION")


def setup():
    os.environ.setdefault("TOOL_CACHE", "/tmp/cache")
    if "TOOL_TRACE" in os.environ:
        pass
    if "TOOL_QUIET" not in environ:
        pass
    os.environ["TOOL_WRITTEN"] = "1"
    del os.environ["TOOL_DELETED"]
    env = dict(os.environ)
    return env
`,
      ),
    );
    const vars = byName(env);
    expect(Object.keys(vars)).toEqual(['TOOL_DEBUG', 'TOOL_TOKEN', 'TOOL_HOME', 'TOOL_WORKERS', 'TOOL_RATE', 'TOOL_REGION', 'TOOL_CACHE', 'TOOL_TRACE', 'TOOL_QUIET']);
    expect(vars['TOOL_DEBUG']).toEqual({
      name: 'TOOL_DEBUG',
      aliases: [],
      default: { kind: 'literal', text: '"0"' },
      required: false,
      owner: 'tool.config',
      location: { file: 'tool/config.py', line: 4, column: 24 },
      envSource: 'read',
    });
    expect(vars['TOOL_TOKEN']).toMatchObject({ required: true, location: { line: 5, column: 20 } });
    expect(vars['TOOL_HOME']?.default).toEqual({ kind: 'literal', text: '"~/.tool"' });
    expect(vars['TOOL_WORKERS']).toMatchObject({ type: 'int', default: { kind: 'literal', text: '"5"' } });
    expect(vars['TOOL_RATE']).toMatchObject({ type: 'float', default: { kind: 'literal', text: '0.5' } });
    expect(vars['TOOL_REGION']).toMatchObject({ required: false });
    expect(vars['TOOL_CACHE']?.default).toEqual({ kind: 'literal', text: '"/tmp/cache"' });
    expect(vars['TOOL_TRACE']).toMatchObject({ required: false });
    expect(env.dynamic).toEqual([]);
  });

  it('resolves names given by constants (same module, class attributes, other modules) and reports computed names as dynamic', async () => {
    const env = await envOf(
      py('pkg/__init__.py', ''),
      py('pkg/names.py', 'TOKEN_VAR = "PKG_TOKEN"\n\nclass Env:\n    HOST = "PKG_HOST"\n'),
      py(
        'pkg/main.py',
        `
import os
from pkg import names
from pkg.names import TOKEN_VAR, Env

ENV_VAR = "PKG_LEVEL"
PREFIX = "PKG_"


class Keys:
    PORT = "PKG_PORT"


def load(key, name):
    a = os.getenv(ENV_VAR, "info")
    b = os.getenv(TOKEN_VAR)
    c = os.environ.get(names.TOKEN_VAR)
    d = os.environ[Keys.PORT]
    e = os.getenv(Env.HOST)
    f = os.getenv(PREFIX + "MODE")
    g = os.getenv(f"{PREFIX}COLOR")
    h = os.environ[PREFIX + key.upper()]
    i = os.getenv(f"PKG_{key}_URL")
    j = os.environ.get(name)
    k = os.getenv("PKG_%s" % key)
    return a, b, c, d, e, f, g, h, i, j, k
`,
      ),
    );
    expect(env.vars.map((v) => v.name)).toEqual(['PKG_LEVEL', 'PKG_TOKEN', 'PKG_TOKEN', 'PKG_PORT', 'PKG_HOST', 'PKG_MODE', 'PKG_COLOR']);
    expect(env.vars[0]).toMatchObject({ default: { kind: 'literal', text: '"info"' }, owner: 'pkg.main', location: { file: 'pkg/main.py', line: 14, column: 19 } });
    expect(env.dynamic.map((d) => [d.prefix, d.construct])).toEqual([
      ['PKG_', 'os.environ[PREFIX + key.upper()]'],
      ['PKG_', 'os.getenv(f"PKG_{key}_URL")'],
      ['', 'os.environ.get(name)'],
      ['PKG_', 'os.getenv("PKG_%s" % key)'],
    ]);
    expect(env.dynamic[0]?.location).toMatchObject({ file: 'pkg/main.py', line: 21, column: 20 });
  });

  it('reads helpers whose parameter names the variable at their call sites, in any module', async () => {
    const env = await envOf(
      py(
        'svc/env.py',
        `
import os


def env_int(name: str, default: int) -> int:
    try:
        return int(os.getenv(name, default))
    except (TypeError, ValueError):
        return default


def env_flag(name):
    return os.environ.get(name, "0") == "1"


def unused_helper(key):
    return os.environ[key]


PORT = env_int("SVC_PORT", 8000)
`,
      ),
      py(
        'svc/main.py',
        `
from svc.env import env_flag, env_int
from svc import env

WORKERS = env_int("SVC_WORKERS", default=4)
DEBUG = env_flag("SVC_DEBUG")
TRACE = env.env_flag(name="SVC_TRACE")
print("NOT_A_READ")
`,
      ),
    );
    expect(env.vars.map((v) => [v.name, v.type, v.default?.text, v.owner, v.location.line])).toEqual([
      ['SVC_PORT', 'int', '8000', 'svc.env', 19],
      ['SVC_WORKERS', 'int', '4', 'svc.main', 4],
      ['SVC_DEBUG', undefined, '"0"', 'svc.main', 5],
      ['SVC_TRACE', undefined, '"0"', 'svc.main', 6],
    ]);
    // The helper nobody calls with a literal name stays a computed read.
    expect(env.dynamic.map((d) => d.construct)).toEqual(['os.environ[key]']);
  });

  it('reads helpers that add literal text to the name they are given (healthchecks envsecret: NAME_FILE, then NAME)', async () => {
    const env = await envOf(
      py(
        'hc/settings.py',
        `
import os


def envsecret(s, default=None):
    if secret_path := os.getenv(s + "_FILE"):
        with open(secret_path) as f:
            return f.read()
    return os.getenv(s, default)


def app_var(key, default=None):
    return os.environ.get(f"APP_{key}", default)


def legacy(key):
    return os.getenv("OLD_" + key)


SECRET_KEY = envsecret("SECRET_KEY", "---")
TWILIO_AUTH = envsecret("TWILIO_AUTH")
MODE = app_var("MODE", "dev")
LEGACY = legacy("PATH_LIST")
`,
      ),
    );
    expect(env.vars.map((v) => [v.name, v.default?.text, v.location.line]).sort()).toEqual([
      ['APP_MODE', '"dev"', 21],
      ['OLD_PATH_LIST', undefined, 22],
      ['SECRET_KEY', '"---"', 19],
      ['SECRET_KEY_FILE', undefined, 19],
      ['TWILIO_AUTH', undefined, 20],
      ['TWILIO_AUTH_FILE', undefined, 20],
    ]);
    expect(env.dynamic).toEqual([]);
  });

  it('reads local variables holding names: literal assignments, conditional values, loops over literal tuples', async () => {
    const env = await envOf(
      py(
        'job/run.py',
        `
import os


def masters(n, task_id, passthrough):
    for i in range(n):
        env_var = f"SLURM_MASTER_NODE_HET_GROUP_{i}"
        os.environ[env_var]
    cache_env: str | None = None
    if task_id:
        cache_env = "OW_CACHE" if task_id.startswith("ow-") else "OSWORLD_CACHE"
    root = os.environ.get(cache_env, "")
    for key in ("HF_HOME", "HF_HUB_OFFLINE"):
        if os.environ.get(key):
            pass
    flags = {k: os.getenv(k) for k in ["JOB_A", "JOB_B"]}
    for var in passthrough:
        os.environ.get(var)
    return root, flags
`,
      ),
    );
    expect(env.vars.map((v) => [v.name, v.location.line])).toEqual([
      ['OW_CACHE', 11],
      ['OSWORLD_CACHE', 11],
      ['HF_HOME', 13],
      ['HF_HUB_OFFLINE', 13],
      ['JOB_A', 15],
      ['JOB_B', 15],
    ]);
    expect(env.dynamic.map((d) => [d.prefix, d.construct])).toEqual([
      ['SLURM_MASTER_NODE_HET_GROUP_', 'os.environ[env_var]'],
      ['', 'os.environ.get(var)'],
    ]);
  });

  it('ignores names that are not the os module’s environment', async () => {
    const env = await envOf(
      py(
        'x.py',
        `
import config as os
from mylib import getenv

environ = {}
a = environ.get("NOT_ENV")
b = getenv("NOT_ENV_EITHER")
c = os.environ["NOPE"]
`,
      ),
    );
    expect(env).toEqual({ vars: [], dynamic: [] });
  });

  it('reads `os` bound inside a function and aliased imports', async () => {
    const env = await envOf(
      py(
        'y.py',
        `
def main():
    import os as _os
    return _os.environ.get("Y_FLAG")
`,
      ),
    );
    expect(env.vars.map((v) => v.name)).toEqual(['Y_FLAG']);
  });
});

describe('writes: variables the code supplies itself (internal)', () => {
  it('takes os.environ[K] = v, os.environ.update(...), os.putenv; not setdefault, del, pop, += nor computed names', async () => {
    const env = await envOf(
      py(
        'app/__main__.py',
        `
import os
from os import environ, putenv

SQLITE_VAR = "APP_SQLITE_FILE"


def main(options):
    os.environ["APP_DEBUG"] = str(options.debug)
    os.environ[SQLITE_VAR] = options.db
    environ.update(APP_MAX_POLLS="10", APP_URL_PREFIX=options.prefix)
    os.environ.update({"APP_SECRET_KEY": "k"})
    os.environ.update(dict(APP_WORKERS="2"))
    putenv("APP_PUT", "1")
    a = os.environ["APP_CHAINED"] = "x"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "app.settings")
    del os.environ["APP_DELETED"]
    os.environ.pop("APP_POPPED", None)
    os.environ["PATH"] += ":/opt"
    os.environ[f"APP_{options.name}"] = "computed"
    return a
`,
      ),
    );
    expect((env.internal ?? []).map((v) => [v.name, v.location.line, v.location.column, v.reason])).toEqual([
      ['APP_DEBUG', 8, 16, 'written by the code (app/__main__.py:8)'],
      ['APP_SQLITE_FILE', 9, 16, 'written by the code (app/__main__.py:9)'],
      ['APP_MAX_POLLS', 10, 20, 'written by the code (app/__main__.py:10)'],
      ['APP_URL_PREFIX', 10, 40, 'written by the code (app/__main__.py:10)'],
      ['APP_SECRET_KEY', 11, 24, 'written by the code (app/__main__.py:11)'],
      ['APP_WORKERS', 12, 28, 'written by the code (app/__main__.py:12)'],
      ['APP_PUT', 13, 12, 'written by the code (app/__main__.py:13)'],
      ['APP_CHAINED', 14, 20, 'written by the code (app/__main__.py:14)'],
    ]);
    // setdefault stays a read with a default (users may still set the variable); writes (and `+=`) are no reads.
    expect(env.vars.map((v) => v.name)).toEqual(['DJANGO_SETTINGS_MODULE']);
  });

  it('gives no internal list when nothing is written', async () => {
    expect((await envOf(py('a.py', 'import os\nX = os.getenv("APP_X")\n'))).internal).toBeUndefined();
  });

  it('takes keys set to a constant in a copy of the environment for a child (fastmcp, MinerU), not values passed on', async () => {
    const env = await envOf(
      py(
        'app/spawn.py',
        `
import os


def child(root, extra):
    env = os.environ.copy()
    env["APP_NO_ACCESS_LOG"] = "1"
    env["APP_ROOT"] = str(root)
    return env


def uv_env(extra):
    a = dict(os.environ.items()) | extra | {"APP_UV_SPAWNED": "1", "APP_PASSED": extra["x"]}
    b = os.environ | {"APP_PIPED": True}
    c = {**os.environ, "APP_SPLAT": 2, "APP_FROM_USER": extra["y"]}
    other = {}
    other["APP_NOT_A_COPY"] = "1"
    return a, b, c, other
`,
      ),
    );
    expect((env.internal ?? []).map((v) => [v.name, v.location.line])).toEqual([
      ['APP_NO_ACCESS_LOG', 6],
      ['APP_UV_SPAWNED', 12],
      ['APP_PIPED', 13],
      ['APP_SPLAT', 14],
    ]);
  });
});

describe('CLI flags tied to environment variables', () => {
  it('reads click envvar= (a name, a list, a constant) and auto_envvar_prefix, per sub-command', async () => {
    const { extractPythonFlags } = await import('../src/extract/python/flags.js');
    const { flagEnvVars } = await import('../src/extract/python/env.js');
    const cli = py(
      'tool/cli.py',
      `
import click

TOKEN_VAR = "TOOL_TOKEN"


@click.group(context_settings=dict(auto_envvar_prefix="tool"))
@click.option("--config", "-c", envvar=["TOOL_CONFIG", "TOOLRC"], help="Config file.")
def cli(config):
    pass


@cli.command("sync-all")
@click.option("--dry-run", is_flag=True)
@click.option("--token", envvar=TOKEN_VAR)
@click.argument("path")
def sync(dry_run, token, path):
    pass


@click.command()
@click.option("--port", type=int, default=8000)
def serve(port):
    pass


if __name__ == "__main__":
    serve(auto_envvar_prefix="SRV")
`,
    );
    const { commands } = await extractPythonFlags([cli]);
    const envOfFlags = (path: string[], target: string) =>
      Object.fromEntries(commands.find((c) => c.path.join(' ') === path.join(' ') && c.target === target)!.params.map((p) => [p.name, p.envVars]));
    expect(envOfFlags([], 'tool.cli:cli')).toEqual({ config: ['TOOL_CONFIG', 'TOOLRC'] });
    expect(envOfFlags(['sync-all'], 'tool.cli:cli')).toEqual({ 'dry-run': ['TOOL_SYNC_ALL_DRY_RUN'], token: ['TOOL_TOKEN', 'TOOL_SYNC_ALL_TOKEN'], path: undefined });
    expect(envOfFlags([], 'tool.cli:serve')).toEqual({ port: ['SRV_PORT'] });
    const env = flagEnvVars(commands.filter((c) => c.target === 'tool.cli:cli' || c.target === 'tool.cli:serve'));
    expect(env.map((v) => [v.name, v.aliases, v.dest, v.owner])).toEqual([
      ['TOOL_CONFIG', ['TOOLRC'], 'config', 'tool.cli:cli'],
      ['TOOL_SYNC_ALL_DRY_RUN', [], 'dry-run', 'tool.cli:cli'],
      ['TOOL_TOKEN', ['TOOL_SYNC_ALL_TOKEN'], 'token', 'tool.cli:cli'],
      ['SRV_PORT', [], 'port', 'tool.cli:serve'],
    ]);
    expect(env[3]).toMatchObject({ origin: 'env-var', envSource: 'flag', type: 'int', default: { kind: 'literal', text: '8000' }, required: false, location: { file: 'tool/cli.py', line: 21 } });
  });

  it('reads typer Option(envvar=…) and cyclopts Parameter(env_var=…)', async () => {
    const { extractPythonFlags } = await import('../src/extract/python/flags.js');
    const typerCli = py(
      'app/main.py',
      `
from typing import Annotated
import typer

app = typer.Typer()


@app.command()
def run(
    name: Annotated[str, typer.Option(envvar="APP_NAME", help="Who.")] = "world",
    level: int = typer.Option(1, "--level", envvar=["APP_LEVEL", "LEVEL"]),
    quiet: bool = False,
):
    pass
`,
    );
    const cycloptsCli = py(
      'cy/main.py',
      `
from typing import Annotated
from cyclopts import App, Parameter

app = App()


@app.default
def main(url: Annotated[str, Parameter(env_var="CY_URL")] = "http://x", *, retries: Annotated[int, Parameter(env_var=("CY_RETRIES",))] = 3):
    pass
`,
    );
    const { commands } = await extractPythonFlags([typerCli, cycloptsCli]);
    const typerParams = commands.find((c) => c.target === 'app.main:app')!.params;
    expect(Object.fromEntries(typerParams.filter((p) => p.envVars).map((p) => [p.name, p.envVars]))).toEqual({ name: ['APP_NAME'], level: ['APP_LEVEL', 'LEVEL'] });
    const cyParams = commands.find((c) => c.target === 'cy.main:app')!.params;
    expect(Object.fromEntries(cyParams.filter((p) => p.envVars).map((p) => [p.name, p.envVars]))).toEqual({ url: ['CY_URL'], retries: ['CY_RETRIES'] });
  });
});

/** The mealie shapes (mealie/core/settings/settings.py at 1b3cf7d): the settings class, its provider type, its one constructor. */
const MEALIE_SETTINGS = `
from pathlib import Path

from pydantic import BaseSettings, validator

from .db_providers import AbstractDBProvider, db_provider_factory


def determine_secrets(data_dir: Path, production: bool) -> str:
    return "shh-secret-test-key"


class AppSettings(BaseSettings):
    PRODUCTION: bool
    BASE_URL: str = "http://localhost:8080"
    SECRET: str
    DB_ENGINE: str = "sqlite"
    DB_PROVIDER: AbstractDBProvider | None = None

    @validator("BASE_URL")
    def remove_trailing_slash(cls, v: str) -> str:
        return v.rstrip("/")

    @property
    def SMTP_ENABLE(self) -> bool:
        return AppSettings.validate_smtp(self.BASE_URL)

    @staticmethod
    def validate_smtp(host: str | None) -> bool:
        return host is not None

    class Config:
        arbitrary_types_allowed = True


def app_settings_constructor(data_dir: Path, production: bool, env_file: Path, env_encoding="utf-8") -> AppSettings:
    app_settings = AppSettings(
        _env_file=env_file,  # type: ignore
        _env_file_encoding=env_encoding,  # type: ignore
        **{"SECRET": determine_secrets(data_dir, production)},
    )
    app_settings.DB_PROVIDER = db_provider_factory(app_settings.DB_ENGINE or "sqlite", data_dir)
    return app_settings
`;

const MEALIE_PROVIDERS = `
from abc import ABC, abstractmethod
from pathlib import Path


class AbstractDBProvider(ABC):
    @property
    @abstractmethod
    def db_url(self) -> str: ...


class SQLiteProvider(AbstractDBProvider):
    def __init__(self, data_dir: Path):
        self.data_dir = data_dir

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.data_dir}/mealie.db"


def db_provider_factory(provider_name: str, data_dir: Path) -> AbstractDBProvider:
    return SQLiteProvider(data_dir)
`;

const MEALIE_CONFIG = `
from functools import lru_cache

from mealie.core.settings import app_settings_constructor

from .settings import AppSettings


@lru_cache
def get_app_settings() -> AppSettings:
    return app_settings_constructor(env_file=".env", production=True, data_dir="/app/data")
`;

const MEALIE_CONTROLLER = `
from mealie.core.settings.settings import AppSettings


class BaseController:
    _settings: AppSettings | None

    @property
    def settings(self) -> AppSettings:
        if not self._settings:
            raise ValueError("no settings")
        return self._settings
`;

function mealie(...more: PythonSource[]): PythonSource[] {
  return [
    py('mealie/__init__.py', ''),
    py('mealie/core/__init__.py', ''),
    py('mealie/core/settings/__init__.py', 'from .settings import *\n'),
    py('mealie/core/settings/settings.py', MEALIE_SETTINGS),
    py('mealie/core/settings/db_providers.py', MEALIE_PROVIDERS),
    py('mealie/core/config.py', MEALIE_CONFIG),
    py('mealie/routes/base.py', MEALIE_CONTROLLER),
    ...more,
  ];
}

describe('settings fields users cannot set (internal)', () => {
  it('reads a field passed at the only construction and a field typed by a project class no text gives (mealie)', async () => {
    const env = await envOf(...mealie(py('tests/conftest.py', 'from mealie.core.settings.settings import AppSettings\n\nsettings = AppSettings(PRODUCTION=False)\n')));
    expect(env.vars.map((v) => v.name)).toEqual(['PRODUCTION', 'BASE_URL', 'SECRET', 'DB_ENGINE', 'DB_PROVIDER']);
    expect(env.internal).toEqual([
      {
        name: 'SECRET',
        location: { file: 'mealie/core/settings/settings.py', line: 36, column: 20, endLine: 40, endColumn: 6 },
        reason: 'passed by keyword at every construction of AppSettings (mealie/core/settings/settings.py:36), which pydantic-settings prefers to the environment',
      },
      {
        name: 'DB_PROVIDER',
        location: { file: 'mealie/core/settings/settings.py', line: 17, column: 5, endLine: 17, endColumn: 16 },
        reason: 'its type, AbstractDBProvider, is not read from text',
      },
    ]);
  });

  it('a field typed by a settings class of its own is internal: that class reads its own variables (mealie theme: Theme)', async () => {
    const env = await envOf(
      py('app/__init__.py', ''),
      py('app/themes.py', 'from pydantic_settings import BaseSettings, SettingsConfigDict\n\n\nclass Theme(BaseSettings):\n    model_config = SettingsConfigDict(env_prefix="theme_")\n    light_primary: str = "#E58325"\n'),
      py('app/settings.py', 'from pydantic import BaseModel\nfrom pydantic_settings import BaseSettings\n\nfrom app.themes import Theme\n\n\nclass Db(BaseModel):\n    host: str = "x"\n\n\nclass AppSettings(BaseSettings):\n    theme: Theme = Theme()\n    db: Db = Db()\n    base_url: str = "http://localhost"\n'),
    );
    expect(env.internal?.map((v) => [v.name, v.reason])).toEqual([['THEME', 'its type, Theme, is a settings class that reads its own variables']]);
    expect(env.vars.map((v) => v.name)).toEqual(expect.arrayContaining(['THEME_LIGHT_PRIMARY', 'THEME', 'DB', 'BASE_URL']));
  });

  it('reads k=…, **dict(K=…) and import aliases at every construction, case-insensitively, with validation_alias', async () => {
    const env = await envOf(
      py(
        'app/settings.py',
        `
from pydantic import Field
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    token: str = Field(validation_alias="APP_TOKEN")
    region: str = "eu"
    port: int = 8000


def build() -> "Settings":
    return Settings(app_token="x", **dict(REGION="us"))
`,
      ),
      py('app/worker.py', 'from app.settings import Settings as S\n\n\ndef make():\n    return S(APP_TOKEN="y", region="us", _env_file=None)\n'),
    );
    expect(env.internal?.map((v) => [v.name, v.reason.replace(/ \(.*\)/, '')])).toEqual([
      ['APP_TOKEN', 'passed by keyword at every construction of Settings, which pydantic-settings prefers to the environment'],
      ['REGION', 'passed by keyword at every construction of Settings, which pydantic-settings prefers to the environment'],
    ]);
    expect(env.internal?.[0]?.reason).toContain('(app/settings.py:12 and 1 more)');
  });

  it('reads the keys of a local dict splatted into the construction (mealie 2025: `**secret_settings`)', async () => {
    const settings = (build: string) => `
from pydantic_settings import BaseSettings


class AppSettings(BaseSettings):
    SECRET: str
    SESSION_SECRET: str
    TOKEN_TIME: int = 48


def app_settings_constructor(data_dir: str) -> AppSettings:
${build}
`;
    const cases: Array<[string, string[] | undefined]> = [
      ['    secret_settings = {"SECRET": "a", "SESSION_SECRET": "b"}\n    return AppSettings(_env_file=".env", **secret_settings)', ['SECRET', 'SESSION_SECRET']],
      ['    secret_settings = dict(SECRET="a")\n    secret_settings["SESSION_SECRET"] = "b"\n    return AppSettings(**secret_settings)', ['SECRET', 'SESSION_SECRET']],
      ['    secret_settings = {"SECRET": "a", "SESSION_SECRET": "b"}\n    secret_settings.pop("SECRET")\n    return AppSettings(**secret_settings)', undefined],
      ['    secret_settings = {"SECRET": "a"}\n    if data_dir:\n        secret_settings = {}\n    return AppSettings(**secret_settings)', undefined],
      ['    return AppSettings(**load_secrets(data_dir))', undefined],
    ];
    for (const [build, internal] of cases) {
      const env = await envOf(py('app/settings.py', settings(build)));
      expect(env.internal?.map((v) => v.name), build).toEqual(internal);
    }
  });

  it('keeps a field a user setting when one construction does not pass it, or the class is built where docdrift cannot see', async () => {
    const settings = `
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    secret: str
    port: int = 8000


def build():
    return Settings(secret="x")
`;
    const cases: Array<[string, string]> = [
      ['a second construction without the keyword', 'from app.settings import Settings\n\nsettings = Settings()\n'],
      ['a cached factory', 'from functools import lru_cache\nfrom app.settings import Settings\n\n@lru_cache\ndef get_settings():\n    return Settings()\n'],
      ['a dependency', 'from fastapi import Depends\nfrom app.settings import Settings\n\ndef route(s=Depends(Settings)):\n    return s\n'],
      ['model_validate', 'from app.settings import Settings\n\ns = Settings.model_validate({})\n'],
      ['an import inside a function', 'def make():\n    from app.settings import Settings\n    return Settings()\n'],
      ['the class handed on', 'from app import settings\n\nfactory = settings.Settings\n'],
      ['the class named in a string', 'import importlib\n\ncls = getattr(importlib.import_module("app.settings"), "Settings")\n'],
    ];
    for (const [what, other] of cases) {
      const env = await envOf(py('app/settings.py', settings), py('app/other.py', other));
      expect(env.internal, what).toBeUndefined();
      expect(env.vars.map((v) => v.name), what).toEqual(['SECRET', 'PORT']);
    }
    // Constructions in tests do not count; an unrelated class of the same name is not a construction.
    const env = await envOf(
      py('app/settings.py', settings),
      py('tests/test_settings.py', 'from app.settings import Settings\n\ndef test_it():\n    assert Settings(secret="t")\n'),
      py('app/cli/settings.py', 'class Settings:\n    pass\n\ns = Settings()\n'),
      py('app/cli/main.py', 'from app.cli.settings import Settings\n\nSettings()\n'),
      py('app/__init__.py', 'from app.settings import Settings\n\n__all__ = ["Settings"]\n'),
      py('app/use.py', 'import typing\n\nif typing.TYPE_CHECKING:\n    from app.settings import Settings\n\n\ndef port(s: "Settings", t: typing.Optional["Settings"] = None) -> int:\n    assert isinstance(s, Settings) and type(t) is not Settings\n    return s.port\n'),
    );
    expect(env.internal?.map((v) => v.name)).toEqual(['SECRET']);
  });

  it('keeps a passed field a user setting when the class reorders its sources, defines __init__ or builds itself', async () => {
    const bodies = [
      '    @classmethod\n    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings):\n        return env_settings, init_settings\n',
      '    def __init__(self, **values):\n        super().__init__(**values)\n',
      '    @classmethod\n    def load(cls):\n        return cls()\n',
      '    class Config:\n        @classmethod\n        def customise_sources(cls, init_settings, env_settings, file_secret_settings):\n            return env_settings, init_settings\n',
    ];
    for (const body of ['', ...bodies]) {
      const env = await envOf(
        py('app/settings.py', `from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n    secret: str\n\n${body}\n\ndef build():\n    return Settings(secret="x")\n`),
      );
      expect(env.internal?.map((v) => v.name), body).toEqual(body === '' ? ['SECRET'] : undefined);
    }
  });

  it('keeps a variable a user setting when it is also read directly or by another class', async () => {
    const env = await envOf(
      ...mealie(
        py('mealie/app.py', 'import os\n\nsecret = os.getenv("SECRET")\n'),
        py('mealie/services/db.py', 'from pydantic_settings import BaseSettings\n\nclass DbSettings(BaseSettings):\n    DB_PROVIDER: str = "sqlite"\n\nDB = DbSettings()\n'),
      ),
    );
    expect(env.internal).toBeUndefined();
  });

  it('judges only project classes pydantic cannot build from text', async () => {
    const env = await envOf(
      py(
        'app/types.py',
        `
import dataclasses
from abc import ABC
from enum import Enum
from typing import TypedDict

from pydantic import BaseModel


class Provider(ABC):
    pass


class Sqlite(Provider):
    pass


class Nested(BaseModel):
    host: str = "localhost"


class Mode(Enum):
    FAST = "fast"


@dataclasses.dataclass
class Point:
    x: int = 0


class Limits(TypedDict):
    cpu: int


class Color:
    @classmethod
    def __get_validators__(cls):
        yield str
`,
      ),
      py(
        'app/settings.py',
        `
from pathlib import Path
from typing import Annotated, Optional, Union

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings
from somewhere import Engine

from app.types import Color, Limits, Mode, Nested, Point, Provider, Sqlite


class Settings(BaseSettings, arbitrary_types_allowed=True):
    provider: Optional[Provider] = None
    engine_provider: "Union[Provider, Sqlite, None]" = None
    annotated_provider: Annotated[Provider | None, Field(description="set by the app")] = None
    nested: Nested = Nested()
    mode: Mode = Mode.FAST
    point: Point = Point()
    limits: Optional[Limits] = None
    color: Color | None = None
    engine: Engine | None = None
    data_dir: Optional[Path] = None
    providers: list[Provider] = []
    mixed: Provider | str | None = None
    parsed: Provider | None = None

    @field_validator("parsed", mode="before")
    @classmethod
    def parse(cls, value):
        return value
`,
      ),
    );
    expect(env.internal?.map((v) => [v.name, v.reason])).toEqual([
      ['PROVIDER', 'its type, Provider, is not read from text'],
      ['ENGINE_PROVIDER', 'its type, Provider | Sqlite, is not read from text'],
      ['ANNOTATED_PROVIDER', 'its type, Provider, is not read from text'],
    ]);
  });
});

describe('the per-file cache', () => {
  afterAll(removeTempDirs);

  it('gives the same env facts from stored pieces as without a store, also after one file changed', async () => {
    const root = tempProject({
      'pyproject.toml': '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:cli"\n',
      'tool/__init__.py': '',
      'tool/names.py': 'TOKEN_VAR = "TOOL_TOKEN"\n',
      'tool/settings.py': 'from pydantic_settings import BaseSettings, SettingsConfigDict\n\nclass Settings(BaseSettings):\n    model_config = SettingsConfigDict(env_prefix="TOOL_")\n    port: int = 8000\n',
      'tool/run.py': 'import os\nfrom tool.names import TOKEN_VAR\n\ndef token():\n    return os.getenv(TOKEN_VAR), os.environ[f"TOOL_{token}"]\n',
      'tool/cli.py': 'import click\n\n@click.command()\n@click.option("--level", envvar="TOOL_LEVEL")\ndef cli(level):\n    pass\n',
    });
    const { discoverFiles } = await import('../src/engine/discover.js');
    const { extractCode } = await import('../src/engine/lint.js');
    const { MemoryPieceStore } = await import('../src/engine/pieces.js');
    const { FactCache } = await import('../src/engine/facts.js');
    const { DEFAULT_CONFIG } = await import('../src/config/schema.js');
    const files = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, DEFAULT_CONFIG.ignore);
    const pieces = new MemoryPieceStore();
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    const run = async (store: InstanceType<typeof MemoryPieceStore> | undefined) => {
      const hashes = new Map<string, string>();
      for (const file of [...files.sources, ...files.packaging]) hashes.set(file, createHash('sha1').update(readFileSync(path.join(root, file))).digest('hex'));
      const facts = await extractCode(files, DEFAULT_CONFIG, read, [], new FactCache({ store, hashes }), { root, overlay: undefined, peek: read });
      return JSON.parse(JSON.stringify(facts.env)) as EnvExtraction;
    };
    const uncached = await run(undefined);
    expect(uncached.vars.map((v) => [v.name, v.envSource])).toEqual([
      ['TOOL_TOKEN', 'read'],
      ['TOOL_PORT', 'settings'],
      ['TOOL_LEVEL', 'flag'],
    ]);
    expect(uncached.dynamic.map((d) => d.prefix)).toEqual(['TOOL_']);
    expect(await run(pieces)).toEqual(uncached);
    const hitsBefore = pieces.hits;
    expect(await run(pieces)).toEqual(uncached);
    expect(pieces.hits).toBeGreaterThan(hitsBefore);
    // A changed constant in another module is seen although the reading file's scan is reused.
    writeFileSync(path.join(root, 'tool/names.py'), 'TOKEN_VAR = "TOOL_SECRET"\n');
    const changed = await run(undefined);
    expect(changed.vars[0]?.name).toBe('TOOL_SECRET');
    expect(await run(pieces)).toEqual(changed);
  });
});
