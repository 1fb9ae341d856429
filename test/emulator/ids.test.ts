/**
 * Ids sort in creation order (paging by `before_id` relies on it) and are never handed out twice,
 * also across a restart from the saved watermark.
 */
import { describe, expect, it } from 'vitest';
import { IdGenerator } from '../../src/emulator/ids.js';

const shape = /^ipp_[0-9a-hjkmnp-tv-z]{11}$/;

describe('emulator ids', () => {
  it('sort in the order they were handed out, whether the clock stands still or moves on', () => {
    let ms = Date.UTC(2026, 10, 25);
    const ids = new IdGenerator(() => new Date(ms));
    const out: string[] = [];
    for (let i = 0; i < 5000; i++) {
      // Some milliseconds see more ids than fit in one (1024), some fewer.
      if (i % 700 === 0) ms += i % 1400 === 0 ? 1 : 5;
      out.push(ids.next('ipp_'));
    }
    expect([...out].sort()).toEqual(out);
    expect(new Set(out).size).toBe(out.length);
    for (const id of out) expect(id).toMatch(shape);
  });

  it('continue above the saved watermark after a restart, with the clock set back', () => {
    const before = new IdGenerator(() => new Date(Date.UTC(2026, 10, 25)));
    const last = Array.from({ length: 3000 }, () => before.next('ipp_')).at(-1) ?? '';
    const after = new IdGenerator(() => new Date(Date.UTC(2026, 10, 24)), before.watermark);
    const next = after.next('ipp_');
    expect(next).toMatch(shape);
    expect(next > last).toBe(true);
  });
});
