/**
 * The SMS.ru fake (test/support/fake-sms-gateways.ts) in a process of its own, for
 * bench/buyer-messages.ts: what a gateway costs to answer is not counted as the service's.
 * Prints `READY {url}`; its account has money for any number of messages.
 */
import { startFakeSmsRu } from '../test/support/fake-sms-gateways.js';

const fake = await startFakeSmsRu();
fake.setBalance(1_000_000_000);
console.log(`READY ${JSON.stringify({ url: fake.url })}`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
