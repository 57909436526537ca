/** Great-circle distance between two points, km (haversine on a sphere of 6371 km). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * A company's local time without an offset read as Moscow time (UTC+3 all year since 2014):
 * "2026-01-02 10:00:00" or "2026-01-02T10:00:00" -> "2026-01-02T07:00:00.000Z". A time that
 * carries its own offset or `Z` keeps it. Null when it is not a date.
 */
export function moscowTime(text: string): string | null {
  const trimmed = text.trim().replace(' ', 'T');
  const local = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?)?$/.test(trimmed);
  const parsed = Date.parse(local ? `${trimmed.includes('T') ? trimmed : `${trimmed}T00:00:00`}+03:00` : trimmed);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}
