/**
 * Replaces every known secret in text bound for an error, a log or the database. A service may echo the request
 * back in an error body, so the password, client secret, API key and every token issued are scrubbed, also in
 * their URL- and JSON-escaped forms.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | null | undefined): void {
    // Very short values would blank out ordinary words; nobody's secret is that short.
    if (!secret || secret.length < 4) return;
    for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)]) {
      this.secrets.add(form);
    }
  }

  apply(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    }
    return out;
  }
}
