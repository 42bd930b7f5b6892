// `cem analyze` (run by `npm run build`): the custom-elements manifest of the widgets, from their
// JSDoc and `static properties`, into dist/custom-elements.json (package.json names it). The tables
// of each widget in docs/widgets.md are checked against it in `npm test` (test/docs/manifest.test.ts).

/** Lit's `state: true` properties are no attributes and no API: the analyzer's Lit plugin takes them for both. */
const litState = () => {
  const states = new Set();
  return {
    name: 'lit-state-properties',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node)) return;
      for (const member of node.members) {
        if (member.name?.getText() !== 'properties' || !member.initializer || !ts.isObjectLiteralExpression(member.initializer))
          continue;
        for (const property of member.initializer.properties) {
          const options = property.initializer;
          if (
            options &&
            ts.isObjectLiteralExpression(options) &&
            options.properties.some((o) => o.name?.getText() === 'state' && o.initializer.kind === ts.SyntaxKind.TrueKeyword)
          ) {
            states.add(property.name.getText());
          }
        }
      }
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          declaration.attributes = declaration.attributes?.filter((a) => !states.has(a.fieldName ?? a.name));
          declaration.members = declaration.members?.filter((m) => !states.has(m.name));
          // `service-state` is the widgets' word to the loader, and an event without a name is one
          // the @fires tags already name: neither is for the host page.
          declaration.events = declaration.events?.filter((e) => e.name && e.name !== 'service-state');
        }
      }
    },
  };
};

export default {
  globs: ['widgets/*/*.ts'],
  exclude: ['widgets/**/*.test.ts', 'widgets/**/*.de.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json names the manifest already ("customElements"): the build does not rewrite it.
  packagejson: false,
  plugins: [litState()],
};
