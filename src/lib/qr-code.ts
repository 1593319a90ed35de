import encodeQR from 'qr';

/** Light modules around the symbol, as the QR standard asks: scanners find its edge by them. */
const QUIET_ZONE = 4;

/**
 * The modules of `text` as a QR code, row by row (true: dark), quiet zone included. Error
 * correction M: a screen shows the code sharp, and an otpauth URI then fits a small symbol.
 */
export function qrModules(text: string): boolean[][] {
  return encodeQR(text, 'raw', { ecc: 'medium', border: QUIET_ZONE });
}
