import type { ReloadlySettings } from '../../config.js';
import { callUpstream, field, numberField, stringField } from '../http.js';

/** A token to call the Top-ups API with, or why there is none. */
export type TokenResult =
  | { ok: true; token: string }
  /** `refused`: the auth endpoint answered and refused our credentials (or audience). Otherwise it could not be reached or read. */
  | { ok: false; refused: boolean; message: string };

/** The earliest a token is given up before its `expires_in`, and the share of its life kept in reserve. */
const RENEW_MARGIN_MS = 60_000;
const RENEW_MARGIN_SHARE = 0.1;

/**
 * Reloadly's OAuth client-credentials token (docs/live-delivery.md, "One delivery, many attempts"), shared by every
 * call of one adapter: fetched once for any number of concurrent callers, reused until shortly
 * before `expires_in`, and dropped when the API says it is no longer valid. A failure is not cached:
 * the next caller asks again.
 */
export class ReloadlyTokens {
  private current: { token: string; renewAt: number } | null = null;
  private pending: Promise<TokenResult> | null = null;
  private fetches = 0;

  constructor(
    private readonly settings: ReloadlySettings,
    private readonly options: { timeoutMs: number; clock: () => number },
  ) {}

  /** How many times the token endpoint was asked (for logs and tests). */
  get fetchCount(): number {
    return this.fetches;
  }

  async token(): Promise<TokenResult> {
    if (this.current && this.options.clock() < this.current.renewAt) return { ok: true, token: this.current.token };
    this.current = null;
    if (!this.pending) {
      this.pending = this.fetchToken().finally(() => {
        this.pending = null;
      });
    }
    return this.pending;
  }

  /**
   * The API refused `token` (401 TOKEN_EXPIRED / INVALID_TOKEN): forget it, unless a newer one has
   * replaced it already, so that many calls refused at once cause one fetch.
   */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  private async fetchToken(): Promise<TokenResult> {
    this.fetches++;
    const reply = await callUpstream({
      method: 'POST',
      url: `${this.settings.authUrl}/oauth/token`,
      json: {
        client_id: this.settings.clientId,
        client_secret: this.settings.clientSecret,
        grant_type: 'client_credentials',
        audience: this.settings.apiUrl,
      },
      timeoutMs: this.options.timeoutMs,
    });
    if (!reply.reached) return { ok: false, refused: false, message: `Reloadly's auth endpoint did not answer: ${reply.message}` };
    if (reply.status === 400 || reply.status === 401 || reply.status === 403) {
      const code = stringField(reply.body, 'errorCode');
      return { ok: false, refused: true, message: `Reloadly refused our credentials (auth refused${code ? `: ${code}` : `, HTTP ${reply.status}`})` };
    }
    const token = stringField(reply.body, 'access_token');
    if (reply.status !== 200 || !token) {
      return { ok: false, refused: false, message: `Reloadly's auth endpoint gave no usable token (HTTP ${reply.status})` };
    }
    const lifeMs = (numberField(reply.body, 'expires_in') ?? 0) * 1000;
    const tokenType = field(reply.body, 'token_type');
    if (lifeMs <= 0 || (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer')) {
      return { ok: false, refused: false, message: "Reloadly's auth endpoint gave a token without a usable lifetime or type" };
    }
    this.current = { token, renewAt: this.options.clock() + lifeMs - Math.min(RENEW_MARGIN_MS, lifeMs * RENEW_MARGIN_SHARE) };
    return { ok: true, token };
  }
}
