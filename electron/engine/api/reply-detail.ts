/** The service's own explanation in an error body: `message` or `error` of a JSON body, else the text. */
export function replyDetail(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  if (trimmed.startsWith('{')) {
    try {
      const body = JSON.parse(trimmed) as Record<string, unknown>;
      for (const key of ['message', 'error', 'detail', 'error_description']) {
        const value = body[key];
        if (typeof value === 'string' && value.trim()) return value.trim();
        if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
          return (value as { message: string }).message.trim();
        }
      }
    } catch {
      // Not JSON after all: the text itself is the detail.
    }
  }
  // An HTML error page says nothing useful in its markup.
  if (/^<(!doctype|html)/i.test(trimmed)) return trimmed.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
  return trimmed;
}
