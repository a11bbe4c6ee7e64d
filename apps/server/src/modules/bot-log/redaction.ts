import { BOT_LOG_REDACTED } from '@bot/contracts';

/**
 * The server's redaction of a bot's log lines (decision 209, docs/security.md): the SDK removes the
 * secrets it knows as they are written, but only in their exact text and only if the agent uses the
 * SDK. Before a batch is stored (and before a long line is cut) the server removes every secret
 * shape it knows and the owner's own access key in its common encodings, over the lines of the batch
 * scanned one by one and joined (a secret continued on the next line). A secret split across two
 * batches is not found: each batch is scanned alone.
 */

/** Where a secret was found, in the original text, and by which rule. */
interface Range {
  start: number;
  end: number;
  rule: string;
}

/** A text as searched: its characters and where each starts in the original line. */
interface View {
  text: string;
  /** The original index of character `index` (of `text.length`: the original length). */
  origin: (index: number) => number;
}

const BASE64_CHAR = /[A-Za-z0-9+/_=-]/;
/** Shorter than this, a text is no secret worth searching for (and would match by chance). */
const MIN_SECRET_CHARS = 16;

/**
 * The secret shapes, wherever they come from. A named group `secret` is what goes (the name in
 * `PASSWORD=hunter2` stays), otherwise the whole match; `body`, when there, must look random
 * (`bs_session_expired_handler` is a word, not a session). `isPrefixed`: the shape starts with a
 * text of its own, so it is also searched across a line's end (a bare 43-character token or a
 * password's value would be found in any two lines that happen to continue each other).
 */
const SHAPES: readonly { pattern: RegExp; isPrefixed: boolean }[] = [
  // Access keys and bot sessions: a prefix and 32 random bytes in base64url (43 characters).
  { pattern: /(?<![A-Za-z0-9])(?:bk|bs)_(?<body>[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/dgi, isPrefixed: true },
  // API tokens and webhook secrets to come (Standard Webhooks' `whsec_`), whatever their length.
  { pattern: /(?<![A-Za-z0-9])(?:bpat|whsec)_(?<body>[A-Za-z0-9+/_-]{16,}={0,2})/dgi, isPrefixed: true },
  // A JSON Web Token or JWS (leases): three base64url parts, the first a JSON header (`{"` is `eyJ`).
  { pattern: /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/dg, isPrefixed: true },
  // A web session token: 32 random bytes in base64url, 43 characters.
  { pattern: /(?<![A-Za-z0-9_-])(?<body>[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/dg, isPrefixed: false },
  { pattern: /\bbearer\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})/dgi, isPrefixed: false },
  // `password=…`, `"mot de passe" : "…"`, `token: …`: the value goes, quoted or up to a separator.
  {
    pattern:
      /(?<![A-Za-z0-9])(?:pass(?:word|wd|phrase)?|pwd|mdp|mot[ _-]?de[ _-]?passe|secret|api[_-]?key|access[_-]?key|token)["']?\s*[:=]\s*(?<secret>"[^"\n]*"|'[^'\n]*'|[^\s"',;&]+)/dgiu,
    isPrefixed: false,
  },
];

/**
 * Random-looking: letters and digits, or both cases in good measure (a generated secret has both; a
 * snake_case or camelCase word has not).
 */
function looksRandom(text: string): boolean {
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const [digits, lower, upper] = [count(/\d/g), count(/[a-z]/g), count(/[A-Z]/g)];
  if (digits > 0 && lower + upper > 0) return true;
  return lower >= text.length / 5 && upper >= text.length / 5;
}

const ESCAPED_ASCII = /%([0-7][0-9A-Fa-f])/g;

/** The text with its `%XX` escapes of ASCII characters decoded (`%2E` for a dot), mapped back. */
function percentDecoded(view: View): View {
  const { text } = view;
  const starts: number[] = [];
  let decoded = '';
  let at = 0;
  for (const match of text.matchAll(ESCAPED_ASCII)) {
    decoded += text.slice(at, match.index);
    for (; at < match.index; at++) starts.push(at);
    decoded += String.fromCharCode(Number.parseInt(match[1] as string, 16));
    starts.push(match.index);
    at = match.index + 3;
  }
  decoded += text.slice(at);
  for (; at <= text.length; at++) starts.push(at);
  return { text: decoded, origin: (index) => view.origin(starts[index] as number) };
}

/** The texts to search: the line, its percent-decoded form, and that decoded once more (`%252E`). */
function viewsOf(text: string): View[] {
  const views: View[] = [{ text, origin: (index) => index }];
  for (let round = 0; round < 2; round++) {
    const last = views.at(-1) as View;
    if (!last.text.includes('%')) break;
    const decoded = percentDecoded(last);
    if (decoded.text === last.text) break;
    views.push(decoded);
  }
  return views;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A known secret (the owner's access key) as it may be written: as is (any case), in hex, and in
 * base64 or base64url at each of the three byte alignments (the key inside a longer encoded text),
 * both for the whole key and for its part after the prefix. Each encoded form's middle (the groups
 * made of the key's bytes only) is searched, then widened by the characters of its first and last
 * groups that carry the key's bytes beside others (`edges`), and the padding.
 */
interface KnownSecret {
  exact: RegExp;
  encoded: RegExp;
  /** By middle (lower case): how many characters before and after it still carry the key. */
  edges: Map<string, { before: number; after: number }>;
}

function knownSecret(secret: string): KnownSecret | undefined {
  if (secret.length < MIN_SECRET_CHARS) return undefined;
  const exact = new Set<string>();
  const edges = new Map<string, { before: number; after: number }>();
  const body = secret.slice(secret.indexOf('_') + 1);
  for (const text of body.length >= MIN_SECRET_CHARS && body !== secret ? [secret, body] : [secret]) {
    const bytes = Buffer.from(text);
    exact.add(text);
    exact.add(bytes.toString('hex'));
    for (let shift = 0; shift < 3; shift++) {
      const shifted = Buffer.concat([Buffer.alloc(shift), bytes]);
      const whole = shifted.toString('base64');
      // The first group holds the shift's bytes; the last one, when partial, what follows the key.
      const from = shift === 0 ? 0 : 4;
      const to = Math.floor(shifted.length / 3) * 4;
      const middle = whole.slice(from, to);
      if (middle.length < MIN_SECRET_CHARS) continue;
      const edge = { before: [0, 3, 2][shift] as number, after: [0, 2, 3][shifted.length % 3] as number };
      edges.set(middle.toLowerCase(), edge);
      edges.set(middle.replaceAll('+', '-').replaceAll('/', '_').toLowerCase(), edge);
    }
  }
  const alternation = (texts: Iterable<string>) =>
    [...texts]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|');
  return {
    exact: new RegExp(alternation(exact), 'gi'),
    encoded: new RegExp(alternation(edges.keys()), 'gi'),
    edges,
  };
}

/**
 * Where a text holds secrets (shapes and the known ones), as ranges of the original text. Across
 * lines (`acrossLines`, the joined batch) only the prefixed shapes and the known secrets are searched.
 */
function findSecrets(text: string, known: readonly KnownSecret[], acrossLines = false): Range[] {
  const found: Range[] = [];
  for (const view of viewsOf(text)) {
    const back = (start: number, end: number, rule: string): Range => ({
      start: view.origin(start),
      end: view.origin(end),
      rule,
    });
    SHAPES.forEach(({ pattern, isPrefixed }, rule) => {
      if (acrossLines && !isPrefixed) return;
      for (const match of view.text.matchAll(pattern)) {
        const [start, end] = match.indices?.groups?.secret ?? match.indices?.[0] ?? [0, 0];
        const body = match.groups?.body;
        if (end <= start || (body !== undefined && !looksRandom(body))) continue;
        found.push(back(start, end, `shape ${rule}`));
      }
    });
    for (const secret of known) {
      for (const match of view.text.matchAll(secret.exact))
        found.push(back(match.index, match.index + match[0].length, 'known'));
      for (const match of view.text.matchAll(secret.encoded)) {
        const edge = secret.edges.get(match[0].toLowerCase()) ?? { before: 0, after: 0 };
        let start = match.index;
        let end = start + match[0].length;
        const isEncoded = (at: number) => BASE64_CHAR.test(view.text[at] ?? '');
        for (let left = edge.before; left > 0 && start > 0 && isEncoded(start - 1); left--) start--;
        for (let left = edge.after; left > 0 && end < view.text.length && isEncoded(end); left--) end++;
        while (view.text[end] === '=') end++;
        found.push(back(start, end, 'known encoded'));
      }
    }
  }
  return found;
}

/** The text with each range (merged when they touch) replaced by the marker. */
function masked(text: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let result = '';
  let at = 0;
  let open: { start: number; end: number } | undefined;
  const close = () => {
    if (!open) return;
    result += text.slice(at, open.start) + BOT_LOG_REDACTED;
    at = open.end;
  };
  for (const { start, end } of sorted) {
    if (open && start <= open.end) open.end = Math.max(open.end, end);
    else {
      close();
      open = { start, end };
    }
  }
  close();
  return result + text.slice(at);
}

/**
 * One batch of a bot's lines without their secrets, in order. Each line is searched alone, then the
 * batch joined: a secret that runs from the end of one line into the next is masked in both. From
 * the joined text only matches crossing a line's end are taken, and not a shape its first line
 * already explains (the same rule matched up to that line's end: the next line merely starts with
 * letters). The owner's key is matched by its known text and never explained away.
 * `secrets`: the owner's own (their access key), also found encoded.
 */
export function redactBatch(lines: readonly string[], secrets: readonly string[] = []): string[] {
  const known = secrets.flatMap((secret) => knownSecret(secret) ?? []);
  const ranges: Range[][] = lines.map((line) => findSecrets(line, known));
  if (lines.length > 1) {
    const offsets: number[] = [];
    let length = 0;
    for (const line of lines) {
      offsets.push(length);
      length += line.length;
    }
    offsets.push(length);
    const across: Range[][] = lines.map(() => []);
    for (const found of findSecrets(lines.join(''), known, true)) {
      const { start, rule } = found;
      const first = lineAt(offsets, start);
      // A secret split over two consecutive lines: what runs further is the next line's own text.
      const end = Math.min(found.end, offsets[Math.min(first + 2, lines.length)] as number);
      const last = lineAt(offsets, end - 1);
      if (first === last) continue;
      const firstEnd = (offsets[first + 1] as number) - (offsets[first] as number);
      const isExplained =
        !rule.startsWith('known') &&
        ranges[first]?.some(
          (own) =>
            own.rule === rule && own.end === firstEnd && own.start <= start - (offsets[first] as number),
        );
      if (isExplained) continue;
      for (let index = first; index <= last; index++) {
        const from = Math.max(start, offsets[index] as number) - (offsets[index] as number);
        const to = Math.min(end, offsets[index + 1] as number) - (offsets[index] as number);
        if (to > from) across[index]?.push({ start: from, end: to, rule });
      }
    }
    across.forEach((found, index) => {
      ranges[index]?.push(...found);
    });
  }
  return lines.map((line, index) => masked(line, ranges[index] ?? []));
}

/** The line holding the joined text's character at `position` (binary search over line starts). */
function lineAt(offsets: readonly number[], position: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((offsets[middle] as number) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}
