/** `acctsync graph`: the desired state, or with `--plan` the change, as a mermaid or DOT graph. */
import { compare } from '../../compare.js';
import { ConfigError, loadDesiredState } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { inert } from '../../inert.js';
import { builtinKinds, type KindRegistry } from '../../resources/index.js';
import { didYouMean } from '../../suggest.js';
import {
  desiredGraph,
  dotOf,
  mermaidDefaults,
  mermaidOf,
  neighbourhood,
  planGraph,
  type GraphNode,
  type ObjectGraph,
} from '../../plan-format/index.js';
import { defineCommand } from '../command.js';
import { help } from '../help/graph.js';
import { printConfigWarnings } from '../config-report.js';
import { environmentName } from '../environment.js';
import { filesRootFrom } from '../files-root.js';
import { runCommand } from '../planned.js';
import { planningSettings } from '../plan-output.js';

type GraphFormat = 'mermaid' | 'dot';

function parseFormat(value: string | undefined): GraphFormat {
  const format = value ?? 'mermaid';
  if (format === 'mermaid' || format === 'dot') return format;
  throw new UsageError(`--format ${inert(format)} is not a graph format: use mermaid or dot`);
}

/** What `--kind` accepts: the names of `registry`'s kinds and the config sections that hold them. */
function kindNames(registry: KindRegistry): Set<string> {
  return new Set(registry.all.flatMap((d) => [d.kind, ...(d.config === undefined ? [] : [d.config.key])]));
}

function checkKinds(kinds: readonly string[], registry: KindRegistry): void {
  const known = kindNames(registry);
  for (const kind of kinds) {
    if (known.has(kind)) continue;
    throw new UsageError(`--kind ${inert(kind)} is not a kind`, {
      details: [didYouMean(kind, known) ?? `kinds: ${[...known].sort(compare).join(', ')}`],
    });
  }
}

const sectionOf = (key: string): string => key.slice(0, key.indexOf('/'));

/** The node is a changed (or configured) object KEY, one of its nested items, or was KEY before a rename. */
function hasKey(node: GraphNode, key: string): boolean {
  if (node.action === 'context') return false;
  return node.key === key || node.key.startsWith(`${key}/`) || node.renamedFrom === key;
}

/** The node is one `--kind` or `--key` asks for. */
function selects(kinds: readonly string[], keys: readonly string[]): (node: GraphNode) => boolean {
  return (node) =>
    (node.action !== 'context' &&
      kinds.some((k) => k === node.kind || (node.kind !== undefined && k === sectionOf(node.key)))) ||
    keys.some((k) => hasKey(node, k));
}

/** Every `--key` names an object of the graph, or the command says which does not. */
function checkKeys(graph: ObjectGraph, keys: readonly string[], planned: boolean): void {
  for (const key of keys) {
    if (graph.nodes.some((n) => hasKey(n, key))) continue;
    const hint = didYouMean(
      key,
      graph.nodes.filter((n) => n.action !== 'context').map((n) => n.key),
    );
    throw new UsageError(
      `--key ${inert(key)}: ${planned ? 'the plan changes no object with this key' : 'no object of the config has this key'}`,
      { details: hint === undefined ? [] : [inert(hint)] },
    );
  }
}

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const format = parseFormat(values.format);
    // The config's kinds: the loader knows the built-in ones alone.
    const registry = builtinKinds;
    const kinds = values.kind ?? [];
    const keys = values.key ?? [];
    checkKinds(kinds, registry);
    const environment = environmentName(values, process.env);
    const filesRoot = filesRootFrom(values);
    let graph: ObjectGraph;
    if (values.plan) {
      const { result } = await runCommand({
        paths: positionals,
        flags: values,
        env: process.env,
        filesRoot,
        environment,
        ...planningSettings(values),
        deadline: true,
      });
      if (!('plan' in result)) throw new Error(`a run that plans ended ${result.status}`);
      graph = planGraph(result.plan, registry);
    } else {
      // No account and no secrets: what is not available here is only a value, never a reference.
      const loaded = await loadDesiredState(positionals, {
        uncheckedUnavailable: true,
        filesRoot,
        ...(environment === undefined ? {} : { environment }),
      });
      if (!loaded.ok) throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
      printConfigWarnings(loaded.warnings, loaded.secretSpans, process.env);
      graph = desiredGraph(loaded.state, registry);
    }
    checkKeys(graph, keys, values.plan);
    const shown = kinds.length + keys.length === 0 ? graph : neighbourhood(graph, selects(kinds, keys));
    if (format === 'dot') {
      process.stdout.write(dotOf(shown, registry));
      return 0;
    }
    const unlimited = { maxChars: Number.MAX_SAFE_INTEGER, maxEdges: Number.MAX_SAFE_INTEGER };
    const text = mermaidOf(shown, unlimited, registry).text ?? '';
    process.stdout.write(text);
    const { maxChars, maxEdges } = mermaidDefaults;
    if (shown.edges.length > maxEdges || text.length > maxChars)
      process.stderr.write(
        `note: ${shown.edges.length} edges, ${text.length} characters: mermaid's renderer (GitHub's too) draws at most ${maxEdges} edges and ${maxChars} characters; narrow it with --kind or --key, or use --format dot\n`,
      );
    return 0;
  },
});
