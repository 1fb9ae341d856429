/** The HTTP methods the account API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** True for methods that change server state, where a lost response leaves the outcome unknown. */
export function isWriteMethod(method: HttpMethod): boolean {
  return method !== 'GET';
}
