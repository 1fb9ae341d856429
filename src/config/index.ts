/** The desired-state loader: YAML files in, a validated `DesiredState` (or every problem) out. */
export { loadDesiredState, type LoadResult } from './load.js';
export type { SecretSpans } from './secret-spans.js';
export { ConfigError, type Diagnostic, type DocPath } from './diagnostic.js';
export { renderDiagnostic, renderGithubAnnotation } from './render.js';
export { buildConfigSchema } from './schema.js';
export { defaultPaths } from './files.js';
export { defaultApiKeyEnv, defaultApiUrlEnv, type EnvironmentSettings } from './environments.js';
export { maxFileBytes } from './source.js';
export { loadConfig, type LoadConfigOptions, type LoadedConfig } from './load-config.js';
export { configScope, environmentAccount } from './environment-account.js';
export { schemaFileUrl } from './schema.js';
export { configLayout, entryMembers, pinMember, type MapLayout } from './layout.js';
export { environmentBase, type BaseEntry } from './environment-base.js';
export { fileDiagnostic } from './diagnostic.js';
export { isSkippedDirectory } from './files.js';
export { readSideFiles, SideFileReport } from './side-files.js';
export { locate, readSource, type SourceFile } from './source.js';
export { isNoise, toFinding } from './schema-findings.js';
