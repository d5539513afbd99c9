/**
 * Credits as the vendor bills them: one per unique person returned by find or search, never twice for the same
 * person. With no budget nothing is metered and no credit headers are sent.
 */
export class CreditMeter {
  private spent = 0;
  private readonly charged = new Set<string>();

  constructor(readonly budget: number | null) {
    if (budget !== null && !(Number.isInteger(budget) && budget >= 0)) {
      throw new RangeError(`creditBudget must be a whole number of credits or null, got ${budget}.`);
    }
  }

  get used(): number {
    return this.spent;
  }

  get remaining(): number | null {
    return this.budget === null ? null : Math.max(0, this.budget - this.spent);
  }

  /** Credits a reply holding these people would cost: the ones not charged before, each once. */
  cost(personIds: Iterable<string>): number {
    const fresh = new Set<string>();
    for (const id of personIds) if (!this.charged.has(id)) fresh.add(id);
    return fresh.size;
  }

  /** Whether a reply costing `cost` may be sent: not once the budget is spent, nor beyond what remains. */
  affords(cost: number): boolean {
    const remaining = this.remaining;
    return remaining === null || (remaining > 0 && cost <= remaining);
  }

  charge(personIds: Iterable<string>): void {
    for (const id of personIds) {
      if (this.charged.has(id)) continue;
      this.charged.add(id);
      this.spent++;
    }
  }

  headers(): Record<string, string> {
    if (this.budget === null) return {};
    return { 'X-LDT-Credits-Used': String(this.spent), 'X-LDT-Credits-Remaining': String(this.remaining) };
  }
}
