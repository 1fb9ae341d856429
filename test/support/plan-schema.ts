/** The published plan schema (`schemas/plan.schema.json`), and a validator of plans against it. */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const planSchemaFile = JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')) as object;

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);

/** Whether a plan (parsed JSON) is valid against the published schema; `validatePlan.errors` says why not. */
export const validatePlan = ajv.compile(planSchemaFile);
