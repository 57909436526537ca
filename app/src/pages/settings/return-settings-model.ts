/**
 * A shop's return settings as the form edits them, pure: the draft made from the saved
 * settings (numbers as typed, each way on or off with its companies, auto-approval on or off
 * keeping its rules), the body PUT /v2/shops/{id}/return-settings takes from it, and the field
 * errors of a refusal found by the body's field names.
 */
import type { Schemas } from '../../api';
import { RETURN_WAYS, type ReturnReason, type ReturnWay } from '../returns/return-model';

export type ReturnSettings = Schemas['ReturnSettings'];
export type ReturnSettingsBody = Omit<ReturnSettings, 'pageUrl'>;
export type Payer = ReturnSettings['payer'];
export const PAYERS: readonly Payer[] = ['shop', 'buyer', 'buyer_unless_fault'];

/** A number field's value: a number, or '' when cleared (Mantine's NumberInput). */
type Typed = number | string;

export interface ReturnSettingsDraft {
  enabled: boolean;
  windowDays: Typed;
  ways: Record<ReturnWay, { on: boolean; companyIds: string[] }>;
  payer: Payer;
  autoApprove: boolean;
  reasons: ReturnReason[];
  maxGoodsValue: Typed;
  withinDays: Typed;
}

export function draftOf(settings: ReturnSettings): ReturnSettingsDraft {
  const ways = Object.fromEntries(
    RETURN_WAYS.map((way) => {
      const saved = settings.ways.find((item) => item.way === way);
      return [way, { on: saved !== undefined, companyIds: (saved?.companyIds ?? []).map(String) }];
    }),
  ) as ReturnSettingsDraft['ways'];
  return {
    enabled: settings.enabled,
    windowDays: settings.windowDays,
    ways,
    payer: settings.payer,
    autoApprove: settings.autoApprove !== null,
    reasons: settings.autoApprove?.reasons ?? [],
    maxGoodsValue: settings.autoApprove?.maxGoodsValue ?? '',
    withinDays: settings.autoApprove?.withinDays ?? '',
  };
}

/** An empty field is "no limit" (null); anything else goes as typed, for the service to judge. */
const numberOrNull = (value: Typed): number | null => (value === '' ? null : Number(value));

/** The ways switched on, in the API's order (the refusal's `ways[i]` counts these). */
export function waysOn(draft: ReturnSettingsDraft): ReturnWay[] {
  return RETURN_WAYS.filter((way) => draft.ways[way].on);
}

export function settingsBody(draft: ReturnSettingsDraft): ReturnSettingsBody {
  return {
    enabled: draft.enabled,
    windowDays: Number(draft.windowDays),
    ways: waysOn(draft).map((way) => ({ way, companyIds: draft.ways[way].companyIds.map(Number) })),
    payer: draft.payer,
    autoApprove: draft.autoApprove
      ? {
          reasons: draft.reasons,
          maxGoodsValue: numberOrNull(draft.maxGoodsValue),
          withinDays: numberOrNull(draft.withinDays),
        }
      : null,
  };
}

/** The first message of a refusal about this field or anything inside it (`ways[1]`, `ways[1].companyIds`). */
export function errorAt(fieldErrors: Record<string, string>, field: string): string | undefined {
  const found = Object.entries(fieldErrors).find(
    ([name]) => name === field || name.startsWith(`${field}.`) || name.startsWith(`${field}[`),
  );
  return found?.[1];
}

/** The refusal's message about a way, found by its place among the ways switched on. */
export function wayError(
  fieldErrors: Record<string, string>,
  draft: ReturnSettingsDraft,
  way: ReturnWay,
): string | undefined {
  const index = waysOn(draft).indexOf(way);
  return index < 0 ? undefined : errorAt(fieldErrors, `ways[${index}]`);
}
