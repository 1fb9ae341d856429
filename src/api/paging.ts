import type { ApiResponse, ListOptions, RequestOptions } from './client-options.js';
import { ApiError } from './errors.js';

const MAX_PAGE_SIZE = 100;

/** How {@link listItems} fetches one page. */
type GetPage = (
  path: string,
  options: Omit<RequestOptions, 'body'>,
) => Promise<ApiResponse<Record<string, unknown> | undefined>>;

/** A list response acctsync cannot follow: a protocol error of the server, not a user mistake. */
function invalidListError(path: string, status: number, problem: string): ApiError {
  return new ApiError({
    method: 'GET',
    path,
    status,
    errorCode: 'ERR_INVALID_LIST_RESPONSE',
    msg: `list response has ${problem}`,
    operationId: undefined,
    details: {},
    retryAfterSeconds: undefined,
  });
}

/**
 * Yields every item of a list endpoint, following `next_page_uri` until it is null or a page is empty.
 * @param member the envelope's array member, e.g. `ip_policies`, `keys`
 */
export async function* listItems<T>(
  get: GetPage,
  path: string,
  member: string,
  options: ListOptions,
): AsyncGenerator<T, void, undefined> {
  const signalOption = options.signal === undefined ? {} : { signal: options.signal };
  let page = await get(path, { ...signalOption, query: { limit: options.limit ?? MAX_PAGE_SIZE } });
  // A server that hands out a cursor twice would otherwise keep us paging forever.
  const seen = new Set<string>();
  for (;;) {
    const items = page.body?.[member];
    if (!Array.isArray(items)) throw invalidListError(path, page.status, `no array member '${member}'`);
    if (items.length === 0) return;
    yield* items as T[];
    const next = page.body?.['next_page_uri'];
    if (typeof next !== 'string') return;
    if (seen.has(next)) throw invalidListError(path, page.status, 'next_page_uri repeats an earlier page');
    seen.add(next);
    page = await get(next, signalOption);
  }
}
