/** The ownership scope the files set: files may repeat it; they may not disagree about it. */
import type { FileFinding, SourceFile } from './source.js';

/** One file's `scope:`. */
export interface ScopeSetting {
  readonly source: SourceFile;
  readonly scope: string;
}

const defaultScope = 'default';

export function scopeSetting(source: SourceFile): ScopeSetting | undefined {
  const scope = (source.value as Record<string, unknown>).scope;
  return typeof scope === 'string' ? { source, scope } : undefined;
}

/** The scope the first file to set one sets, or the default. */
export function filesScope(settings: readonly ScopeSetting[]): string {
  return settings[0]?.scope ?? defaultScope;
}

export function checkScopes(settings: readonly ScopeSetting[], out: FileFinding[]): void {
  const first = settings[0];
  for (const s of settings.slice(1)) {
    if (first && s.scope !== first.scope) {
      out.push({
        source: s.source,
        path: ['scope'],
        message: `scope ${s.scope} differs from scope ${first.scope} set in ${first.source.file}`,
        hint: 'all files of one desired state share one scope',
      });
    }
  }
}
