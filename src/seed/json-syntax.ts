/**
 * Where JSON text stops being valid, as line and column. JSON.parse says "at position 85" at best
 * (and on Node 20 often no position at all), which nobody can find in a file by hand.
 */

export interface JsonSyntaxProblem {
  /** 1-based. */
  line: number;
  /** 1-based, in characters from the start of the line. */
  column: number;
  problem: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** A recursive-descent reader of RFC 8259 JSON that builds nothing and stops at the first fault. */
class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.skipWhitespace();
    if (this.i >= this.text.length) throw new Stop(0, 'the file is empty');
    this.value();
    this.skipWhitespace();
    if (this.i < this.text.length) this.stop(`unexpected ${this.found()} after the end of the JSON document`);
  }

  private stop(problem: string, at = this.i): never {
    throw new Stop(at, problem);
  }

  private found(): string {
    const c = this.text[this.i];
    if (c === undefined) return 'the end of the file';
    if (c === "'") return `"'"`;
    return c >= ' ' ? `'${c}'` : JSON.stringify(c);
  }

  private skipWhitespace(): void {
    while (WHITESPACE.has(this.text[this.i] ?? '')) this.i++;
  }

  private value(): void {
    this.skipWhitespace();
    const c = this.text[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    if (c === "'") this.stop("strings must be in double quotes, found '");
    this.stop(`expected a value, found ${this.found()}`);
  }

  private object(): void {
    this.i++;
    this.skipWhitespace();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.i] === '}') this.stop("a comma before '}': JSON allows no trailing comma");
      if (this.text[this.i] !== '"') this.stop(`expected a property name in double quotes, found ${this.found()}`);
      this.string();
      this.skipWhitespace();
      if (this.text[this.i] !== ':') this.stop(`expected ':' after the property name, found ${this.found()}`);
      this.i++;
      this.value();
      this.skipWhitespace();
      const c = this.text[this.i];
      if (c !== ',' && c !== '}') this.stop(`expected ',' or '}' after a property value, found ${this.found()}`);
      this.i++;
      if (c === '}') return;
    }
  }

  private array(): void {
    this.i++;
    this.skipWhitespace();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.i] === ']') this.stop("a comma before ']': JSON allows no trailing comma");
      this.value();
      this.skipWhitespace();
      const c = this.text[this.i];
      if (c !== ',' && c !== ']') this.stop(`expected ',' or ']' after an array element, found ${this.found()}`);
      this.i++;
      if (c === ']') return;
    }
  }

  private string(): void {
    const start = this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.stop('a string is not closed', start);
      if (c === '"') {
        this.i++;
        return;
      }
      if (c < ' ') this.stop(`a control character (${JSON.stringify(c)}) inside a string: write it as an escape such as \\n`);
      if (c === '\\') this.escape();
      else this.i++;
    }
  }

  private escape(): void {
    const next = this.text[this.i + 1];
    if (next !== undefined && ESCAPES.has(next)) {
      this.i += 2;
    } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) {
      this.i += 6;
    } else {
      this.stop(`invalid escape \\${next ?? ''} in a string`);
    }
  }

  private number(): void {
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (!match) this.stop(`invalid number, found ${this.found()}`);
    this.i += match[0].length;
  }
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** The first syntax fault of `text`, or null when it is valid JSON (or too deeply nested to scan). */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  try {
    new Scanner(text).document();
    return null;
  } catch (error) {
    if (!(error instanceof Stop)) return null;
    return { ...position(text, error.at), problem: error.problem };
  }
}
