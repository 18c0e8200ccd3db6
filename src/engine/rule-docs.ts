/**
 * Where each rule's documentation lives; derived from the rule id and from `package.json`
 * `repository` (via {@link REPOSITORY_URL}), never typed by hand. The pages are also in the npm
 * package, as `node_modules/docdrift/rules/<id>.md`.
 */
import { HOMEPAGE_URL, REPOSITORY_URL } from '../shared/package-info.js';

/** Base URL of the rule docs (`rules/<id>.md` on the repository's default branch). */
export const RULE_DOCS_BASE = `${REPOSITORY_URL}/blob/main/rules/`;

/** The documentation URL of a rule, e.g. `…/rules/example-param-unknown.md`. */
export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE}${ruleId}.md`;
}

/** The project's home page (SARIF `tool.driver.informationUri`). */
export const PROJECT_URL = HOMEPAGE_URL;
