/** The paging query of gaps.md: `limit` 1..100 (default 100) and `before_id` (alias `beforeId`). */
import { ErrorCode } from '../resources/index.js';
import { badRequest } from './failure.js';

/** Query parameters a list endpoint accepts. */
export const pagingParameters = ['limit', 'before_id', 'beforeId'] as const;

interface PageRequest {
  readonly limit: number;
  readonly beforeId: string | undefined;
}

export function pageOf(query: URLSearchParams): PageRequest {
  const raw = query.get('limit');
  let limit = 100;
  if (raw !== null) {
    limit = /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
    if (limit < 1 || limit > 100) {
      throw badRequest(ErrorCode.pageSizeOutOfRange, `limit must be between 1 and 100, found ${raw}`, {
        parameter: 'limit',
      });
    }
  }
  const beforeId = query.get('before_id') ?? query.get('beforeId') ?? undefined;
  return { limit, beforeId: beforeId === '' ? undefined : beforeId };
}
