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
