/**
 * How a turn ordered its candidates for the budgets: `matched` (keyword and history groups
 * round-robin), `relevance` (the `relevance` option) or `fallback` (no group matched).
 */
export type BudgetOrder = 'matched' | 'relevance' | 'fallback';

/** Every `BudgetOrder`, in a fixed order (for numeric cache keys). */
export const BUDGET_ORDERS: readonly BudgetOrder[] = ['matched', 'relevance', 'fallback'];

const ORDER_TEXT: Readonly<Record<BudgetOrder, string>> = {
  matched: 'pinned, context, then matched groups round-robin by relevance',
  relevance: 'pinned, context, then the tools of keyword groups by relevance score',
  fallback: 'pinned, context, then the fallback tools by relevance score',
};

/** The reason of an `OVER_MAX_TOOLS` drop: the order that filled `maxTools` in this turn. */
export function overMaxToolsReason(maxTools: number, order: BudgetOrder): string {
  return `maxTools ${maxTools} is reached by higher-ranked tools (${ORDER_TEXT[order]}); raise maxTools to include it`;
}
