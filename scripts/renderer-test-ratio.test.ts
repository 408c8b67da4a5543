// The renderer's test-to-code line ratio stays at 0.3 or more (issue 27: it was 0.11, then 0.19).
import { describe, expect, it } from 'vitest';
import { rendererTestRatio } from './renderer-test-ratio.mjs';

describe('renderer test-to-code ratio', () => {
  it('is at least 0.3 test lines per code line', () => {
    const { test, code, ratio } = rendererTestRatio();
    expect(code).toBeGreaterThan(5000);
    expect(test / code).toBe(ratio);
    expect(ratio, `${test} test lines / ${code} code lines`).toBeGreaterThanOrEqual(0.3);
  });
});
