/**
 * Whether acctsync runs under a CI system, read from the variables those systems set in every job.
 * Under CI nobody watches the first lines of output, so what a person at a terminal gets as a
 * convenience (the embedded emulator when no account is configured) must be asked for there.
 */

/** The variable each CI system sets in every job, in the order they are checked (`CI` last). */
export const ciVariables = [
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'BUILDKITE',
  'CIRCLECI',
  'TF_BUILD',
  'JENKINS_URL',
  'TEAMCITY_VERSION',
  'BITBUCKET_BUILD_NUMBER',
  'CODEBUILD_BUILD_ID',
  'DRONE',
  'TRAVIS',
  'CI',
] as const;

/** A variable that is set to something other than empty, `false` or `0`. */
function isOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

/** The CI variable that is set (`GITLAB_CI=true`), or undefined outside CI. */
export function ciSignal(env: NodeJS.ProcessEnv): string | undefined {
  const name = ciVariables.find((v) => isOn(env[v]));
  return name === undefined ? undefined : `${name}=${env[name] ?? ''}`;
}

/** GitHub Actions reads workflow commands (`::error ...::`, `::add-mask::`) from a step's output. */
export function onGithubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}
