/**
 * Environment variables `{env:}` refuses to read. A pull request's config runs in a CI job that
 * holds the account's API key and the CI system's own tokens; a value taken from one of them could
 * be written to the account (a description anyone with dashboard access reads) or compared with
 * what the service holds. These are data: docs/config.md lists them, and a test holds the two equal.
 */

/** A group of variables, with whom they belong to (for the message and the docs). */
interface GuardedGroup {
  readonly owner: string;
  readonly names: readonly string[];
}

/**
 * The variables acctsync reads itself. An environment's own key and URL variables (its
 * `api_key_env`/`api_url_env`, which may only be `<PREFIX>_SVC_API_KEY`/`_URL`) are refused by
 * their ending.
 */
export const acctsyncVariables: GuardedGroup = {
  owner: 'acctsync',
  names: [
    'SVC_API_KEY',
    'SVC_API_URL',
    'ACCTSYNC_ENV',
    'ACCTSYNC_FILES_ROOT',
    'GITHUB_ACTIONS',
    'GITHUB_STEP_SUMMARY',
  ],
};

/** Endings of variables that hold an environment's account credentials. */
export const acctsyncVariableEndings: readonly string[] = ['_SVC_API_KEY', '_SVC_API_URL'];

/** The tokens CI systems give every job, and where they lead. */
export const ciTokenVariables: readonly GuardedGroup[] = [
  {
    owner: 'GitHub Actions',
    names: [
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'ACTIONS_RUNTIME_TOKEN',
      'ACTIONS_RUNTIME_URL',
      'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
      'ACTIONS_ID_TOKEN_REQUEST_URL',
      'ACTIONS_CACHE_URL',
      'ACTIONS_RESULTS_URL',
    ],
  },
  {
    owner: 'GitLab CI',
    names: [
      'CI_JOB_TOKEN',
      'CI_JOB_JWT',
      'CI_JOB_JWT_V1',
      'CI_JOB_JWT_V2',
      'CI_REGISTRY_PASSWORD',
      'CI_DEPENDENCY_PROXY_PASSWORD',
      'CI_DEPLOY_PASSWORD',
      'CI_REPOSITORY_URL',
    ],
  },
  { owner: 'CircleCI', names: ['CIRCLE_OIDC_TOKEN', 'CIRCLE_OIDC_TOKEN_V2'] },
  { owner: 'Buildkite', names: ['BUILDKITE_AGENT_ACCESS_TOKEN'] },
  { owner: 'Bitbucket Pipelines', names: ['BITBUCKET_STEP_OIDC_TOKEN'] },
  { owner: 'Azure Pipelines', names: ['SYSTEM_ACCESSTOKEN', 'SYSTEM_OIDCREQUESTURI'] },
  { owner: 'Drone and Woodpecker', names: ['DRONE_NETRC_PASSWORD', 'CI_NETRC_PASSWORD'] },
];

/** Whose the variable is, when `{env:}` must not read it. */
export function guardedVariableOwner(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (acctsyncVariables.names.includes(upper) || acctsyncVariableEndings.some((end) => upper.endsWith(end))) {
    return acctsyncVariables.owner;
  }
  return ciTokenVariables.find((g) => g.names.includes(upper))?.owner;
}
