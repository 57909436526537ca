/**
 * The pickup point chosen on a map: Leaflet (the checkout widget's map library; its picker lives
 * in the widget's shadow root and talks to the widget API with a publishable key, so the
 * dashboard draws its own) with the tile source the service is configured with (APP_MAP_TILES),
 * or none: the points on a plain background, nothing asked of a third party. Each point is a
 * button for the keyboard too (the list under the map).
 */
import { Button, Group, ScrollArea, Text } from '@mantine/core';
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { useText } from '../i18n';
import { pageConfig } from '../pageConfig';

export interface MapPoint {
  id: number;
  latitude: number;
  longitude: number;
  label: string;
}

export function PointMap({
  points,
  chosen,
  onChoose,
}: {
  points: MapPoint[];
  chosen: number | null;
  onChoose(id: number): void;
}) {
  const { t } = useText();
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const config = pageConfig();
    const created = L.map(box.current, { zoomControl: true, attributionControl: Boolean(config.mapTiles) });
    created.attributionControl?.setPrefix('Leaflet');
    if (config.mapTiles)
      L.tileLayer(config.mapTiles, { attribution: config.mapAttribution, maxZoom: 19 }).addTo(created);
    layer.current = L.layerGroup().addTo(created);
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    const current = map.current;
    const group = layer.current;
    if (!current || !group) return;
    group.clearLayers();
    for (const point of points) {
      const isChosen = point.id === chosen;
      const marker = L.circleMarker([point.latitude, point.longitude], {
        radius: isChosen ? 11 : 8,
        color: '#fff',
        weight: 2,
        fillColor: isChosen ? '#d9480f' : '#364fc7',
        fillOpacity: 1,
      })
        .bindTooltip(point.label)
        .on('click', () => onChoose(point.id))
        .addTo(group);
      const element = marker.getElement();
      element?.setAttribute('data-point', String(point.id));
    }
    if (points.length > 0) {
      const bounds = L.latLngBounds(points.map((point) => [point.latitude, point.longitude] as [number, number]));
      current.invalidateSize();
      current.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    }
  }, [points, chosen, onChoose]);

  return (
    <div>
      <div ref={box} className="point-map" data-testid="point-map" role="region" aria-label={t('pointOnMap')} />
      <ScrollArea.Autosize mah={160} mt={4}>
        <Group gap={4}>
          {points.slice(0, 50).map((point) => (
            <Button
              key={point.id}
              size="compact-xs"
              variant={point.id === chosen ? 'filled' : 'default'}
              onClick={() => onChoose(point.id)}
              data-point-button={point.id}
            >
              {point.label.slice(0, 48)}
            </Button>
          ))}
        </Group>
        {points.length > 50 && (
          <Text size="xs" c="gray.7">
            +{points.length - 50}
          </Text>
        )}
      </ScrollArea.Autosize>
    </div>
  );
}
