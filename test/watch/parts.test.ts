import { describe, expect, it } from 'vitest';
import { backoffDelay, jitteredInterval } from '../../src/watch/backoff.js';
import { formatDuration, parseDuration } from '../../src/duration.js';
import { parseListen } from '../../src/watch/health.js';
import { createLogger, prettyLine } from '../../src/watch/logger.js';
import { isIgnoredPath } from '../../src/watch/watcher.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1.5s', 1500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text, '--interval')).toBe(ms);
  });

  it.each(['5', '', '0s', '5 m', 'm', '5x', '-1s'])('rejects %j', (text) => {
    expect(() => parseDuration(text, '--interval')).toThrow(/--interval .* is not a duration/);
  });

  it('formats back', () => {
    expect([300_000, 30_000, 3_600_000, 1500].map(formatDuration)).toEqual(['5m', '30s', '1h', '1500ms']);
  });
});

describe('backoff and jitter', () => {
  it('spreads the interval by at most the ratio', () => {
    expect(jitteredInterval(60_000, 0.1, () => 0)).toBe(54_000);
    expect(jitteredInterval(60_000, 0.1, () => 0.999_999)).toBe(66_000);
  });

  it('doubles per failure up to the cap and never drops below half', () => {
    const policy = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(30, policy, () => 1)).toBe(60_000);
    expect(backoffDelay(30, policy, () => 0)).toBe(30_000);
  });
});

describe('parseListen', () => {
  it('reads host:port, [v6]:port and :port', () => {
    expect(parseListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListen('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListen(':9464')).toEqual({ host: '0.0.0.0', port: 9464 });
  });

  it.each(['9464', 'localhost', 'a:b', '1.2.3.4:99999'])('rejects %j', (text) => {
    expect(() => parseListen(text)).toThrow(/is not an address/);
  });
});

describe('isIgnoredPath', () => {
  it.each([
    'config/.app.yaml.swp',
    'config/.app.yaml.swx',
    'config/.app.yaml.swpx',
    'config/app.yaml~',
    'config/.#app.yaml',
    'config/#app.yaml#',
    'config/4913',
    'config/app.yaml.tmp',
    'config/app.yaml.bak',
    'config/app.yaml___jb_tmp___',
    'config/.git/HEAD',
    'config/.acctsync/embedded.json',
  ])('ignores %s', (path) => {
    expect(isIgnoredPath(path)).toBe(true);
  });

  it.each(['config/app.yaml', 'config/edges/web.yml', 'config/ca.pem', 'config'])('watches %s', (path) => {
    expect(isIgnoredPath(path)).toBe(false);
  });
});

describe('logger', () => {
  function capture(format: 'json' | 'pretty') {
    const lines: string[] = [];
    const output = {
      write: (line: string) => lines.push(line),
      isTTY: false,
    } as unknown as NodeJS.WritableStream;
    return { log: createLogger({ format, output }), lines };
  }

  it('redacts secrets with pino redaction', () => {
    const { log, lines } = capture('json');
    log.info({ token: 'tok-1', headers: { authorization: 'Bearer sk' }, key: { token: 'tok-2' } }, 'created');
    expect(lines.join('')).not.toMatch(/tok-1|tok-2|Bearer sk/);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ token: '[redacted]', key: { token: '[redacted]' } });
  });

  it('pretty-prints one line per entry with the reconcile id', () => {
    const { log, lines } = capture('pretty');
    log.child({ reconcile: 'abcd1234' }).warn({ planned: 2, reason: 'two words' }, 'drift detected');
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}\[abcd1234\] drift detected planned=2 reason="two words"\n$/,
    );
  });

  it('passes non-JSON through the pretty formatter untouched', () => {
    expect(prettyLine('not json', false)).toBe('not json');
  });
});
