/** The config module's public API: loading, the config shape and its defaults, pattern matchers. */
export { CONFIG_FILES, ConfigError, REFUSED_CONFIG_FILES, loadConfig } from './load.js';
export type { ConfigErrorDetails } from './load.js';
export { createHeadingMatcher, createParameterMatcher } from './patterns.js';
export { ALWAYS_IGNORED, ALWAYS_IGNORED_GLOBS, DEFAULT_CONFIG, configFileSchema, defaultConfig } from './schema.js';
export type { CommandConfig, DocdriftConfig, RuleSetting } from './schema.js';
