/**
 * Automatic certificate management that completes, as the live service's does (gaps.md,
 * "Asynchronous and lifecycle behaviour"): a provisioning job started by a policy issues a
 * certificate after a delay, stored as a TLS certificate the service owns (`issued_at` set) and
 * filled into the object's `certificate`. The control surface can fail a job or complete it at once.
 * What the service issued goes when the object does, or when it stops being the object's certificate.
 */
import { descriptors, ErrorCode, withDefaults, type KindDescriptor } from '../resources/index.js';
import type { Account } from './account.js';
import type { StoredRecord } from './collection.js';
import { derivePem } from './derive-pem.js';
import { publishWrite } from './events.js';
import { badRequest } from './failure.js';
import { serviceTime } from './platform.js';
import { isPlainObject } from '../plain-object.js';
import { isServiceIssued } from './service-issued.js';
import type { EmulatorCa } from './x509.js';

/** How a failed job reports itself: `error_code`, the default message and when it retries. */
const FAILURES = {
  DNS_ERROR: { msg: 'the DNS records of the domain do not point to the service', retryMs: 60 * 60 * 1000 },
  INTERNAL_ERROR: { msg: 'temporary error while provisioning the certificate', retryMs: 5 * 60 * 1000 },
} as const;
export type JobFailure = keyof typeof FAILURES;
export const jobFailures = Object.keys(FAILURES) as JobFailure[];

/** Renewal is requested this long before the certificate expires. */
const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

function pendingJob(record: StoredRecord): Record<string, unknown> | undefined {
  const status = record.values.certificate_management_status;
  const job = isPlainObject(status) ? status.provisioning_job : undefined;
  return isPlainObject(job) && job.error_code === null ? job : undefined;
}

/** Kinds whose objects get certificates issued: a policy and a `certificate` reference. */
function managesCertificates(d: KindDescriptor): boolean {
  return 'certificate_management_policy' in d.fields && 'certificate' in d.fields;
}

export class CertificateJobs {
  readonly #account: Account;
  readonly #ca: EmulatorCa;
  readonly #delayMs: number;
  /** object id → the timer of its pending job. */
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(account: Account, ca: EmulatorCa, delayMs: number) {
    this.#account = account;
    this.#ca = ca;
    this.#delayMs = delayMs;
  }

  /** Schedules the jobs of a loaded account. */
  resume(): void {
    for (const { d, record } of this.#account.records()) this.written(d, record, undefined);
  }

  /** After a create or update: drops a replaced issued certificate, (re)schedules the job. */
  written(
    d: KindDescriptor,
    record: StoredRecord,
    before: Readonly<Record<string, unknown>> | undefined,
  ): void {
    if (!managesCertificates(d)) return;
    const previous = before?.certificate;
    if (previous !== record.values.certificate) this.#dropIssued(previous);
    const job = pendingJob(record);
    const beforeStatus = before?.certificate_management_status;
    if (before !== undefined && beforeStatus === record.values.certificate_management_status) return;
    this.#cancel(record.id);
    if (job === undefined) return;
    const timer = setTimeout(() => {
      this.#timers.delete(record.id);
      void this.#issue(d, record.id, job);
    }, this.#delayMs);
    timer.unref();
    this.#timers.set(record.id, timer);
  }

  /** After a delete: what the service issued for the object goes with it. */
  removed(d: KindDescriptor, record: StoredRecord): void {
    if (!managesCertificates(d)) return;
    this.#cancel(record.id);
    this.#dropIssued(record.values.certificate);
  }

  /** Completes the object's pending job now; resolves once the certificate is in place. */
  async complete(d: KindDescriptor, id: string): Promise<void> {
    const job = this.#pending(d, id);
    this.#cancel(id);
    await this.#issue(d, id, job);
  }

  /** Fails the object's pending job with `code`; it stays failed until the policy is written again. */
  fail(d: KindDescriptor, id: string, code: JobFailure, msg?: string): void {
    const job = this.#pending(d, id);
    this.#cancel(id);
    const record = this.#account.collection(d.kind).get(id);
    if (record === undefined) return;
    const retries = new Date(this.#account.now().getTime() + FAILURES[code].retryMs);
    const status = {
      renews_at: null,
      provisioning_job: {
        error_code: code,
        msg: msg ?? FAILURES[code].msg,
        started_at: job.started_at,
        retries_at: serviceTime(retries),
      },
    };
    this.#account.replace(d, record, { ...record.values, certificate_management_status: status });
    publishWrite(this.#account, d, 'updated', this.#account.render(d, record));
  }

  close(): void {
    for (const id of [...this.#timers.keys()]) this.#cancel(id);
  }

  #pending(d: KindDescriptor, id: string): Record<string, unknown> {
    const record = this.#account.collection(d.kind).get(id);
    const job = record === undefined ? undefined : pendingJob(record);
    if (job === undefined) {
      throw badRequest(ErrorCode.invalidValue, `${id} has no certificate provisioning job in progress`);
    }
    return job;
  }

  #cancel(id: string): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  async #issue(d: KindDescriptor, id: string, job: Record<string, unknown>): Promise<void> {
    const account = this.#account;
    const record = account.collection(d.kind).get(id);
    const policy = record?.values.certificate_management_policy;
    if (record === undefined || !isPlainObject(policy)) return;
    const keyType = policy.private_key_type === 'ecdsa' ? 'ecdsa' : 'rsa';
    const issued = await this.#ca.issue(String(record.values.domain), keyType, account.now());
    // The job may have been replaced, failed or its object deleted while the key was generated.
    const current = account.collection(d.kind).get(id);
    if (current === undefined || pendingJob(current) !== job) return;

    const certs = descriptors.tls_certificates;
    const values = withDefaults(certs.fields, {
      certificate_pem: issued.certificatePem,
      private_key_pem: issued.privateKeyPem,
    });
    derivePem(certs, values, account.answers);
    values.issued_at = account.timestamp();
    const cert: StoredRecord = {
      id: account.ids.next(certs.idPrefix ?? 'cert_'),
      created_at: account.timestamp(),
      values,
      hidden: { issued_for: id },
    };
    account.insert(certs, cert);
    publishWrite(account, certs, 'created', account.render(certs, cert));

    const renews = new Date(issued.notAfter.getTime() - RENEW_BEFORE_MS);
    const before = current.values;
    account.replace(d, current, {
      ...before,
      certificate: cert.id,
      certificate_management_status: {
        renews_at: serviceTime(renews),
        provisioning_job: null,
      },
    });
    this.#dropIssued(before.certificate);
    publishWrite(account, d, 'updated', account.render(d, current));
  }

  #dropIssued(id: unknown): void {
    const account = this.#account;
    if (!isServiceIssued(account, id) || typeof id !== 'string') return;
    const certs = descriptors.tls_certificates;
    const cert = account.collection(certs.kind).get(id);
    if (cert === undefined || account.referrersOf(id).length > 0) return;
    const out = account.render(certs, cert);
    account.remove(certs, cert);
    publishWrite(account, certs, 'deleted', out);
  }
}
