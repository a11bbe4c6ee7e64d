import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * What a WCAG 2.2 AA audit of the page found at the impacts that block people (serious, critical),
 * once its transitions have ended: a dialog audited while it fades in has half-transparent text,
 * whose contrast axe measures as too low (a flaky failure on a submit button). Ending one animation
 * may start another: wait until a frame passes with none running. A toast's progress bar is the
 * exception: it runs for the toast's whole life (5 s, an idle wait on every page opened after a
 * sign-in) and changes no colour, and the toast it belongs to is audited shown in full.
 */
export async function blockingViolations(page: Page): Promise<string[]> {
  await page.evaluate(async () => {
    const nextFrame = () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (;;) {
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' &&
            animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY &&
            !(
              animation.effect instanceof KeyframeEffect &&
              animation.effect.target?.classList.contains('Toastify__progress-bar')
            ),
        );
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
      await nextFrame();
    }
  });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // Only the violations are read: axe then skips describing every passing node of large pages.
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}${violation.nodes.length > 3 ? ` … ${violation.nodes.length} éléments` : ''}`,
    );
}
