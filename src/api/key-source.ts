/**
 * An API key that can change while a client lives: the key file of a Kubernetes Secret, which the
 * kubelet replaces when the Secret is rotated (and the old key is revoked). The client asks for
 * the key before each attempt, and once more after a 401 before it gives up.
 */

/** Where the client's key comes from, when it is not fixed. */
export interface ApiKeySource {
  /** The key to send now. */
  current(): string;
  /**
   * Reads the key again, after the service refused the current one; resolves true when a different
   * key is now current (the refused request is then sent again with it).
   */
  renew(): Promise<boolean>;
}
