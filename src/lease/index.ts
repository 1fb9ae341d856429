/**
 * The scope's lease (docs/lease.md): taking it (`judge`, what a holder's record says), holding and
 * renewing it (`ScopeLease`, `LeaseKeeper` for watch), finding, showing and handing it back.
 */
export { expiryOf, forgedWarning, judge } from './acquire.js';
export { describeHolder, shownTime } from './holder.js';
export { deleteLease, findLease } from './store.js';
export { LeaseKeeper, type Hold } from './keeper.js';
export { defaultLeaseTtlMs, maxLeaseTtlMs } from './default-ttl.js';
export { ScopeLease } from './lease.js';
export { thisHolder, type Holder } from './holder.js';
