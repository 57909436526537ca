/**
 * Import boundaries (ARCHITECTURE.md, "Layers and allowed imports"), checked by `npm run lint`
 * in CI: the platform knows no area, routes reach data only through services, renderers and
 * drivers know no area either.
 */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-module',
      comment: 'platform/ is what every area uses, knowing nothing of delivery: it imports no area, driver, renderer or composition file.',
      severity: 'error',
      from: { path: '^src/platform/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/(modules|carriers|marketplaces|documents)/|^src/(services|app|main|modules|tables|api-document|bootstrap|config)\\.ts$',
      },
    },
    {
      name: 'routes-import-no-store',
      comment: 'Routes do HTTP and call services; SQL lives in stores, reached only through a service.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/routes\\.ts$' },
      to: { path: 'store\\.ts$' },
    },
    {
      name: 'renderers-and-drivers-know-no-area',
      comment: 'documents/ (pure renderers), carriers/, marketplaces/ and messaging/ (drivers) are given data; they import no area.',
      severity: 'error',
      from: { path: '^src/(documents|carriers|marketplaces|messaging)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/modules/|^src/(services|app|main|modules|tables|bootstrap)\\.ts$' },
    },
    {
      name: 'areas-reach-no-composition-root',
      comment: 'An area is handed what it uses; only app.ts, main.ts and bootstrap.ts know the composition root.',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(services|app|main|bootstrap)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
