import encodeQR from 'qr';

/**
 * The modules of `text` as a QR code, row by row (true: dark), without the quiet zone. Error
 * correction M: a screen shows the code sharp, and an otpauth URI then fits a small symbol.
 */
export function qrModules(text: string): boolean[][] {
  return encodeQR(text, 'raw', { ecc: 'medium', border: 0 });
}
