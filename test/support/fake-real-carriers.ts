/**
 * Loopback fakes of CDEK (API v2), Boxberry (json.php) and Russian Post (otpravka API and the
 * tracking SOAP service), answering in the shapes of their documentation: one file per
 * company (fake-cdek.ts, fake-boxberry.ts, fake-russian-post.ts) on the shared server
 * (fake-real-carrier-server.ts, which says how `mode` and the other switches make them fail).
 * Exported again here, where the tests and benches import them, with the settings that point
 * an app at them.
 */
import type { FakeRealCarrier } from './fake-real-carrier-server.js';

export {
  commonFailure,
  type FakeHandler,
  type FakeMode,
  type FakeRealCarrier,
  PDF,
  startFake,
} from './fake-real-carrier-server.js';
export { boxberryParcelRefusal, startFakeBoxberry } from './fake-boxberry.js';
export { CDEK_TARIFFS, cdekOrderProblems, startFakeCdek } from './fake-cdek.js';
export { passportOffice, startFakeRussianPost } from './fake-russian-post.js';

/** The settings pointing an app at the given fakes (CDEK's and Yandex's test environments are the same fake). */
export function realCarrierEnv(fakes: {
  cdek?: FakeRealCarrier;
  boxberry?: FakeRealCarrier;
  post?: FakeRealCarrier;
  yandex?: FakeRealCarrier;
}): Record<string, string> {
  return {
    CARRIER_TIMEOUT_MS: '2000',
    ...(fakes.cdek
      ? { CARRIER_CDEK_URL: `${fakes.cdek.baseUrl}/v2`, CARRIER_CDEK_TEST_URL: `${fakes.cdek.baseUrl}/v2` }
      : {}),
    ...(fakes.boxberry ? { CARRIER_BOXBERRY_URL: `${fakes.boxberry.baseUrl}/json.php` } : {}),
    ...(fakes.post
      ? {
          CARRIER_RUSSIAN_POST_URL: fakes.post.baseUrl,
          CARRIER_RUSSIAN_POST_TRACKING_URL: `${fakes.post.baseUrl}/rtm34`,
        }
      : {}),
    ...(fakes.yandex
      ? { CARRIER_YANDEX_DELIVERY_URL: fakes.yandex.baseUrl, CARRIER_YANDEX_DELIVERY_TEST_URL: fakes.yandex.baseUrl }
      : {}),
  };
}
