/**
 * Secrets never leak (fast part): distinct canaries in every secret field and in the API key; the
 * commands where a secret is most at risk. The soak suite runs every command, format and error path.
 */
import { defineSecretsSuite } from './support/secrets-suite.js';

defineSecretsSuite({ full: false });
