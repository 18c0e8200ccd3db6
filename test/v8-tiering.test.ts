/** The V8 flag the bin sets at start-up (src/shared/v8-tiering.ts), and when it leaves the user's own alone. */
import { describe, expect, it } from 'vitest';
import { INTERRUPT_BUDGET, tieringFlag } from '../src/shared/v8-tiering.js';

describe('tieringFlag', () => {
  it('raises the interrupt budget when node was started without one', () => {
    expect(tieringFlag([])).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    expect(tieringFlag(['--enable-source-maps', '--max-old-space-size=4096'])).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    // A similar-looking flag is another flag.
    expect(tieringFlag(['--interrupt-budget-for-feedback-allocation=100'])).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  });

  it("keeps the user's budget from node's command line, in either spelling", () => {
    expect(tieringFlag(['--interrupt-budget=5000'])).toBeUndefined();
    expect(tieringFlag(['--trace-warnings', '--interrupt_budget=5000'])).toBeUndefined();
  });
});
