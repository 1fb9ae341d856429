/** Secrets never leak: every command, output format and error path (see test/reliability/support/secrets-suite.ts). */
import { defineSecretsSuite } from '../reliability/support/secrets-suite.js';

defineSecretsSuite({ full: true });
