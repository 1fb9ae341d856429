/**
 * What a tunnel session is: its record as the API lists it, and the wait the spec sets between an
 * agent's update and the restart that runs it. Data only, so that `sessions --help` reads the wait
 * from here without loading the stage.
 */

/** The spec's minimum wait between an agent update and the restart that activates it. */
export const restartAfterUpdateSeconds = 10;

/** A tunnel session as the API lists it: one online agent connection. */
export interface TunnelSession {
  readonly id: string;
  readonly uri: string;
  readonly agent_version: string;
  readonly credential: { readonly id: string; readonly uri: string } | null;
  readonly ip: string;
  readonly metadata: string;
  readonly os: string;
  readonly region: string;
  readonly started_at: string;
  readonly transport: string;
}
