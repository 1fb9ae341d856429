/**
 * Source text of the `RegExp` stand-in both CEL worker programs install while they evaluate (the
 * policy rules' and the offline traffic evaluator's): RE2's linear-time engine, so a dashboard
 * user's pattern cannot backtrack for minutes. The program must have `RE2JS` in scope.
 */
export const linearRegExpSource = `class LinearRegExp {
  constructor(pattern) {
    this.compiled = RE2JS.compile(String(pattern));
  }
  test(text) {
    return this.compiled.matcher(String(text)).find();
  }
}`;
