/**
 * The program of the worker thread that runs policy rules (`sandbox.ts`), as source text: a worker
 * started from a file would need that file beside every build of the CLI (the bundle has none), and
 * the program is small. It loads the CEL library and RE2JS from the paths it is given, compiles
 * each rule once, and answers each evaluation with the rule's result in words.
 *
 * The CEL library's `matches()` builds a JavaScript `RegExp`, a backtracking engine: one pattern
 * over a dashboard user's 40 characters ran for minutes. During an evaluation, `RegExp` here is
 * RE2's linear-time engine (RE2 is also the syntax CEL specifies); nothing else in this thread
 * builds one then.
 */
import { linearRegExpSource } from '../linear-regexp-source.js';

export const ruleWorkerSource = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { Environment } = require(workerData.celLibrary);
const { RE2JS } = require(workerData.re2js);

${linearRegExpSource}

const environments = {};
function environment(on) {
  if (environments[on] === undefined) {
    const env = new Environment({ homogeneousAggregateLiterals: false });
    for (const [name, type] of Object.entries(workerData.variables[on])) env.registerVariable(name, type);
    environments[on] = env;
  }
  return environments[on];
}

const programs = new Map();
function program(on, expression) {
  const key = on + '\\u0000' + expression;
  let compiled = programs.get(key);
  if (compiled === undefined) {
    compiled = environment(on).parse(expression);
    programs.set(key, compiled);
  }
  return compiled;
}

const JsRegExp = globalThis.RegExp;
parentPort.on('message', ({ id, on, expression, variables }) => {
  let answer;
  globalThis.RegExp = LinearRegExp;
  try {
    const value = program(on, expression)(variables);
    answer = { id, value: value === true ? true : value === false ? false : String(value) };
  } catch (error) {
    answer = { id, error: String((error && (error.summary || error.message)) || error) };
  } finally {
    globalThis.RegExp = JsRegExp;
  }
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
`;
