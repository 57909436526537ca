/** The returns pages' logic without a browser: the decisions a status allows, the list's URL, the settings' PUT body. */
import { describe, expect, it } from 'vitest';
import { draftOf, errorAt, type ReturnSettings, settingsBody, wayError } from '../settings/return-settings-model';
import { decisionsFor, searchFromView, viewFromSearch } from './return-model';

describe('a return’s decisions', () => {
  it('offers what the service’s steps allow from each status', () => {
    expect(decisionsFor('requested')).toEqual(['approve', 'refuse', 'cancel']);
    expect(decisionsFor('approved')).toEqual(['cancel']);
    for (const status of ['refused', 'cancelled', 'in_transit', 'received', 'closed', 'unknown'])
      expect(decisionsFor(status), status).toEqual([]);
  });
});

describe('the returns list’s view in the URL', () => {
  it('reads back what it wrote and leaves out anything odd', () => {
    const view = { page: 3, perPage: 50, status: 'approved' as const, shopId: 7, dateFrom: '2026-11-01' };
    expect(viewFromSearch(searchFromView(view))).toEqual({ ...view, dateTo: undefined });
    expect(searchFromView({ page: 1, perPage: 20 }).toString()).toBe('');
    expect(
      viewFromSearch(new URLSearchParams('page=-1&perPage=7&status=lost&shopId=x&dateFrom=yesterday&dateTo=2026-1-1')),
    ).toEqual({
      page: 1,
      perPage: 20,
      status: undefined,
      shopId: undefined,
      dateFrom: undefined,
      dateTo: undefined,
    });
  });
});

describe('the return settings form', () => {
  const saved: ReturnSettings = {
    enabled: true,
    windowDays: 14,
    ways: [{ way: 'courier', companyIds: [1, 3] }],
    payer: 'buyer_unless_fault',
    autoApprove: null,
    pageUrl: 'https://delivery.test/site/returns/abc',
  };

  it('gives back the saved settings unchanged, and the rules as typed', () => {
    const draft = draftOf(saved);
    expect(draft.ways.courier).toEqual({ on: true, companyIds: ['1', '3'] });
    expect(draft.ways.point.on).toBe(false);
    const { pageUrl: _pageUrl, ...body } = saved;
    expect(settingsBody(draft)).toEqual(body);
    expect(
      settingsBody({
        ...draft,
        windowDays: '30',
        ways: { ...draft.ways, point: { on: true, companyIds: ['2'] } },
        autoApprove: true,
        reasons: ['defective'],
        maxGoodsValue: 5000,
        withinDays: '',
      }),
    ).toMatchObject({
      windowDays: 30,
      ways: [
        { way: 'point', companyIds: [2] },
        { way: 'courier', companyIds: [1, 3] },
      ],
      autoApprove: { reasons: ['defective'], maxGoodsValue: 5000, withinDays: null },
    });
  });

  it('finds a refusal’s message by the place of its way among those on', () => {
    const draft = { ...draftOf(saved), ways: { ...draftOf(saved).ways, point: { on: true, companyIds: ['2'] } } };
    const errors = { 'ways[1].companyIds[0]': 'is not a post company', windowDays: 'must be ≤ 365' };
    expect(wayError(errors, draft, 'courier')).toBe('is not a post company');
    expect(wayError(errors, draft, 'point')).toBeUndefined();
    expect(wayError(errors, draft, 'post')).toBeUndefined();
    expect(errorAt(errors, 'windowDays')).toBe('must be ≤ 365');
    expect(errorAt(errors, 'window')).toBeUndefined();
  });
});
