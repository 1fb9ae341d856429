/**
 * Which live id a logical key stands for while a plan runs. The plan knows the ids of objects that
 * existed when it was made; objects created in this run get theirs as the run goes, and those win:
 * after a replace, referrers must point at the new object, not the old one.
 */
import { isObjectKey } from '../resources/index.js';
import type { Plan } from '../plan-format/index.js';

export class IdTable {
  readonly #known: Readonly<Record<string, string>>;
  readonly #created = new Map<string, string>();
  /** Every id that existed when the plan was made: never taken for an object this run created. */
  readonly #preexisting: ReadonlySet<string>;

  constructor(plan: Plan) {
    this.#known = plan.resolvedIds;
    this.#preexisting = new Set([
      ...Object.values(plan.resolvedIds),
      ...plan.operations.flatMap((op) => (op.liveId === undefined ? [] : [op.liveId])),
    ]);
  }

  /** Records the id of an object created (or recovered) in this run. */
  created(key: string, id: string): void {
    this.#created.set(key, id);
  }

  /** Whether `id` belonged to an object that existed when the plan was made. */
  existedAtPlanTime(id: string): boolean {
    return this.#preexisting.has(id);
  }

  /** The current id of `key`, or undefined when neither the plan nor this run knows it. */
  lookup(key: string): string | undefined {
    return this.#created.get(key) ?? this.#known[key];
  }

  /**
   * Rewrites a desired reference to an id: object keys through the table, raw ids unchanged.
   * @throws {Error} when a key has no id: the plan let an operation run before what it references
   */
  resolve(ref: string): string {
    if (!isObjectKey(ref)) return ref;
    const id = this.lookup(ref);
    if (id === undefined)
      throw new Error(`no id for '${ref}': it was neither live at plan time nor created in this run`);
    return id;
  }
}
