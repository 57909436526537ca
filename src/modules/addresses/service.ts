/**
 * The address service other areas call (model.ts's AddressLookup): the register first; a shop's
 * own DaData key asked only where the register has no house for what was typed. And the shop's
 * address settings: its DaData keys, sealed at rest, never shown again.
 */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import type { SecretBox } from '../../platform/crypto.js';
import { JsonBody } from '../../platform/compression.js';
import { nowIso } from '../../platform/db/values.js';
import { maskCredential } from '../../platform/sealed-credentials.js';
import type { DadataClient, DadataKeys } from './dadata-client.js';
import { fromDadataData } from './dadata-shapes.js';
import type { AddressDirectory } from './directory.js';
import type {
  AddressLookup,
  AddressSuggestion,
  CleanedAddress,
  GeolocateQuery,
  StructuredAddress,
  SuggestQuery,
} from './model.js';
import { notFoundAddress } from './present.js';
import type { AddressCleaner } from './clean.js';
import type { AddressSearch } from './search.js';
import type { AddressStore } from './store.js';
import type { SuggestionAnswers } from './suggestion-answers.js';

/** How a caller learns that DaData was asked and failed (logged by the route, never shown to the buyer). */
export type DadataFailureListener = (operation: string, error: Error) => void;

/** What a route's serializer writes (Fastify's `reply.serialize`). */
export type SerializedAnswer = string | Uint8Array | ArrayBuffer;

const bytesOf = (answer: SerializedAnswer): Buffer =>
  typeof answer === 'string'
    ? Buffer.from(answer)
    : answer instanceof Uint8Array
      ? Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength)
      : Buffer.from(answer);

export interface AddressSettingsView {
  dadataApiKey: string | null;
  dadataSecretKey: string | null;
}

export class AddressService implements AddressLookup {
  constructor(
    private readonly search: AddressSearch,
    private readonly cleaner: AddressCleaner,
    private readonly store: AddressStore,
    private readonly directory: AddressDirectory,
    private readonly secretBox: SecretBox,
    private readonly dadata: DadataClient,
    private readonly answers: SuggestionAnswers,
  ) {}

  /**
   * A suggestion answer as the bytes a route sends: remembered for every caller while the register
   * is unchanged (suggestion-answers.ts), unless the account's own DaData key may be asked for it.
   * `shape` names the route's answer (its schema), `write` serializes the suggestions as the route does.
   */
  async suggestionAnswer(
    shape: string,
    query: SuggestQuery,
    accountId: number,
    onDadataFailure: DadataFailureListener,
    write: (suggestions: AddressSuggestion[]) => SerializedAnswer,
  ): Promise<JsonBody> {
    const key = [shape, query.query, query.count, query.locality, query.region, query.fromLevel, query.toLevel].join(
      '\u0000',
    );
    const generation = await this.directory.generation();
    const known = this.answers.get(key, generation);
    if (known) return known;
    const ours = await this.search.suggest(query);
    if (this.wantsDadataSuggestion(query, ours))
      return JsonBody.of(bytesOf(write(await this.withDadata(query, ours, accountId, onDadataFailure))));
    return this.answers.remember(key, generation, bytesOf(write(ours)));
  }

  async suggest(
    query: SuggestQuery,
    accountId?: number,
    onDadataFailure?: DadataFailureListener,
  ): Promise<AddressSuggestion[]> {
    const ours = await this.search.suggest(query);
    if (accountId === undefined || !this.wantsDadataSuggestion(query, ours)) return ours;
    return this.withDadata(query, ours, accountId, onDadataFailure);
  }

  /** DaData's answer with the account's own key, where it has one and DaData answers; else ours. */
  private async withDadata(
    query: SuggestQuery,
    ours: AddressSuggestion[],
    accountId: number,
    onDadataFailure?: DadataFailureListener,
  ): Promise<AddressSuggestion[]> {
    const keys = await this.keysOf(accountId);
    if (!keys) return ours;
    try {
      const body: Record<string, unknown> = { query: query.query, count: query.count ?? 10 };
      if (query.locality) body.locations = [{ city_fias_id: query.locality }, { settlement_fias_id: query.locality }];
      else if (query.region && !/^\d+$/.test(query.region)) body.locations = [{ region_fias_id: query.region }];
      else if (query.region) body.locations = [{ kladr_id: query.region.padStart(2, '0') }];
      const theirs = await this.dadata.suggest(keys, body);
      const mapped = theirs.flatMap((item) => this.suggestionOfDadata(item));
      return mapped.length > 0 ? mapped : ours;
    } catch (error) {
      onDadataFailure?.('suggest', error as Error);
      return ours;
    }
  }

  async findById(fiasId: string): Promise<AddressSuggestion | null> {
    return this.search.findById(fiasId);
  }

  async geolocate(query: GeolocateQuery): Promise<AddressSuggestion[]> {
    return this.search.geolocate(query.lat, query.lon, query.radiusMeters ?? 100, query.count ?? 10);
  }

  async clean(text: string, accountId?: number, onDadataFailure?: DadataFailureListener): Promise<CleanedAddress> {
    const ours = await this.cleaner.clean(text);
    if (accountId === undefined || ours.houseFiasId !== null || ours.quality === 'certain') return ours;
    const keys = await this.keysOf(accountId);
    if (!keys?.secretKey) return ours;
    try {
      const theirs = await this.dadata.clean(keys, text);
      if (!theirs) return ours;
      const structure = fromDadataData(theirs, notFoundAddress());
      const qc = Number(theirs.qc);
      return {
        ...structure,
        source: text,
        result: typeof theirs.result === 'string' ? theirs.result : null,
        quality: qc === 0 ? 'certain' : qc === 2 ? 'unrecognised' : 'check',
        changes: [...ours.changes, 'the register has no such house: cleaned by DaData with the shop’s key'],
        unparsed: typeof theirs.unparsed_parts === 'string' ? theirs.unparsed_parts : null,
      };
    } catch (error) {
      onDadataFailure?.('clean', error as Error);
      return ours;
    }
  }

  /** A number typed and no house among our answers: the register lacks it, DaData may have it. */
  private wantsDadataSuggestion(query: SuggestQuery, ours: AddressSuggestion[]): boolean {
    if (query.toLevel && !['house', 'flat'].includes(query.toLevel)) return false;
    if (ours.length === 0) return query.query.trim().length >= 3;
    return /\d/.test(query.query) && !ours.some((each) => each.data.fiasLevel >= 8);
  }

  private suggestionOfDadata(item: unknown): AddressSuggestion[] {
    if (!item || typeof item !== 'object') return [];
    const record = item as { value?: unknown; unrestricted_value?: unknown; data?: unknown };
    if (typeof record.value !== 'string' || !record.data || typeof record.data !== 'object') return [];
    const data: StructuredAddress = fromDadataData(record.data as Record<string, unknown>, notFoundAddress());
    return [
      {
        value: record.value,
        unrestrictedValue: typeof record.unrestricted_value === 'string' ? record.unrestricted_value : record.value,
        data,
      },
    ];
  }

  // ---------- the shop's settings ----------

  private async keysOf(accountId: number): Promise<DadataKeys | null> {
    const sealed = await this.store.sealedDadataKeys(accountId);
    if (!sealed) return null;
    return JSON.parse(this.secretBox.open(sealed)) as DadataKeys;
  }

  async settings(scope: Scope): Promise<AddressSettingsView> {
    requireAccountWide(scope, "read the account's address settings");
    const keys = await this.keysOf(scope.accountId);
    return {
      dadataApiKey: keys ? maskCredential(keys.apiKey) : null,
      dadataSecretKey: keys?.secretKey ? maskCredential(keys.secretKey) : null,
    };
  }

  /** Sets (or with null removes) the DaData keys; a secret key given alone keeps the API key. */
  async changeSettings(
    scope: Scope,
    input: { dadataApiKey: string | null; dadataSecretKey?: string | null },
  ): Promise<AddressSettingsView> {
    requireAccountWide(scope, "change the account's address settings");
    let sealed: string | null = null;
    let keys: DadataKeys | null = null;
    if (input.dadataApiKey !== null) {
      const previous = await this.keysOf(scope.accountId);
      const secretKey =
        input.dadataSecretKey === undefined ? previous?.secretKey : (input.dadataSecretKey ?? undefined);
      keys = {
        apiKey: input.dadataApiKey.trim(),
        ...(secretKey ? { secretKey: secretKey.trim() } : {}),
      };
      sealed = this.secretBox.seal(JSON.stringify(keys));
    }
    // the keys themselves never (their fields are hidden): whether each is set, before and after
    declareChange({
      type: 'address_settings',
      ids: [scope.accountId],
      before: await this.settings(scope),
      after: { dadataApiKey: keys?.apiKey ?? null, dadataSecretKey: keys?.secretKey ?? null },
    });
    await this.store.saveSealedDadataKeys(scope.accountId, sealed, nowIso());
    return this.settings(scope);
  }

  /** Reads the register anew on the next call (after an import in this process, or a test's writes). */
  forgetLoaded(): void {
    this.directory.forget();
    this.answers.clear();
  }

  shutdown(): void {
    this.dadata.shutdown();
  }
}
