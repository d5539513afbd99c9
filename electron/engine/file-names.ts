/**
 * A name made safe as a file name on every desktop OS: no separators or reserved characters (a run of them between
 * words becomes " - ", inside a word "-"), no control characters, no leading dots, no trailing dots or spaces
 * (Windows drops them), not empty, and cut to `maxLength` bytes of UTF-8 (file systems count a name's bytes, 255 at
 * most), keeping a short extension.
 */
export function safeFileName(name: string, opts: { fallback?: string; maxLength?: number } = {}): string {
  const maxLength = opts.maxLength ?? 100;
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[\s\\/:*?"<>|]+$/, '')
    .replace(/\s*[\\/:*?"<>|]+\s*/g, (run) => (/\s/.test(run) ? ' - ' : '-'))
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (!cleaned) return opts.fallback ?? 'export';
  if (Buffer.byteLength(cleaned) <= maxLength) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return withinBytes(cleaned.slice(0, cleaned.length - extension.length), maxLength - Buffer.byteLength(extension)).trimEnd() + extension;
}

/** The longest start of `text` of at most `max` bytes in UTF-8, whole characters only. */
function withinBytes(text: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > max) break;
    end += char.length;
  }
  return text.slice(0, end);
}
