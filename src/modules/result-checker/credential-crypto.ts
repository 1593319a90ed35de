import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Sealer } from '../../lib/sealer.js';

export interface Credential {
  username: string;
  password: string;
}

/** A credential as loaded into the stock: with what it cost the platform (pesewas), when known (margins). */
export interface CostedCredential extends Credential {
  cost?: number | null;
}

const VERSION = 'v1';

/**
 * Result-checker credentials are bearer secrets: AES-256-GCM at rest, decrypted only when
 * handed to their buyer. A separate HMAC key (derived with HKDF) gives a stable digest of the
 * username so duplicates are detected without storing it in clear.
 */
export class CredentialCipher {
  private readonly encryptionKey: Buffer;
  private readonly digestKey: Buffer;

  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('credentials key must be 32 bytes');
    this.encryptionKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'rc-credential-encryption', 32));
    this.digestKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'rc-credential-digest', 32));
  }

  encrypt(credential: Credential): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(credential), 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  decrypt(secret: string): Credential {
    const [version, payload] = secret.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('unknown credential encoding');
    const raw = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Credential;
  }

  /** A sealer for other secrets kept under the same master key (see Sealer), one per purpose. */
  sealer(purpose: string): Sealer {
    return new Sealer(this.masterKey, purpose);
  }

  /** A key for one purpose derived (HKDF) from the master key: the console signs its cookies with one. */
  derivedKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.alloc(0), purpose, 32));
  }

  usernameDigest(packageId: string, username: string): string {
    return createHmac('sha256', this.digestKey).update(`${packageId}\u0000${username}`).digest('hex');
  }
}

/**
 * The master key: CREDENTIALS_KEY when set; otherwise (never in production, config refuses that)
 * a key file beside the SQLite database, generated on first start with mode 0600.
 */
export function resolveCredentialsKey(configured: string | null, keyFileDir: string, log: (message: string) => void): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  const file = path.join(keyFileDir, 'credentials.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  fs.mkdirSync(keyFileDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  log(`CREDENTIALS_KEY is not set: generated a credentials key in ${file} (keep it with the database)`);
  return key;
}
