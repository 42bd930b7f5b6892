/**
 * What the embed promises on the page itself, in the browser's own types: `window.ServiceWidgets`.
 * (The Node side of the project never sees a DOM type: tsconfig.node.json leaves this file out.)
 */

/** A row of `ServiceWidgets.diagnose()`: one placeholder. */
export interface DiagnoseRow {
  type: string;
  version: string;
  state: string;
  error: string;
  element: HTMLElement;
}

/** `window.ServiceWidgets`, shared by both loaders (docs/embedding.md). */
export interface ServiceWidgets {
  /** The loader versions on the page (`['v1', 'v2']`). */
  versions: string[];
  /** Finds and mounts the placeholders under `root` (default: the document). */
  scan(root?: ParentNode): void;
  /** Mounts one placeholder (never twice). */
  mount(div: HTMLElement): void;
  /** Prints and returns a row per placeholder. */
  diagnose(): DiagnoseRow[];
  /** How a loader registers its version with the first loader's machinery; not public API. */
  _add(version: number, handler: unknown): void;
}

declare global {
  interface Window {
    ServiceWidgets?: ServiceWidgets;
  }
}
