/** Environment variables in shell scripts, Dockerfiles, Makefiles and justfiles (issue #31): names read, and what a container image sets. */
import { describe, expect, it } from 'vitest';
import { dockerEnvPairs, dockerfileEnv, isShellShebang, makefileEnvWords, scriptEnv, scriptKind, shellEnvWords } from '../src/extract/script-env.js';

describe('scriptKind', () => {
  it('tells scripts by name and extension, extensionless files by a shell shebang', () => {
    expect(scriptKind('Dockerfile')).toBe('dockerfile');
    expect(scriptKind('docker/Dockerfile.prod')).toBe('dockerfile');
    expect(scriptKind('docker/api.Dockerfile')).toBe('dockerfile');
    expect(scriptKind('Containerfile')).toBe('dockerfile');
    expect(scriptKind('Dockerfile.dockerignore')).toBeUndefined();
    expect(scriptKind('Makefile')).toBe('makefile');
    expect(scriptKind('GNUmakefile')).toBe('makefile');
    expect(scriptKind('make/rules.mk')).toBe('makefile');
    expect(scriptKind('justfile')).toBe('justfile');
    expect(scriptKind('bin/run.sh')).toBe('shell');
    expect(scriptKind('tools/x.zsh')).toBe('shell');
    expect(scriptKind('clang-tidy', '#!/bin/bash\n# wrapper\n')).toBe('shell');
    expect(scriptKind('clang-tidy')).toBeUndefined();
    expect(scriptKind('bin/gen', '#!/usr/bin/env python3\n')).toBeUndefined();
    expect(scriptKind('README.md', '#!/bin/sh\n')).toBeUndefined();
    expect(scriptKind('LICENSE', 'MIT License\n')).toBeUndefined();
  });

  it('takes sh, bash, zsh, dash and ksh shebangs, direct or through env, with arguments', () => {
    for (const line of ['#!/bin/sh', '#!/bin/bash -e', '#! /usr/bin/env bash', '#!/usr/bin/env -S zsh -f', '#!/bin/dash', '#!/usr/bin/ksh', '#!/usr/bin/env sh', '#!/command/with-contenv /usr/bin/bash', '#!/usr/bin/with-contenv bash']) {
      expect(isShellShebang(`${line}\necho\n`), line).toBe(true);
    }
    for (const line of ['#!/usr/bin/env node', '#!/usr/bin/python3', '#!/usr/bin/env shellcheck', '# not a shebang', '#!/bin/bashful', '#!/command/with-contenv /usr/bin/python3']) {
      expect(isShellShebang(`${line}\n`), line).toBe(false);
    }
  });
});

describe('shellEnvWords', () => {
  it('reads expansions in every form and the names a script sets or exports, upper case only', () => {
    const text = [
      '#!/bin/bash',
      'if [[ ${CTCACHE_SKIP:-0} -ne 0 ]]; then exit 0; fi',
      'CTCACHE_CLANG_TIDY="${CTCACHE_CLANG_TIDY:-/usr/bin/clang-tidy}"',
      'echo "$APP_HOME/bin" ${#TOKEN} ${NAME%%.*} $1 $@ $? $file ${dir}',
      'export PASSED_ON LOG_FORMAT=json',
      ': "${CACHE_DIR:=/tmp}"',
      'for f in *; do local_var=1; done',
    ].join('\n');
    expect(shellEnvWords(text).sort()).toEqual(['APP_HOME', 'CACHE_DIR', 'CTCACHE_CLANG_TIDY', 'CTCACHE_SKIP', 'LOG_FORMAT', 'NAME', 'PASSED_ON', 'TOKEN']);
  });
});

describe('makefileEnvWords', () => {
  it('reads make references, the shell\'s in recipes, ifdef and ?=', () => {
    const text = ['PYTHON ?= python3', 'ifdef CI_SLOW', 'endif', 'test:', '\t$(PYTHON) -m pytest ${PYTEST_ARGS}', '\techo $$HOME_DIR $(shell date) $(wildcard *.py) $(DOCKER_TAG:latest=x)'].join('\n');
    expect(makefileEnvWords(text).sort()).toEqual(['CI_SLOW', 'DOCKER_TAG', 'HOME_DIR', 'PYTEST_ARGS', 'PYTHON']);
  });
});

describe('justfiles', () => {
  it('reads env_var, env_var_or_default, env and recipe expansions', () => {
    const text = "port := env_var_or_default('APP_PORT', '8000')\nkey := env(\"API_KEY\")\nrun:\n  echo $LOG_LEVEL\n  echo {{port}}\n";
    expect(scriptEnv('justfile', text).words.sort()).toEqual(['API_KEY', 'APP_PORT', 'LOG_LEVEL']);
  });
});

describe('Dockerfiles', () => {
  it('parses ENV pairs: key=value (several, quoted, escaped spaces) and the legacy key value', () => {
    expect(dockerEnvPairs(' A=1 B="two words" C=x\\ y')).toEqual([
      { name: 'A', value: '1', offset: 1 },
      { name: 'B', value: 'two words', offset: 5 },
      { name: 'C', value: 'x\\ y', offset: 19 },
    ]);
    expect(dockerEnvPairs('HOST 0.0.0.0')).toEqual([{ name: 'HOST', value: '0.0.0.0', offset: 0 }]);
    expect(dockerEnvPairs('GREETING hello world=1')).toEqual([{ name: 'GREETING', value: 'hello world=1', offset: 0 }]);
  });

  it('ENV sets internal variables at their name (continuation lines too); ARG alone does not; RUN/CMD/ENTRYPOINT expansions and ARG/ENV names are words', () => {
    const text = [
      '# syntax=docker/dockerfile:1',
      'FROM python:3 AS base',
      'ARG COMMIT',
      'ENV PRODUCTION=true',
      'ENV GIT_COMMIT_HASH=$COMMIT',
      'ENV PYTHONUNBUFFERED=1 \\',
      '    # a comment inside',
      '    VENV_PATH="/opt/venv"',
      'ENV HOST 0.0.0.0',
      'RUN echo "$BUILD_FLAGS" && \\',
      '    make ${MAKE_TARGET:-all}',
      'RUN <<EOF',
      'echo $HEREDOC_VAR',
      'EOF',
      'COPY $NOT_A_RUN /app',
      'CMD ["sh", "-c", "exec app --port ${APP_PORT}"]',
    ].join('\n');
    const env = dockerfileEnv('docker/Dockerfile', text);
    expect(env.internal).toEqual([
      { name: 'PRODUCTION', location: { file: 'docker/Dockerfile', line: 4, column: 5 }, reason: 'set by the container image' },
      { name: 'GIT_COMMIT_HASH', location: { file: 'docker/Dockerfile', line: 5, column: 5 }, reason: 'set by the container image' },
      { name: 'PYTHONUNBUFFERED', location: { file: 'docker/Dockerfile', line: 6, column: 5 }, reason: 'set by the container image' },
      { name: 'VENV_PATH', location: { file: 'docker/Dockerfile', line: 8, column: 5 }, reason: 'set by the container image' },
      { name: 'HOST', location: { file: 'docker/Dockerfile', line: 9, column: 5 }, reason: 'set by the container image' },
    ]);
    expect(env.internal.map((v) => v.name)).not.toContain('COMMIT');
    expect(env.words.sort()).toEqual(['APP_PORT', 'BUILD_FLAGS', 'COMMIT', 'GIT_COMMIT_HASH', 'HEREDOC_VAR', 'HOST', 'MAKE_TARGET', 'PRODUCTION', 'PYTHONUNBUFFERED', 'VENV_PATH']);
  });

  it('honours the escape directive and lower-case instructions', () => {
    const env = dockerfileEnv('Dockerfile', '# escape=`\nFROM mcr.microsoft.com/windows\nenv A=1 `\n  B=2\n');
    expect(env.internal.map((v) => [v.name, v.location.line])).toEqual([['A', 3], ['B', 4]]);
  });
});

describe('scriptEnv', () => {
  it('reads nothing from a file of no known kind or over the size cap', () => {
    expect(scriptEnv('notes.txt', 'echo $X_Y')).toEqual({ words: [], internal: [] });
    expect(scriptEnv('run.sh', `echo $BIG_VAR\n${'#'.repeat(1_000_001)}`)).toEqual({ words: [], internal: [] });
    expect(scriptEnv('run.sh', 'echo $SMALL_VAR')).toEqual({ words: ['SMALL_VAR'], internal: [] });
  });
});

describe('server configs (uwsgi, supervisord, systemd, Procfile)', () => {
  it('are scripts whose upper-case names with an underscore are mentions', async () => {
    const { scriptKind, scriptEnv } = await import('../src/extract/script-env.js');
    expect(['uwsgi.ini', 'deploy/supervisord.conf', 'ops/app.service', 'Procfile'].map((f) => scriptKind(f))).toEqual(['server-config', 'server-config', 'server-config', 'server-config']);
    const uwsgi = '[uwsgi]\nmodule = app.wsgi\nif-env = LD_REQUEST_TIMEOUT\nhttp-timeout = %(_)\nendif =\nif-env = LD_DISABLE_REQUEST_LOGS=true\ndisable-logging = true\n';
    expect(scriptEnv('uwsgi.ini', uwsgi).words.sort()).toEqual(['LD_DISABLE_REQUEST_LOGS', 'LD_REQUEST_TIMEOUT']);
    expect(scriptEnv('supervisord.conf', 'command=app --home %(ENV_APP_HOME)s\n').words.sort()).toEqual(['APP_HOME', 'ENV_APP_HOME']);
    expect(scriptEnv('uwsgi.ini', uwsgi).internal).toEqual([]);
  });
});
