/** An event destination's `target`: where events are delivered, and the cloud credentials to get there. */
import { field, t } from './fields.js';
import { cloudAuthExactlyOne } from './rules.js';
import type { Fields } from './types.js';

const cloudAuth = field(
  t.object(
    {
      role: field(
        t.object({ role_arn: field(t.string(), 'Role the service assumes.', { required: true }) }),
        'Role to assume.',
        {
          nullable: true,
          default: null,
        },
      ),
      creds: field(
        t.object({
          cloud_access_key_id: field(t.string(), 'Access key id.', { required: true }),
          cloud_secret_access_key: field(t.string(), 'Secret access key.', {
            required: true,
            secret: true,
            writeOnly: true,
          }),
        }),
        'Static credentials.',
        { nullable: true, default: null },
      ),
    },
    [cloudAuthExactlyOne],
  ),
  'Exactly one of role or creds.',
  { required: true },
);

/** The event destination `target` shape: exactly one member is set. */
export const eventTargetFields: Fields = {
  delivery_stream: field(
    t.object({
      auth: cloudAuth,
      delivery_stream_arn: field(t.string(), 'Delivery stream ARN.', { required: true }),
    }),
    'Deliver to a cloud delivery stream.',
    { nullable: true, default: null },
  ),
  data_stream: field(
    t.object({ auth: cloudAuth, stream_arn: field(t.string(), 'Data stream ARN.', { required: true }) }),
    'Deliver to a cloud data stream.',
    { nullable: true, default: null },
  ),
  log_group: field(
    t.object({ auth: cloudAuth, log_group_arn: field(t.string(), 'Log group ARN.', { required: true }) }),
    'Deliver to a cloud log group.',
    { nullable: true, default: null },
  ),
  monitoring: field(
    t.object({
      api_key: field(t.string(), 'Monitoring service API key.', {
        required: true,
        secret: true,
        writeOnly: true,
      }),
      tags: field(t.string(), 'Tags.', { default: '' }),
      service: field(t.string(), 'Service name.', { default: '' }),
      site: field(t.string(), 'Monitoring site.', { default: '' }),
    }),
    'Deliver to a monitoring service.',
    { nullable: true, default: null },
  ),
  object_store: field(
    t.object({
      auth: cloudAuth,
      bucket_arn: field(t.string(), 'Bucket ARN.', { required: true }),
      object_prefix: field(t.string(), 'Prefix of the written objects.', { default: '' }),
    }),
    'Deliver to an object store (fields not shown by the spec; modelled on the other targets).',
    { nullable: true, default: null },
  ),
};
