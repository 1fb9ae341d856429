import { readFileSync } from 'node:fs';

const PKI_DIR = new URL('../../fixtures/pki/', import.meta.url);

/** The text of a file in test/fixtures/pki. */
export function pki(name: string): string {
  return readFileSync(new URL(name, PKI_DIR), 'utf8');
}

/** `<first column> -> <second column>` of a fixture fingerprint listing. */
export function fingerprints(file: string, keyColumn: number, valueColumn: number): Map<string, string> {
  return new Map(
    pki(file)
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .map((columns) => [columns[keyColumn] ?? '', columns[valueColumn] ?? '']),
  );
}
