/** A plan asked for something the applier cannot do with it: a bug in the plan, not the user's. */
export class PlanMismatchError extends Error {
  override readonly name = 'PlanMismatchError';
}
