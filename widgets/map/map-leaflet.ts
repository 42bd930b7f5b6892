/**
 * The map widget's map: Leaflet (BSD-2-Clause), a chunk of its own, loaded only by the map widget
 * once its list shows. Its CSS is adopted into the widget's shadow root, never the page's. Each place
 * with coordinates is a marker (a keyboard-reachable button named after the place) whose popup holds
 * what the list item holds; the attribution is drawn by the widget, as text.
 */
import { render, type TemplateResult } from 'lit';
import * as L from 'leaflet/dist/leaflet-src.esm.js';
import leafletCss from 'leaflet/dist/leaflet.css?inline';
import type { MapTiles } from '../../service/schemas.ts';
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

let sheet: CSSStyleSheet | undefined;

export class LeafletMap {
  readonly #map: L.Map;
  readonly #markers = new Map<string, L.Marker>();
  readonly #resize: ResizeObserver;

  constructor(host: MapHost, container: HTMLElement, places: Place[], tiles: MapTiles) {
    const { root } = host;
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(leafletCss);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];

    const map = (this.#map = L.map(container, { attributionControl: false, zoomControl: false, scrollWheelZoom: false }));
    L.control.zoom({ zoomInTitle: host.word('zoomIn'), zoomOutTitle: host.word('zoomOut') }).addTo(map);
    // A tile that cannot load (no internet, a tile server down) is said once; the markers stay.
    L.tileLayer(tiles.url, { maxZoom: 19 })
      .on('tileerror', () => host.tilesFailed())
      .addTo(map);

    const located = places.filter((p) => p.lat != null && p.lng != null);
    // The view first: Leaflet draws a marker (and its element exists) only on a map with a view.
    if (located.length) map.fitBounds(L.latLngBounds(located.map((p) => [p.lat!, p.lng!])), { padding: [32, 32], maxZoom: 12 });
    else map.setView([0, 0], 1);
    for (const place of located) {
      const content = document.createElement('div');
      content.className = 'popup';
      render(host.popup(place), content);
      const marker = L.marker([place.lat!, place.lng!], {
        icon: L.divIcon({ className: 'marker', iconSize: [28, 28], iconAnchor: [14, 28], popupAnchor: [0, -26] }),
        keyboard: true,
        riseOnHover: true,
      })
        .bindPopup(content, { maxWidth: 280 })
        // Opened by a click, by Enter on the marker, or from the list.
        .on('popupopen', () => host.chosen(place.id))
        .addTo(map);
      marker.getElement()!.setAttribute('aria-label', place.name);
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
    this.#resize = new ResizeObserver(() => map.invalidateSize());
    this.#resize.observe(container);
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
