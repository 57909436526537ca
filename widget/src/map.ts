/**
 * The widget's map: Leaflet with the tiles the shop configured, in the widget's shadow root.
 * A file of its own, loaded only when the buyer opens the map: a list-only widget never pays for it.
 */
import * as L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css';
import type { Cluster, Option, Point } from './api.js';
import type { MapOptions } from './index.js';
import { adoptStyles } from './adopt-styles.js';

export interface MapView {
  center(latitude: number, longitude: number, zoom: number): void;
  /** Measures its box again (shown after being hidden). */
  resize(): void;
  show(points: Point[], clusters: Cluster[], priceOf: (point: Point) => Option | undefined): void;
  destroy(): void;
}

export function createMap(
  box: HTMLElement,
  root: ShadowRoot,
  options: MapOptions,
  on: { moved(bbox: string, zoom: number): void; chosen(id: number): void },
): MapView {
  adoptStyles(root, leafletCss, options.styleNonce);
  const map = L.map(box, { zoomControl: true, attributionControl: true });
  L.tileLayer(options.tiles, { attribution: options.attribution, maxZoom: options.maxZoom ?? 19 }).addTo(map);
  const layer = L.layerGroup().addTo(map);
  const report = () => {
    const b = map.getBounds();
    on.moved(
      [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((value) => value.toFixed(5)).join(','),
      map.getZoom(),
    );
  };
  map.on('moveend', report);
  return {
    center(latitude, longitude, zoom) {
      map.invalidateSize();
      map.setView([latitude, longitude], zoom);
    },
    resize() {
      map.invalidateSize();
    },
    show(points, clusters, priceOf) {
      layer.clearLayers();
      for (const cluster of clusters) {
        const size = Math.min(56, 26 + Math.log10(cluster.count) * 10);
        // sized through the CSSOM, not a style attribute: a strict CSP refuses inline style attributes
        const bubble = document.createElement('div');
        bubble.className = 'cluster';
        bubble.style.width = `${size}px`;
        bubble.style.height = `${size}px`;
        bubble.textContent = String(cluster.count);
        const icon = L.divIcon({ className: '', html: bubble, iconSize: [size, size] });
        L.marker([cluster.latitude, cluster.longitude], { icon, keyboard: false })
          .on('click', () => map.setView([cluster.latitude, cluster.longitude], map.getZoom() + 2))
          .addTo(layer);
      }
      for (const point of points) {
        const option = priceOf(point);
        if (!option) continue;
        L.circleMarker([point.latitude, point.longitude], {
          radius: 8,
          color: '#fff',
          weight: 2,
          fillColor: '#2f6fed',
          fillOpacity: 1,
        })
          .bindTooltip(`${option.companyName}: ${point.address} — ${option.totalPrice} ₽`)
          .on('click', () => on.chosen(point.id))
          .addTo(layer)
          .getElement()
          ?.setAttribute('data-point', String(point.id));
      }
    },
    destroy() {
      map.remove();
    },
  };
}
