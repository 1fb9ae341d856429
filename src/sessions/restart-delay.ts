/** The spec's minimum wait between an agent update and the restart that activates it. */
export const restartAfterUpdateSeconds = 10;
