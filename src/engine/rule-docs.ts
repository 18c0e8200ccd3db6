/** Where each rule's documentation lives; derived from the rule id, never typed by hand. */

/** Base URL of the rule docs (`rules/<id>.md` in the repository). */
export const RULE_DOCS_BASE = 'https://github.com/docdrift/docdrift/blob/main/rules/';

/** The documentation URL of a rule, e.g. `…/rules/example-param-unknown.md`. */
export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE}${ruleId}.md`;
}

/** The project's home page (SARIF `tool.driver.informationUri`). */
export const PROJECT_URL = 'https://github.com/docdrift/docdrift';
