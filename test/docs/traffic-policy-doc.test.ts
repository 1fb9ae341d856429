/** docs/traffic-policy.md documents exactly the variables, macros and actions the checker declares. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  globalFunctions,
  methods,
  namespacedFunctions,
  policyActions,
  policyVariables,
} from '../../src/traffic-policy/index.js';

// Table cells as prettier pads them, collapsed to single spaces.
const doc = readFileSync('docs/traffic-policy.md', 'utf8').replace(/ {2,}/g, ' ');

describe('docs/traffic-policy.md', () => {
  it('has a row for every variable, with its type and phase, and none more', () => {
    for (const v of policyVariables) {
      expect(doc, v.name).toContain(`| \`${v.name}\` | \`${v.type}\` | ${v.phase} |`);
    }
    const rows = doc.split('\n').filter((l) => /^\| `[a-z_.0-9]+` \| `[^`]+` \| on_tcp_connect \|/.test(l));
    expect(rows).toHaveLength(policyVariables.length);
  });

  it('lists every macro signature and every action type', () => {
    for (const s of [...namespacedFunctions, ...globalFunctions, ...methods])
      expect(doc).toContain(`\`${s}\``);
    for (const type of Object.keys(policyActions)) expect(doc).toContain(`| \`${type}\` |`);
  });
});
