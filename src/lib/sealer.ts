import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 's1';

/**
 * Text kept secret at rest: AES-256-GCM under a key derived (HKDF) from the master key for one
 * purpose, so what one purpose sealed no other can open.
 */
export class Sealer {
  private readonly key: Buffer;

  constructor(masterKey: Buffer, purpose: string) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), purpose, 32));
  }

  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const [version, payload] = sealed.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('unknown sealed encoding');
    const raw = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
