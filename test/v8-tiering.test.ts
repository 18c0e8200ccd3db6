/** The V8 flag the bin sets at start-up (src/shared/v8-tiering.ts), and when it leaves the user's own alone. */
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowingFlag, INTERRUPT_BUDGET, tieringFlag } from '../src/shared/v8-tiering.js';

/** V8 of Node 20 (11.3), 22 (12.4) and 24 (13.6). */
const NODE20_V8 = '11.3.244.8-node.38';
const NODE22_V8 = '12.4.254.21-node.57';
const NODE24_V8 = '13.6.233.17-node.63';

describe('tieringFlag', () => {
  it('raises the interrupt budget when node was started without one', () => {
    expect(tieringFlag([], NODE20_V8)).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    expect(tieringFlag(['--enable-source-maps', '--max-old-space-size=4096'], NODE20_V8)).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    // A similar-looking flag is another flag.
    expect(tieringFlag(['--interrupt-budget-for-feedback-allocation=100'], NODE20_V8)).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  });

  it("keeps the user's budget from node's command line, in either spelling", () => {
    expect(tieringFlag(['--interrupt-budget=5000'], NODE20_V8)).toBeUndefined();
    expect(tieringFlag(['--trace-warnings', '--interrupt_budget=5000'], NODE20_V8)).toBeUndefined();
  });

  it('sets nothing on V8 12 and newer (Node 22, 24), which have no --interrupt-budget', () => {
    expect(tieringFlag([], NODE22_V8)).toBeUndefined();
    expect(tieringFlag([], NODE24_V8)).toBeUndefined();
  });
});

describe('heapGrowingFlag', () => {
  it('sets the heap growing factor unless node\'s command line does', () => {
    expect(heapGrowingFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowingFlag(['--max-old-space-size=4096'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowingFlag(['--heap-growing-percent=50'])).toBeUndefined();
    expect(heapGrowingFlag(['--heap_growing_percent=50'])).toBeUndefined();
  });
});
