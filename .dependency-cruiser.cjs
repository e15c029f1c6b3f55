/**
 * The import rules of the house (docs/CONVENTIONS.md, "Layers"), checked by `npm run lint:imports` in `npm test`:
 *
 *   commands (scripts/, playwright.config.ts) -> suites/ -> harness/ -> interfaces/ (definitions)
 *
 * with the references (mocks/) beside the suites: they may use the harness and the definitions, never a suite, and
 * no suite uses them. Only a command puts a suite and its reference together (scripts/interfaces.ts). No loop at all.
 */
const layer = (name, path, mayNotImport, comment) => ({ name, severity: 'error', comment, from: { path }, to: { path: mayNotImport } });

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'a loop of imports: the layers no longer run one way', from: {}, to: { circular: true } },
    layer('definitions-import-nothing-above', '^interfaces/', '^(harness|suites|mocks|scripts)/', 'an interface definition is the bottom layer: it imports no harness, suite, reference or command'),
    layer('harness-imports-no-suite-or-reference', '^harness/', '^(suites|mocks|scripts)/', 'the harness knows interfaces by their definitions; suites and references are handed over by a command'),
    layer('references-import-no-suite', '^mocks/', '^(suites|scripts)/', 'a reference stands beside the suites: what both need lives in interfaces/ or harness/'),
    layer('suites-import-no-reference', '^suites/', '^(mocks|scripts)/', 'a suite judges whatever deployment it is pointed at: it never reaches into the embedded reference'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a loop of types is a loop of knowledge all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
