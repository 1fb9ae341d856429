/** What `acctsync test-traffic --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { filesRootOptions } from '../files-root.js';

export const help = defineHelp({
  name: 'test-traffic',
  synopsis: ['acctsync test-traffic CONFIG TESTS... [--env NAME] [--output text|json]'],
  description: `Runs traffic tests against the desired state, offline: each test's sample connection reaches
a TLS edge of the config, which is evaluated as the platform would (the IP restriction module,
then the traffic policy's inbound rules in order), and the outcome must be the one the test
expects. CONFIG is the config (a YAML file or a directory); TESTS are tests files or directories
of them (format: schemas/traffic-tests.schema.json, docs/traffic-policy.md). A failure names what
decided instead, at its file:line; an outcome that depends on a variable the test does not set
is unknown, and fails.`,
  flags: {
    ...environmentOptions,
    ...filesRootOptions,
    output: { type: 'string', default: 'text', value: 'text|json', help: 'report format' },
  },
  notes: `Exit status: 0 every test passed, 1 a test failed, the config or a tests file is invalid
(every problem at its file:line:col), or the evaluation's safety net stopped a runaway expression
(an error, never a test's outcome: docs/traffic-policy.md, "What-if limits").`,
});
