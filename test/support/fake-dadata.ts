/**
 * The fake DaData, written from its public documentation: the suggestions API
 * (`POST …/suggest/address`, `Authorization: Token <key>`) and the cleaning API
 * (`POST …/clean/address`, the key and `X-Secret`). A wrong or missing key is a 401, a key whose
 * daily limit is spent a 403 (`{family: "CLIENT_ERROR", reason: "Forbidden", message: "Feature
 * 'SUGGESTIONS' disabled for token …"}`, as DaData answers until midnight), too many requests a
 * second a 429. It knows one house the register's fixture lacks: Москва, ул Ленина, д 77.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const DADATA_KEY = 'dadata-test-api-key-0001';
export const DADATA_SECRET = 'dadata-test-secret-key-0001';
/** A key whose daily limit is spent: 403. */
export const DADATA_SPENT_KEY = 'dadata-spent-api-key-0002';
/** A key that asks too fast: 429. */
export const DADATA_FAST_KEY = 'dadata-fast-api-key-00003';

export const DADATA_HOUSE = {
  value: 'г Москва, ул Ленина, д 77',
  unrestricted_value: '101000, г Москва, ул Ленина, д 77',
  data: {
    postal_code: '101000',
    country: 'Россия',
    country_iso_code: 'RU',
    region_fias_id: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
    region_with_type: 'г Москва',
    region_type: 'г',
    region_type_full: 'город',
    region: 'Москва',
    city_fias_id: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
    city_with_type: 'г Москва',
    city_type: 'г',
    city: 'Москва',
    street_with_type: 'ул Ленина',
    street_type: 'ул',
    street_type_full: 'улица',
    street: 'Ленина',
    house_fias_id: '7d0f3e5a-0000-4000-8000-000000000077',
    house_type: 'д',
    house_type_full: 'дом',
    house: '77',
    fias_id: '7d0f3e5a-0000-4000-8000-000000000077',
    fias_level: '8',
    geo_lat: '55.75',
    geo_lon: '37.61',
    qc_geo: '0',
  },
};

export interface FakeDadata {
  url: string;
  /** Every call: path, key, secret. */
  calls: { path: string; key: string | null; secret: string | null }[];
  close(): Promise<void>;
}

export async function startFakeDadata(): Promise<FakeDadata> {
  const calls: FakeDadata['calls'] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const key = /^Token (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;
      const secret = typeof request.headers['x-secret'] === 'string' ? request.headers['x-secret'] : null;
      const path = (request.url ?? '').split('?')[0];
      calls.push({ path, key, secret });
      if (key === DADATA_SPENT_KEY)
        return send(403, {
          family: 'CLIENT_ERROR',
          reason: 'Forbidden',
          message: `Feature 'SUGGESTIONS' disabled for token '${key}'`,
        });
      if (key === DADATA_FAST_KEY) return send(429, { family: 'CLIENT_ERROR', reason: 'Too Many Requests' });
      if (key !== DADATA_KEY) return send(401, { family: 'CLIENT_ERROR', reason: 'Unauthorized' });
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return send(400, { family: 'CLIENT_ERROR', reason: 'Bad Request' });
      }
      if (path.endsWith('/suggest/address')) {
        const query = String((parsed as { query?: unknown }).query ?? '');
        return send(200, { suggestions: /77/.test(query) ? [DADATA_HOUSE] : [] });
      }
      if (path.endsWith('/clean/address')) {
        if (secret !== DADATA_SECRET) return send(401, { family: 'CLIENT_ERROR', reason: 'Unauthorized' });
        const texts = Array.isArray(parsed) ? parsed.map(String) : [];
        return send(
          200,
          texts.map((text) =>
            /77/.test(text)
              ? { source: text, result: DADATA_HOUSE.value, ...DADATA_HOUSE.data, qc: 0, qc_complete: 5, qc_house: 2 }
              : { source: text, result: null, qc: 2, qc_complete: 6, qc_house: 10, qc_geo: 5 },
          ),
        );
      }
      send(404, { family: 'CLIENT_ERROR', reason: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
