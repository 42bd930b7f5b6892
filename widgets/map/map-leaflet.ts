/**
 * The map widget's map: Leaflet (BSD-2-Clause), a chunk of its own, loaded only by the map widget
 * once its list shows. Its CSS, and ours for what only the map draws (markers, popups), is adopted
 * into the widget's shadow root, never the page's. Each place with coordinates is a marker (a
 * keyboard-reachable button named after the place) whose popup holds what the list item holds; the
 * attribution is drawn by the widget, as text.
 */
import { render, type TemplateResult } from 'lit';
import * as L from 'leaflet/dist/leaflet-src.esm.js';
import leafletCss from 'leaflet/dist/leaflet.css?inline';
import type { MapTiles } from '../../contract/api/index.ts';
import type { MapWord, Place } from './map.ts';

/** What the map needs of its widget (and nothing else of it). */
export interface MapHost {
  /** The widget's shadow root, where the map is drawn and its CSS adopted. */
  root: ShadowRoot;
  /** A word of the widget in its language. */
  word(key: MapWord): string;
  /** What a place's popup holds (what its list item holds). */
  popup(place: Place): TemplateResult;
  /** A place was chosen on the map (its popup opened). */
  chosen(id: string): void;
  /** A tile could not load. */
  tilesFailed(): void;
}

/**
 * Ours for what only the map draws: markers, popups and the tiles' attribution. The marker is the
 * element Leaflet positions (with `transform`), so its look is drawn by a pin inside it: a rotation
 * or a scale on the marker itself would move it off its place. The pin is a square turned about its
 * square corner, which is the point: it stands centred above the point.
 *
 * Focus rings (kept whole, 3:1 beside them): a marker's is drawn on the map, a light surface on a
 * light or dark page (Leaflet's grey, the tiles), so its colour is mixed with dark text, as on a
 * light page. The map's own is drawn around its box, which clips what lies outside the map. A
 * popup's content keeps 6 px of Leaflet's margins (13px 24px 13px 20px) as its padding: room for its
 * heading's and links' rings inside the content's box, which clips when it scrolls (a popup taller
 * than the map). The close button, at the popup's corner, rings inside.
 */
const OWN_CSS = `
.marker {
  background: none;
  border: 0;
  color: #333;
}
.pin {
  position: absolute;
  left: 50%;
  bottom: 0;
  width: 20px;
  height: 20px;
  box-sizing: border-box;
  transform-origin: 0 100%;
  rotate: -45deg;
  border-radius: 50% 50% 50% 0;
  background: var(--_accent);
  border: 2px solid var(--service-on-accent, #fff);
  box-shadow: 0 1px 3px #0008;
}
.marker.selected .pin {
  background: var(--_danger);
  scale: 1.25;
}
.marker:focus-visible {
  outline: 3px solid var(--_link);
  outline-offset: 2px;
}
.map:focus-visible {
  outline: none;
}
.map-box:has(> .map:focus-visible) {
  outline: 3px solid var(--_link);
  outline-offset: 2px;
}
/* The page's font, in the popups too (not Leaflet's Helvetica). */
.map.leaflet-container {
  font: inherit;
}
.leaflet-popup-content {
  margin: 7px 18px 7px 14px;
}
.popup {
  display: grid;
  gap: 0.25rem;
  padding: 6px;
}
.popup .classes {
  font-size: 0.8125rem;
}
.popup h3:focus {
  outline: none;
}
.popup h3:focus-visible {
  outline: 3px solid var(--_link);
}
.leaflet-popup-close-button:focus-visible {
  outline-offset: -3px;
}
.attribution {
  position: absolute;
  right: 0;
  bottom: 0;
  z-index: 1000;
  padding: 0 0.375rem;
  font-size: 0.75rem;
  background: Canvas;
  color: CanvasText;
}
`;

let sheet: CSSStyleSheet | undefined;

/** Room a popup leaves at the map's edges; on the left, also the zoom control's column (10 + 34 px). */
const EDGE = 8;
const CONTROL_COLUMN = 44 + EDGE;
/** What a popup adds around its content: the content's margins (ours, in OWN_CSS), its wrapper's border, and its tip below. */
const POPUP_FRAME = { x: 14 + 18 + 2, y: 7 + 7 + 2 + 20 };

/**
 * Tiles as Leaflet's documented GridLayer extension draws them, not its TileLayer: TileLayer empties
 * a removed or aborted tile with a `data:` GIF, which a host's `img-src <tile host>` refuses (a CSP
 * violation on every zoom). Here a tile that goes loses its address instead, which stops its load
 * too. The address template takes `{z}`, `{x}`, `{y}`, `{s}` (a, b or c) and `{r}` (empty).
 */
const Tiles = L.GridLayer.extend({
  createTile(this: L.GridLayer & { options: { url: string } }, coords: L.Coords, done: L.DoneCallback) {
    const tile = document.createElement('img');
    tile.alt = '';
    tile.onload = () => done(undefined, tile);
    tile.onerror = () => done(new Error('tile'), tile);
    tile.src = L.Util.template(this.options.url, { ...coords, s: 'abc'[Math.abs(coords.x + coords.y) % 3]!, r: '' });
    return tile;
  },
}) as unknown as new (options: L.GridLayerOptions & { url: string }) => L.GridLayer;

export class LeafletMap {
  readonly #map: L.Map;
  readonly #markers = new Map<string, L.Marker>();
  readonly #resize: ResizeObserver;
  readonly #root: ShadowRoot;

  constructor(host: MapHost, container: HTMLElement, places: Place[], tiles: MapTiles) {
    const { root } = host;
    this.#root = root;
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(leafletCss + OWN_CSS);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];

    // Under `prefers-reduced-motion: reduce` nothing fades, zooms or pans by animation.
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
    const map = (this.#map = L.map(container, {
      attributionControl: false,
      zoomControl: false,
      scrollWheelZoom: false,
      fadeAnimation: !still,
      zoomAnimation: !still,
      markerZoomAnimation: !still,
    }));
    if (still) {
      // A popup's auto-pan, a marker's pan on focus and the keys' pans all go through panBy, animated unless told not to.
      const panBy = map.panBy;
      map.panBy = (offset, options) => panBy.call(map, offset, { ...options, animate: false });
    }
    L.control.zoom({ zoomInTitle: host.word('zoomIn'), zoomOutTitle: host.word('zoomOut') }).addTo(map);
    // A tile that cannot load (no internet, a tile server down) is said once; the markers stay.
    new Tiles({ url: tiles.url, maxZoom: 19 })
      .on('tileerror', () => host.tilesFailed())
      .on('tileunload', ({ tile }) => tile.removeAttribute('src'))
      .addTo(map);

    const located = places.filter((p) => p.lat != null && p.lng != null);
    // The view first: Leaflet draws a marker (and its element exists) only on a map with a view.
    if (located.length) map.fitBounds(L.latLngBounds(located.map((p) => [p.lat!, p.lng!])), { padding: [32, 32], maxZoom: 12 });
    else map.setView([0, 0], 1);
    for (const place of located) {
      const content = document.createElement('div');
      content.className = 'popup';
      render(host.popup(place), content);
      const pin = document.createElement('span');
      pin.className = 'pin';
      const marker = L.marker([place.lat!, place.lng!], {
        icon: L.divIcon({ className: 'marker', html: pin, iconSize: [28, 28], iconAnchor: [14, 28], popupAnchor: [0, -26] }),
        keyboard: true,
        riseOnHover: true,
      })
        // Away from the zoom control, so that it never covers the popup's heading.
        .bindPopup(content, { autoPanPaddingTopLeft: [CONTROL_COLUMN, EDGE], autoPanPaddingBottomRight: [EDGE, EDGE] })
        // Opened by a click, by Enter or Space on the marker, or from the list.
        .on('popupopen', () => host.chosen(place.id))
        .addTo(map);
      const element = marker.getElement()!;
      element.setAttribute('aria-label', place.name);
      // A button opens on Space too (Leaflet's markers answer Enter only).
      element.addEventListener('keydown', (event) => {
        if (event.key !== ' ') return;
        event.preventDefault();
        marker.fire('click', { originalEvent: event, latlng: marker.getLatLng() });
      });
      this.#markers.set(place.id, marker);
    }

    map.on('popupopen', ({ popup }) => {
      const element = popup.getElement()!;
      element.querySelector('.leaflet-popup-close-button')?.setAttribute('aria-label', host.word('closePopup'));
      // Opened from its marker by keyboard: the focus goes into the popup, to its heading.
      if (root.activeElement?.classList.contains('marker')) element.querySelector<HTMLElement>('h3')?.focus();
    });
    map.on('popupclose', ({ popup }) => {
      // Closed from inside (its button, Escape): the focus returns to its marker, not to the page.
      if (popup.getElement()?.contains(root.activeElement)) this.#markerOf(popup)?.getElement()?.focus();
    });
    // Escape closes a popup wherever the focus is in the map (Leaflet listens on its container only).
    container.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !map.hasLayer(this.#openPopup()!)) return;
      event.preventDefault();
      map.closePopup();
    });
    // Only the markers the map shows are Tab stops: one that a popup's auto-pan, a zoom or a pan has
    // moved out of the map's box would take the focus out of sight (the list reaches every place).
    map.on('moveend', () => this.#reachable());
    this.#reachable();
    this.#resize = new ResizeObserver(() => this.#fit());
    this.#resize.observe(container);
  }

  #reachable() {
    const { x, y } = this.#map.getSize();
    for (const marker of this.#markers.values()) {
      const { x: left, y: top } = this.#map.latLngToContainerPoint(marker.getLatLng()).subtract([14, 28]);
      // The pin (iconSize 28, iconAnchor 14 × 28) and its focus ring (5 px) inside the map.
      const shown = left >= 5 && left + 33 <= x && top >= 5 && top + 33 <= y;
      marker.getElement()?.setAttribute('tabindex', shown ? '0' : '-1');
    }
  }

  /**
   * The map follows its box; a popup fits in it, beside the zoom control (on a phone the box is
   * short: a longer popup scrolls within itself rather than covering the whole map).
   */
  #fit() {
    const map = this.#map;
    map.invalidateSize();
    const { x, y } = map.getSize();
    for (const marker of this.#markers.values()) {
      Object.assign(marker.getPopup()!.options, {
        maxWidth: Math.min(280, x - CONTROL_COLUMN - EDGE - POPUP_FRAME.x),
        maxHeight: y - 2 * EDGE - POPUP_FRAME.y,
      });
    }
    // Leaflet's update puts the content in anew, which takes the focus from what had it (a popup
    // opened by Enter has it on its heading, and the map grows as the visitor acts): it goes back.
    const popup = this.#openPopup();
    const focused = this.#root.activeElement as HTMLElement | null;
    const inside = !!focused && !!popup?.getElement()?.contains(focused);
    popup?.update();
    if (inside && focused!.isConnected && this.#root.activeElement !== focused) focused!.focus({ preventScroll: true });
  }

  #openPopup() {
    return [...this.#markers.values()].find((m) => m.isPopupOpen())?.getPopup();
  }

  #markerOf(popup: L.Popup) {
    return [...this.#markers.values()].find((m) => m.getPopup() === popup);
  }

  /** The chosen place's marker stands out; the others do not. */
  highlight(id: string) {
    for (const [place, marker] of this.#markers) marker.getElement()?.classList.toggle('selected', place === id);
  }

  /** Brings a place's marker into view with its popup (chosen in the list: the focus stays there). */
  show(id: string) {
    this.#markers.get(id)?.openPopup();
  }

  remove() {
    this.#resize.disconnect();
    this.#map.remove();
  }
}
