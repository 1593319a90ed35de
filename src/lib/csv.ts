/**
 * The one CSV writer of the exports (statements, margins, orders, top-ups): RFC 4180 fields, and
 * free text a spreadsheet would otherwise run as a formula shown with a leading '.
 */

/** One field: quoted (its quotes doubled) when it holds a comma, a quote or a line break. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Free text (a name, a reference, a reason) that starts as a formula would (=, +, -, @, tab, carriage
 * return) gets a leading ', so a spreadsheet shows it instead of running it. Only for text: a
 * negative amount we write stays a number.
 */
export function csvText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A document: the header, then each row, every line ended by CRLF (RFC 4180). */
export function csvDocument(header: readonly string[], rows: Iterable<readonly (string | number)[]>): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
