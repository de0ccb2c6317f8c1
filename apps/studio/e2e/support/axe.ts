/**
 * axe-core in the page under test: the serious and critical violations of the WCAG 2.0/2.1 A and AA
 * rules plus axe's best practices (its default rule set), inside `selector` or the whole document.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export async function seriousViolations(page: Page, selector?: string): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  return page.evaluate(async (context) => {
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    }
    const axe = (window as unknown as { axe: { run: (context: string | Document) => Promise<AxeResults> } }).axe;
    const results = await axe.run(context ?? document);
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, selector ?? null);
}
