/**
 * Each test worker runs as on a developer's machine even when the suite itself runs under CI:
 * spawned CLIs inherit this environment, and acctsync behaves differently under CI (no silent
 * embedded emulator, workflow-command framing). A test that is about CI sets the variables itself.
 */
import { ciVariables } from '../src/cli/ci.js';

for (const name of ciVariables) delete process.env[name];
