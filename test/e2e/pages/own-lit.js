// What a host page's own copy of Lit does first: create the Trusted Types policy named `lit-html`.
window.trustedTypes.createPolicy('lit-html', { createHTML: (s) => s });
