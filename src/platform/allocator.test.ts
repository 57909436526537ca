import { describe, expect, it } from 'vitest';
import { jemallocToPreload } from './allocator.js';

const linux = process.platform === 'linux';

describe.skipIf(!linux)('the allocator the service runs on', () => {
  const present = (file: string) => file.endsWith('libjemalloc.so.2') && !file.startsWith('/usr/lib64');

  it('preloads jemalloc when the system has it', () => {
    expect(jemallocToPreload({}, present)).toMatch(/libjemalloc\.so\.2$/);
  });

  it('keeps glibc when asked to, when jemalloc is absent, and an operator’s own preload as it is', () => {
    expect(jemallocToPreload({ ALLOCATOR: 'system' }, present)).toBeNull();
    expect(jemallocToPreload({}, () => false)).toBeNull();
    expect(jemallocToPreload({ LD_PRELOAD: '/opt/other.so' }, present)).toBeNull();
  });
});
