/**
 * The variables an environment may name for its account (`api_url_env`, `api_key_env`): only
 * acctsync's own. The config is a pull request's to change, and the job that plans it holds other
 * variables: naming an attacker-set one as the URL would send the key to the attacker, naming the
 * CI system's token as the key would send that token to the API.
 */

/** The schema's patterns: `SVC_API_URL` / `SVC_API_KEY`, alone or after `<PREFIX>_`. */
export const apiVariablePatterns = {
  url: '^([A-Z][A-Z0-9_]*_)?SVC_API_URL$',
  key: '^([A-Z][A-Z0-9_]*_)?SVC_API_KEY$',
} as const;

/** What a name failing one of the patterns is told, by pattern. */
export const apiVariableExplanations: ReadonlyMap<
  string,
  { readonly message: string; readonly hint: string }
> = new Map([
  [
    apiVariablePatterns.url,
    {
      message: "is not one of acctsync's API URL variables",
      hint: 'name SVC_API_URL or <PREFIX>_SVC_API_URL (STAGING_SVC_API_URL): an environment reads its account only from variables of acctsync',
    },
  ],
  [
    apiVariablePatterns.key,
    {
      message: "is not one of acctsync's API key variables",
      hint: 'name SVC_API_KEY or <PREFIX>_SVC_API_KEY (STAGING_SVC_API_KEY): an environment reads its account only from variables of acctsync',
    },
  ],
]);
