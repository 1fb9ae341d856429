import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from '../support/cli.js';
import { useAccount } from '../support/use-account.js';

const account = useAccount({}, 'file');
let credential: string;

beforeAll(async () => {
  credential = (await account.client.post<{ id: string }>('/credentials', { description: 'agents' })).body.id;
});

/** Connects a simulated agent through the emulator's control surface; resolves to its session id. */
async function agent(options: Record<string, unknown> = {}): Promise<{ agent: string; session: string }> {
  const body = (
    await account.client.post<{ agent: { id: string }; session: { id: string } }>('/_emulator/agents', {
      credential_id: credential,
      ...options,
    })
  ).body;
  return { agent: body.agent.id, session: body.session.id };
}

describe('acctsync sessions', { timeout: 60_000 }, () => {
  it('lists online sessions as a table and as JSON, and shows one', async () => {
    const { session } = await agent({ os: 'linux', agent_version: '3.18.0', region: 'eu' });
    const table = await runCliAgainst(['sessions', 'list'], account);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+AGENT\s+OS\s+REGION\s+TRANSPORT\s+IP\s+CREDENTIAL\s+STARTED/);
    expect(table.stdout).toContain(session);
    const json = await runCliAgainst(['sessions', 'list', '--output', 'json'], account);
    const listed = JSON.parse(json.stdout) as {
      tunnel_sessions: Array<{ id: string; credential: { id: string } }>;
    };
    expect(listed.tunnel_sessions.find((s) => s.id === session)?.credential.id).toBe(credential);
    const show = await runCliAgainst(['sessions', 'show', session], account);
    expect(show.stdout).toMatch(/agent_version:\s+3\.18\.0/);
    expect(show.stdout).toMatch(/region:\s+eu/);
  });

  it('updates an agent, reminds to wait 10 seconds, then refuses while it updates and once updated', async () => {
    const { agent: id, session } = await agent({ update: 'available' });
    const updated = await runCliAgainst(['sessions', 'update', session], account);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(
      `Wait at least 10 seconds, then run: acctsync sessions restart ${session}`,
    );

    const again = await runCliAgainst(['sessions', 'update', session], account);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `error: update refused: the agent is already updating (session ${session})`,
    );

    await account.client.patch(`/_emulator/agents/${id}`, { update: 'updated' });
    const pending = await runCliAgainst(['sessions', 'update', session], account);
    expect(pending.code).toBe(1);
    expect(pending.stderr).toContain(
      'update refused: the agent already updated and has not been restarted yet',
    );
    expect(pending.stderr).toContain('acctsync sessions restart');

    const restarted = await runCliAgainst(['sessions', 'restart', session], account);
    expect(restarted.code).toBe(0);
    expect(restarted.stdout).toContain('reconnects with a new session id');
    const gone = await runCliAgainst(['sessions', 'show', session], account);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`error: no online tunnel session ${session}`);
  });

  it('refuses an update when none is available, within the major version too', async () => {
    const none = await agent({ update: 'none' });
    const result = await runCliAgainst(['sessions', 'update', none.session], account);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('update refused: no update is available for this agent');
    const major = await agent({ update: 'available', agent_version: '3.18.0', update_version: '4.0.0' });
    const majorResult = await runCliAgainst(['sessions', 'update', major.session], account);
    expect(majorResult.stderr).toContain('update refused: no update is available for this agent');
    expect(majorResult.stderr).toContain('never move to a new major version');
  });

  it('refuses an update when update checks are disabled', async () => {
    const { session } = await agent({ update: 'disabled' });
    const result = await runCliAgainst(['sessions', 'update', session], account);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('update refused: update checks are disabled in the agent configuration');
  });

  it('refuses a restart on Windows and stops any agent', async () => {
    const { session } = await agent({ os: 'windows' });
    const restart = await runCliAgainst(['sessions', 'restart', session], account);
    expect(restart.code).toBe(1);
    expect(restart.stderr).toContain('restart is not supported on Windows agents');
    const stop = await runCliAgainst(['sessions', 'stop', session, '--output', 'json'], account);
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ session, command: 'stop' });
    const listed = await runCliAgainst(['sessions', 'list', '--output', 'json'], account);
    expect(listed.stdout).not.toContain(session);
  });

  it('rejects a bad action or output before connecting', async () => {
    const bad = await runCliAgainst(['sessions', 'reboot', 'ts_1'], account);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown action reboot');
    const output = await runCliAgainst(['sessions', 'list', '--output', 'yaml'], account);
    expect(output.code).toBe(1);
  });
});
