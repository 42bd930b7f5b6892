// Leaflet's own ES module build (its package names no "module"), typed by @types/leaflet; its CSS as
// text (Vite's `?inline`; the browser tests' server answers the same), adopted into the shadow root.
declare module 'leaflet/dist/leaflet-src.esm.js' {
  export * from 'leaflet';
}
declare module 'leaflet/dist/leaflet.css?inline' {
  const css: string;
  export default css;
}
