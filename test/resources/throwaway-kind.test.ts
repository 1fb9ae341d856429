/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON read member by member */
/**
 * The proof of "how to add a kind" (docs/architecture.md): a kind nobody wrote code for, in a
 * registry of the test's own, is served by the emulator's CRUD, reconciled by the planner and
 * applier, judged by policy rules and named by the daemon's drift events and metrics with no other
 * change. The desired state is built in memory: the loader reads the built-in kinds (its config
 * layout, and the validator the build precompiles from the generated schema), so YAML for a kind
 * needs the kind in the build and the schema regenerated, as the checklist says; for the same
 * reason the daemon's reconcile step, which loads files, is not run here: its drift events and
 * metrics are fed a plan of the kind.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planMermaid, renderMarkdown, renderText } from '../../src/plan-format/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { loadPolicies, PolicyFileError, PolicyRefusal } from '../../src/policy/index.js';
import {
  builtinKinds,
  descriptorOfId,
  ErrorCode,
  isKindName,
  type DesiredObject,
  type DesiredState,
  type KindDescriptor,
  type KindRegistry,
  type RegisteredKindName,
} from '../../src/resources/index.js';
import { describable, field, ref, refTo, t } from '../../src/resources/fields.js';
import { crud } from '../../src/resources/kinds/common.js';
import { startHarness, syncState, withFields, type Harness } from '../apply/harness.js';
import { callEmulator } from '../emulator/harness.js';
import { startAccount } from '../support/account.js';
import { driftEventsOf } from '../../src/watch/drift.js';
import { WatchMetrics } from '../../src/watch/metrics.js';
import { planViewOf } from '../../src/watch/plan-view.js';
import { parseExposition, samplesOf } from '../watch/prometheus.js';

const widgetKind = 'widgets' as RegisteredKindName;

/** The built-in kinds, a widget kind and a child of it the service deletes with its widget. */
const kinds: KindRegistry = builtinKinds.with(
  {
    kind: widgetKind,
    title: 'widget',
    titlePlural: 'widgets',
    article: 'a',
    path: '/widgets',
    listMember: 'widgets',
    idPrefix: 'wdg_',
    fields: {
      ...describable(),
      label: field(t.string({ maxBytes: 64 }), 'What the widget is called.', { required: true }),
      size: field({ type: 'number', min: 0, max: 100 }, 'How large it is.', { nullable: true }),
      shape: field(t.enumOf(['round', 'square']), 'Its shape, fixed at creation.', {
        write: 'immutable',
        default: 'round',
      }),
      ip_policy: ref(refTo('ip_policies'), 'ip_policy_id', 'The IP policy guarding it.'),
    },
    rules: [],
    operations: crud,
    config: { key: 'widgets' },
    hasCreatedAt: true,
  },
  {
    kind: 'widget_parts',
    title: 'widget part',
    titlePlural: 'widget parts',
    article: 'a',
    path: '/widget_parts',
    listMember: 'widget_parts',
    idPrefix: 'wdp_',
    fields: {
      ...describable(),
      sku: field(t.string(), 'The part number.', { required: true }),
      widget: ref(refTo(widgetKind), 'widget_id', 'The widget it belongs to.', 'immutable', {
        required: true,
        nullable: false,
      }),
    },
    rules: [],
    operations: crud,
    parent: { kind: widgetKind, via: 'field', field: 'widget' },
    config: { key: 'widgets', nestedIn: { parentKind: widgetKind, member: 'parts' } },
    hasCreatedAt: true,
  },
);

function kindOf(name: string): KindDescriptor {
  if (!kinds.has(name)) throw new Error(`the test's registry lacks ${name}`);
  return kinds.descriptorOf(name);
}
const widgets = kindOf('widgets');
const parts = kindOf('widget_parts');

let h: Harness;

beforeAll(async () => {
  // The emulator serves the registry it is started with, for its whole life; the harness's runs
  // read, plan and write by the same one.
  h = await startHarness({ kinds });
});

afterAll(async () => {
  await h.close();
});

const call = (method: string, path: string, body?: unknown) => callEmulator(h.emulator, method, path, body);

describe('a registry of more kinds', () => {
  it('holds them beside the built-in ones, which it leaves unchanged', () => {
    expect(kinds.all.slice(0, builtinKinds.all.length)).toEqual(builtinKinds.all);
    expect(kinds.descriptorOfId('wdg_123')).toBe(widgets);
    expect(kinds.managed).toContain(parts);
    expect(builtinKinds.has('widgets')).toBe(false);
    expect(builtinKinds.descriptorOfId('wdg_123')).toBeUndefined();
    expect(() => (builtinKinds.all as KindDescriptor[]).push(widgets)).toThrow(TypeError);
    expect(() => Object.assign(builtinKinds, { all: [] })).toThrow(TypeError);
  });

  it('is read only where it is passed: the module-level lookups and an emulator given none know the built-in kinds alone', async () => {
    expect(isKindName('widgets')).toBe(false);
    expect(descriptorOfId('wdp_1')).toBeUndefined();
    await using plain = await startAccount();
    const answer = await callEmulator(plain.emulator, 'POST', '/widgets', { label: 'x' });
    expect(answer.status).toBe(404);
  });

  it('refuses a name or an id prefix already taken', () => {
    const gadget = { ...widgets, kind: 'gadgets', path: '/gadgets', listMember: 'gadgets', idPrefix: 'gdg_' };
    expect(() => kinds.with({ ...gadget, kind: 'widgets' })).toThrow('kind widgets is already registered');
    expect(() => kinds.with({ ...gadget, idPrefix: 'ipp_' })).toThrow('id prefix ipp_ is already taken');
  });
});

describe('the emulator serves a registered kind', () => {
  it('creates, gets, lists page by page, patches and deletes it', async () => {
    const policy = (await call('POST', '/ip_policies', {})).body.id as string;
    const created = await call('POST', '/widgets', {
      label: 'first',
      size: 5,
      shape: 'square',
      ip_policy_id: policy,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(id).toMatch(/^wdg_/);
    expect(created.body).toMatchObject({
      uri: `${h.emulator.url}/widgets/${id}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      label: 'first',
      size: 5,
      shape: 'square',
      ip_policy: { id: policy, uri: `${h.emulator.url}/ip_policies/${policy}` },
    });
    // Empty, they are left out of the answer, as the vendor's examples show (docs/emulator.md).
    expect(created.body).not.toHaveProperty('description');
    expect(created.body).not.toHaveProperty('metadata');
    expect((await call('GET', `/widgets/${id}`)).body).toEqual(created.body);

    const others = [];
    for (const label of ['second', 'third']) others.push((await call('POST', '/widgets', { label })).body);
    expect(others[0]).toMatchObject({ shape: 'round', ip_policy: null });
    const first = await call('GET', '/widgets?limit=2');
    expect(first.body.widgets.map((w: { id: string }) => w.id)).toEqual([others[1].id, others[0].id]);
    const rest = await call('GET', String(first.body.next_page_uri));
    expect(rest.body.widgets.map((w: { id: string }) => w.id)).toEqual([id]);
    expect(rest.body.next_page_uri).toBeNull();

    const patched = await call('PATCH', `/widgets/${id}`, { size: 7, description: 'resized' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ size: 7, description: 'resized', label: 'first', shape: 'square' });

    for (const w of [id, ...others.map((o: { id: string }) => o.id)]) {
      expect((await call('DELETE', `/widgets/${w}`)).status).toBe(204);
    }
    expect((await call('GET', `/widgets/${id}`)).status).toBe(404);
    expect((await call('GET', '/widgets')).body.widgets).toEqual([]);
  });

  it('answers 400 to what its descriptor forbids', async () => {
    const refused = async (method: string, path: string, body: unknown, code: number, msg: RegExp) => {
      const answer = await call(method, path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error_code).toBe(`ERR_SVC_${code}`);
      expect(answer.body.msg).toMatch(msg);
    };
    const badCreates: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ label: 'x', colour: 'red' }, ErrorCode.unknownField, /unknown field colour/],
      [{ size: 1 }, ErrorCode.validationFailed, /label/],
      [{ label: 'x', size: 101 }, ErrorCode.invalidValue, /size/],
      [{ label: 'x', ip_policy_id: 'ipp_missing' }, ErrorCode.badReference, /does not exist/],
    ];
    for (const [body, code, msg] of badCreates) await refused('POST', '/widgets', body, code, msg);
    const id = (await call('POST', '/widgets', { label: 'kept' })).body.id as string;
    const immutable = /cannot be changed after creation/;
    await refused('PATCH', `/widgets/${id}`, { shape: 'square' }, ErrorCode.unknownField, immutable);
    expect((await call('DELETE', `/widgets/${id}`)).status).toBe(204);
  });
});

const at = { file: 'memory.yaml', line: 1, column: 1 };
const object = (
  kind: DesiredObject['kind'],
  key: string,
  fields: Record<string, unknown>,
): DesiredObject => ({
  kind,
  key,
  name: key.split('/')[1] ?? key,
  fields,
  sensitive: [],
  source: at,
});
/** A part nested in the widget `widget` (`widgets/NAME`), as the config writes it under `parts`. */
const nestedPart = (widget: string, name: string, sku: string): DesiredObject => ({
  ...object(parts.kind, `${widget}/parts/${name}`, { sku, widget }),
  name,
  parentKey: widget,
});
/** The live widgets labelled `label`. */
const widgetsLabelled = async (label: string): Promise<Array<Record<string, unknown>>> =>
  ((await call('GET', '/widgets')).body.widgets as Array<Record<string, unknown>>).filter(
    (w) => w.label === label,
  );

describe('the reconciler manages a registered kind', () => {
  const sync = (desired: DesiredState) => syncState(h, desired);
  const plan = async (desired: DesiredState) => (await planFor(desired, h.client, { kinds })).plan.operations;
  /** The plan as `acctsync plan` prints it. */
  const shown = async (desired: DesiredState) =>
    renderText((await planFor(desired, h.client, { kinds })).plan, { color: false, kinds });

  it('creates, updates, replaces and deletes it, with its children, as the config changes', async () => {
    const desired: DesiredState = {
      scope: 'throwaway',
      objects: [
        object('ip_policies', 'ip_policies/office', { description: 'office' }),
        object(widgets.kind, 'widgets/main', { label: 'main', size: 3, ip_policy: 'ip_policies/office' }),
      ],
    };
    const creates = await plan(desired);
    expect(creates.map((op) => [op.action, op.key])).toEqual([
      ['create', 'ip_policies/office'],
      ['create', 'widgets/main'],
    ]);
    // The pull request's picture of the change draws the kind with the registry it is given.
    const created = (await planFor(desired, h.client, { kinds })).plan;
    const picture = planMermaid(created, undefined, kinds);
    expect([picture.detail, picture.objects, picture.edges]).toEqual(['objects', 2, 1]);
    expect(picture.text).toContain('widget');
    expect(renderMarkdown(created, undefined, { kinds })).toContain(picture.text);
    expect((await sync(desired)).result.status).toBe('succeeded');
    const live = (await call('GET', '/widgets')).body.widgets;
    expect(live).toHaveLength(1);
    const policies = (await call('GET', '/ip_policies')).body.ip_policies;
    const office = policies.find((p: { description: string }) => p.description === 'office');
    expect(live[0]).toMatchObject({ label: 'main', size: 3, shape: 'round', ip_policy: { id: office.id } });
    expect(await plan(desired)).toEqual([]);

    const resized = withFields(desired, 'widgets/main', (f) => ({ ...f, size: 4 }));
    const update = await plan(resized);
    expect(update).toMatchObject([
      {
        action: 'update',
        key: 'widgets/main',
        liveId: live[0].id,
        changes: [{ path: ['size'], before: 3, after: 4 }],
      },
    ]);
    expect(await shown(resized)).toContain(`~ widgets/main  widget ${live[0].id}\n      ~ size: 3 -> 4\n`);
    await sync(resized);
    expect((await call('GET', `/widgets/${live[0].id}`)).body.size).toBe(4);

    const reshaped = withFields(resized, 'widgets/main', (f) => ({ ...f, shape: 'square' }));
    const replace = await plan(reshaped);
    expect(replace.map((op) => [op.action, op.key, op.replaces, op.reason_code])).toEqual([
      ['create', 'widgets/main', 'widgets/main', 'replace_because_immutable'],
      ['delete', 'widgets/main', 'widgets/main', 'replace_because_immutable'],
    ]);
    expect(await shown(reshaped)).toContain(
      `-/+ widgets/main  widget ${live[0].id}  (shape cannot change in place)\n` +
        `      ~ shape: "round" -> "square"  # forces replacement\n`,
    );
    await sync(reshaped);
    const replaced = (await call('GET', '/widgets')).body.widgets;
    expect(replaced).toMatchObject([{ shape: 'square', size: 4 }]);
    expect(replaced[0].id).not.toBe(live[0].id);
    expect(await plan(reshaped)).toEqual([]);

    const gear = nestedPart('widgets/main', 'gear', 'g-1');
    const withPart = { ...reshaped, objects: [...reshaped.objects, gear] };
    expect((await plan(withPart)).map((op) => [op.action, op.key])).toEqual([
      ['create', 'widgets/main/parts/gear'],
    ]);
    await sync(withPart);
    const part = (await call('GET', '/widget_parts')).body.widget_parts[0];
    expect(part).toMatchObject({ sku: 'g-1', widget: { id: replaced[0].id } });

    const removed = {
      ...withPart,
      objects: withPart.objects.filter((o) => o.key.startsWith('ip_policies/')),
    };
    const deletes = await plan(removed);
    expect(deletes).toMatchObject([
      {
        action: 'delete',
        key: 'widgets/main',
        liveId: replaced[0].id,
        reason_code: 'delete_because_removed_from_config',
        cascade: { objects: [{ kind: parts.kind, id: part.id, key: 'widgets/main/parts/gear' }] },
      },
    ]);
    await sync(removed);
    expect((await call('GET', '/widgets')).body.widgets).toEqual([]);
    expect((await call('GET', `/widget_parts/${part.id}`)).status).toBe(404);
    expect(await plan(removed)).toEqual([]);
  });
});

describe('policy rules judge a registered kind', () => {
  const rules = `version: 1
rules:
  - name: small-widgets
    on: object
    kinds: [widgets]
    expression: "!has(object.size) || object.size <= 5"
    message: a widget is at most 5 in size
  - name: numbered-parts
    on: object
    kinds: [widgets]
    expression: "!has(object.parts) || object.parts.all(p, p.sku.startsWith('g-'))"
    message: every part of a widget has a g- part number
  - name: parts-stay
    on: change
    kinds: [widget_parts]
    expression: change.action != 'delete'
    message: a widget part is never taken off
`;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-throwaway-policy-'));
    await writeFile(join(dir, 'rules.yaml'), rules);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names it in a rule, sees its nested parts, and refuses the write a rule breaks', async () => {
    // The rules' kinds are the registry's: the built-in kinds alone do not hold widgets.
    const refused = await loadPolicies(['rules.yaml'], builtinKinds, dir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PolicyFileError);
    expect((refused as PolicyFileError).diagnostics).toMatchObject([
      { file: 'rules.yaml', line: 5, column: 13, message: 'unknown kind widgets' },
      { file: 'rules.yaml', line: 10, column: 13, message: 'unknown kind widgets' },
      { file: 'rules.yaml', line: 15, column: 13, message: 'unknown kind widget_parts' },
    ]);
    const policies = await loadPolicies(['rules.yaml'], kinds, dir);
    expect(policies.map((r) => [r.name, r.kinds])).toEqual([
      ['small-widgets', ['widgets']],
      ['numbered-parts', ['widgets']],
      ['parts-stay', ['widget_parts']],
    ]);

    const sync = (desired: DesiredState) => syncState(h, desired, { policies });
    const judged = (size: number, sku: string): DesiredState => ({
      scope: 'judged',
      objects: [
        object(widgets.kind, 'widgets/judged', { label: 'judged', size }),
        nestedPart('widgets/judged', 'spring', sku),
      ],
    });
    const broken = await sync(judged(9, 'x-1')).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(PolicyRefusal);
    expect((broken as PolicyRefusal).details).toEqual([
      'rule small-widgets on widgets/judged: a widget is at most 5 in size',
      'rule numbered-parts on widgets/judged: every part of a widget has a g- part number',
    ]);
    expect(await widgetsLabelled('judged')).toEqual([]);

    await sync(judged(4, 'g-2'));
    const [made] = await widgetsLabelled('judged');
    expect(made).toMatchObject({ size: 4 });
    const taken = await call('GET', '/widget_parts');
    expect(taken.body.widget_parts).toContainEqual(expect.objectContaining({ sku: 'g-2' }));

    const withoutPart = { ...judged(4, 'g-2'), objects: judged(4, 'g-2').objects.slice(0, 1) };
    const kept = await sync(withoutPart).catch((e: unknown) => e);
    expect(kept).toBeInstanceOf(PolicyRefusal);
    expect((kept as PolicyRefusal).details).toEqual([
      'rule parts-stay on widgets/judged/parts/spring: a widget part is never taken off',
    ]);
    expect((await call('GET', '/widget_parts')).body.widget_parts).toContainEqual(
      expect.objectContaining({ sku: 'g-2' }),
    );
  });
});

describe("the daemon's drift events, plan view and metrics name a registered kind", () => {
  it('by the config section that holds it, with a series for it from the start', async () => {
    const desired: DesiredState = {
      scope: 'drifting',
      objects: [
        object(widgets.kind, 'widgets/watched', { label: 'watched', size: 2 }),
        nestedPart('widgets/watched', 'cog', 'c-1'),
      ],
    };
    await syncState(h, desired);
    const [watched] = await widgetsLabelled('watched');
    await call('PATCH', `/widgets/${String(watched?.id)}`, { size: 8 });

    const { plan } = await planFor(desired, h.client, { kinds });
    const events = driftEventsOf(kinds, plan.operations, true);
    expect(events).toEqual([
      {
        kind: 'widgets',
        key: 'widgets/watched',
        action: 'update',
        changes: [{ field: 'size', old: 8, new: 2 }],
        reverted: false,
        cause: 'drift',
      },
    ]);
    // The status page's view: the part is written under its widget, in the same section.
    expect(planViewOf(plan, desired, kinds)).toMatchObject({
      objects: [
        { kind: 'widgets', key: 'widgets/watched' },
        { kind: 'widgets', key: 'widgets/watched/parts/cog' },
      ],
      changes: [{ action: 'update', kind: 'widgets', key: 'widgets/watched' }],
    });

    const metrics = new WatchMetrics(kinds);
    const drifted = async () =>
      samplesOf(parseExposition((await metrics.render()).text), 'acctsync_drifted_objects').find(
        (s) => s.labels.kind === 'widgets',
      )?.value;
    expect(await drifted()).toBe(0);
    metrics.recordReconcile({
      id: 'widgets1',
      trigger: 'interval',
      result: { status: 'success', planned: 1, applied: [], drift: events },
      startedAt: new Date(),
      durationMs: 50,
      failures: 0,
      drift: true,
      apiRequests: 3,
    });
    expect(await drifted()).toBe(1);
    // Metrics given the built-in kinds have no widget series.
    const plain = parseExposition((await new WatchMetrics(builtinKinds).render()).text);
    expect(samplesOf(plain, 'acctsync_drifted_objects').map((s) => s.labels.kind)).not.toContain('widgets');
  });
});
