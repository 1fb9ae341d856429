/**
 * Cross-field rules of the spec, as named functions over a body. The emulator answers a broken rule
 * with 400; the loader reports it at the offending line. One definition serves both.
 */
import { ErrorCode } from './error-codes.js';
import { privateKeyMatchesCertificate } from './formats/index.js';
import type { FieldNaming, Rule, Violation } from './types.js';
import { isPlainObject } from '../plain-object.js';

type Body = Readonly<Record<string, unknown>>;

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

function violation(path: (string | number)[], message: string): Violation {
  return { path, message, code: ErrorCode.validationFailed };
}

/** Members of `body` that are set, among `members`. */
function setMembers(body: Body, members: readonly string[]): string[] {
  return members.filter((m) => isSet(body[m]));
}

function exactlyOne(name: string, description: string, members: readonly string[], noun: string): Rule {
  return {
    name,
    description,
    check(body) {
      const present = setMembers(body, members);
      if (present.length === 1) return [];
      const message =
        present.length === 0
          ? `${noun} needs exactly one of ${members.join(', ')}; none is set`
          : `${noun} needs exactly one of ${members.join(', ')}; ${present.join(' and ')} are all set`;
      return [violation(present.length === 0 ? [] : [present[1] ?? present[0] ?? ''], message)];
    },
  };
}

export const reservedDomainCertificateExclusive: Rule = {
  name: 'reserved-domain-certificate-exclusive',
  description: 'A reserved domain takes an uploaded certificate or automatic management, not both.',
  check(body, names: FieldNaming) {
    const certificate = names === 'write' ? 'certificate_id' : 'certificate';
    if (isSet(body[certificate]) && isSet(body.certificate_management_policy)) {
      return [
        violation(
          ['certificate_management_policy'],
          `${certificate} and certificate_management_policy are mutually exclusive: choose an uploaded certificate or automatic management`,
        ),
      ];
    }
    return [];
  },
};

export const upstreamTerminationHasNoMinVersion: Rule = {
  name: 'upstream-termination-no-min-version',
  description:
    'With terminate_at `upstream` the platform does not terminate TLS, so min_version must be null.',
  check(body) {
    if (body.terminate_at === 'upstream' && isSet(body.min_version)) {
      return [violation(['min_version'], 'min_version must be null when terminate_at is upstream')];
    }
    return [];
  },
};

/** Modules that need to see decrypted traffic, so are refused when TLS passes through to the upstream. */
const modulesNeedingTermination = ['mutual_tls', 'policy'] as const;

export const upstreamTerminationDisallowsModules: Rule = {
  name: 'upstream-termination-disallows-modules',
  description:
    'With terminate_at `upstream`, modules that need access to the traffic (mutual_tls, policy) are refused.',
  check(body) {
    const termination = body.tls_termination;
    if (!isPlainObject(termination) || termination.terminate_at !== 'upstream') return [];
    return modulesNeedingTermination
      .filter((m) => {
        const module = body[m];
        return isPlainObject(module) && module.enabled !== false;
      })
      .map((m) =>
        violation(
          [m],
          `the ${m} module needs TLS terminated at the edge; it is not allowed with terminate_at upstream`,
        ),
      );
  },
};

export const oauthProviderMembers = [
  'provider_a',
  'provider_b',
  'provider_c',
  'provider_d',
  'provider_e',
  'provider_f',
  'provider_g',
  'provider_h',
] as const;

export const oauthExactlyOneProvider = exactlyOne(
  'oauth-exactly-one-provider',
  'An OAuth provider sets exactly one identity provider member.',
  oauthProviderMembers,
  'the OAuth provider',
);

export const oauthClientCredentials: Rule = {
  name: 'oauth-client-credentials',
  description:
    'client_id needs client_secret; scopes may be set only when both client_id and client_secret are given.',
  check(body) {
    const out: Violation[] = [];
    const hasId = isSet(body.client_id) && body.client_id !== '';
    const hasSecret = isSet(body.client_secret) && body.client_secret !== '';
    if (hasId && !hasSecret) {
      out.push(
        violation(
          ['client_id'],
          'client_id is set without client_secret: set both, or neither to use the managed application',
        ),
      );
    }
    const scopes = body.scopes;
    if (Array.isArray(scopes) && scopes.length > 0 && !(hasId && hasSecret)) {
      out.push(
        violation(['scopes'], 'scopes may be set only when both client_id and client_secret are given'),
      );
    }
    return out;
  },
};

export const eventTargetExactlyOne = exactlyOne(
  'event-target-exactly-one',
  'An event destination target sets exactly one member.',
  ['delivery_stream', 'data_stream', 'log_group', 'monitoring', 'object_store'],
  'the event target',
);

export const cloudAuthExactlyOne = exactlyOne(
  'cloud-auth-exactly-one',
  'Cloud auth sets exactly one of role or creds.',
  ['role', 'creds'],
  'auth',
);

/** A PEM private key must belong to the leaf (first) certificate of the PEM beside it. */
export function privateKeyBelongsToCertificate(certificateField: string, keyField: string): Rule {
  return {
    name: 'private-key-belongs-to-certificate',
    description: `${keyField} must be the private key of the first certificate of ${certificateField}.`,
    check(body) {
      const certificate = body[certificateField];
      const key = body[keyField];
      if (typeof certificate !== 'string' || typeof key !== 'string') return [];
      if (privateKeyMatchesCertificate(key, certificate)) return [];
      return [
        {
          path: [keyField],
          message: 'the private key does not belong to the certificate (the first certificate of the chain)',
          code: ErrorCode.invalidValue,
          hint: `check that ${certificateField} and ${keyField} come from the same key pair`,
        },
      ];
    },
  };
}
