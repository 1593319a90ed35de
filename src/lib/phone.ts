import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Ghana mobile number → international form without "+" (233244123456), or null when the input
 * is not a valid Ghana mobile number. Accepts 0244123456, 244123456, +233 24 412 3456, 233244123456.
 */
export function normaliseGhanaMsisdn(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed.length > 32 || !/^[+\d\s\-()]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/[^\d]/g, '');
  const candidate = trimmed.startsWith('+')
    ? trimmed
    : digits.startsWith('233') && digits.length === 12
      ? `+${digits}`
      : digits.length === 9
        ? `0${digits}`
        : digits;
  const parsed = parsePhoneNumberFromString(candidate, 'GH');
  if (!parsed || parsed.country !== 'GH') return null;
  // With the full metadata a number is valid exactly when it has a type (libphonenumber-js's
  // isValid() is getType() !== undefined), so asking for the type alone validates it.
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null;
  return parsed.number.slice(1);
}
