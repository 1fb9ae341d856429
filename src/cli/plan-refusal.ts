/**
 * What `sync` would refuse, shown by `plan` before the merge: the guards (mass delete, empty
 * config) are evaluated on the plan with the config's reviewed `guards:`, so a pull request that
 * sync would refuse after merge is red before it, and its comment says why and how to proceed.
 * (Protection already refuses the plan itself.)
 */
import type { GuardRefusal } from '../apply/index.js';
import { inert } from '../inert.js';
import { markdownText, type Plan, type SyncRefusal } from '../plan-format/index.js';

const lead = 'sync would refuse this';

/** The plan with what sync would refuse in it, for the JSON plan (`syncRefusal`). */
export function withRefusal(plan: Plan, refusal: GuardRefusal | undefined): Plan {
  if (refusal === undefined) return plan;
  const syncRefusal: SyncRefusal = {
    guard: refusal.guard,
    reason: refusal.reason,
    details: [...refusal.listing],
    howToProceed: refusal.howToProceed,
  };
  return { ...plan, syncRefusal };
}

/** Lines after the text plan. */
export function refusalText(refusal: GuardRefusal): string {
  return `\n${lead}: ${inert(refusal.reason)}\n${refusal.details.map((d) => inert(d)).join('\n')}\n`;
}

/** A block at the top of the markdown, above the plan. */
export function refusalMarkdown(refusal: GuardRefusal): string {
  const listing = refusal.listing.map((line) => `> ${markdownText(inert(line.trimStart()))}\n`).join('');
  return `> **${lead}:** ${markdownText(inert(refusal.reason))}\n>\n${listing === '' ? '' : `${listing}>\n`}> ${markdownText(inert(refusal.howToProceed))}\n\n`;
}
