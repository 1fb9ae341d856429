/**
 * Reading the live account, a stage of its own: the collections a plan can touch, each object with
 * its ownership marker, parent and user metadata read by one reader. The planner, the exporter,
 * `forget` and `watch` read the account through it.
 */
export { fetchLiveState, kindsToFetch, readLiveState, type LiveState } from './read.js';
export { liveObject, markedAs, readMetadata, type LiveObject } from './record.js';
