/**
 * Pickup points by map viewport: a grid over the registry's points, rebuilt when the registry's
 * generation changes (an import, a company added). A viewport reads only the cells it covers,
 * so a city's view costs its own points, never the country's.
 */
import type { DeliveryPoint } from '../../carriers/points.js';
import type { PointCluster } from './schemas.js';

/** Degrees of a grid cell: about 50 km; a city fits in a few. */
const CELL_DEGREES = 0.5;

export interface Viewport {
  west: number;
  south: number;
  east: number;
  north: number;
}

export class PointGrid {
  private readonly cells = new Map<string, DeliveryPoint[]>();

  constructor(points: Iterable<DeliveryPoint>) {
    for (const point of points) {
      const key = cellKey(Math.floor(point.longitude / CELL_DEGREES), Math.floor(point.latitude / CELL_DEGREES));
      const cell = this.cells.get(key);
      if (cell) cell.push(point);
      else this.cells.set(key, [point]);
    }
  }

  /** Every point inside the viewport that `accept` takes. */
  within(view: Viewport, accept: (point: DeliveryPoint) => boolean): DeliveryPoint[] {
    const found: DeliveryPoint[] = [];
    const take = (cell: DeliveryPoint[]) => {
      for (const point of cell) {
        if (
          point.longitude < view.west ||
          point.longitude > view.east ||
          point.latitude < view.south ||
          point.latitude > view.north
        )
          continue;
        if (accept(point)) found.push(point);
      }
    };
    const x0 = Math.floor(view.west / CELL_DEGREES);
    const x1 = Math.floor(view.east / CELL_DEGREES);
    const y0 = Math.floor(view.south / CELL_DEGREES);
    const y1 = Math.floor(view.north / CELL_DEGREES);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > this.cells.size) {
      // a view wider than the occupied cells: walk those instead of the empty sea and tundra
      for (const cell of this.cells.values()) take(cell);
    } else {
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) take(this.cells.get(cellKey(x, y)) ?? []);
    }
    return found;
  }
}

function cellKey(x: number, y: number): string {
  return `${x}:${y}`;
}

/**
 * Groups points into about 8x8 clusters of the viewport: one marker per group, placed at the
 * mean of its points, so a zoomed-out map stays light whatever the number of points.
 */
export function clusterPoints(points: DeliveryPoint[], view: Viewport, perSide = 8): PointCluster[] {
  const width = (view.east - view.west) / perSide || 1;
  const height = (view.north - view.south) / perSide || 1;
  const groups = new Map<number, { latitude: number; longitude: number; count: number }>();
  for (const point of points) {
    const column = Math.min(perSide - 1, Math.floor((point.longitude - view.west) / width));
    const row = Math.min(perSide - 1, Math.floor((point.latitude - view.south) / height));
    const key = row * perSide + column;
    const group = groups.get(key);
    if (group) {
      group.latitude += point.latitude;
      group.longitude += point.longitude;
      group.count++;
    } else groups.set(key, { latitude: point.latitude, longitude: point.longitude, count: 1 });
  }
  return [...groups.values()].map((group) => ({
    latitude: round(group.latitude / group.count),
    longitude: round(group.longitude / group.count),
    count: group.count,
  }));
}

function round(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
