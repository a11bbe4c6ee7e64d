import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance, SCENARIO_IDS, type ScenarioOutcome } from '../../../tools/conformance/kit.ts';
import {
  missingPythonModules,
  PYTHON_AGENT,
  PYTHON_INSTALL_LINE,
} from '../../../tools/conformance/reference-agents.ts';

/**
 * The Python reference agent (agents/python, issue 46.9), written from docs/, against the real
 * server: the conformance kit plays each behaviour at it and reads the outcome through the server
 * (what the owner sees, a staff command's result, the journal, a restart survived...).
 */

let outcomes: ScenarioOutcome[] = [];

beforeAll(async () => {
  if (missingPythonModules().length > 0) return;
  outcomes = await runConformance({ agent: PYTHON_AGENT });
}, 240_000);

describe('the Python reference agent', () => {
  it('runs on Debian’s Python packages (the test fails, never skips, when one is missing)', () => {
    const missing = missingPythonModules();
    expect(missing, `modules Python manquants (${missing.join(', ')}) : ${PYTHON_INSTALL_LINE}`).toEqual([]);
  });

  it.each(SCENARIO_IDS)('passes the conformance scenario %s', (id) => {
    const outcome = outcomes.find((entry) => entry.id === id);
    expect(outcome, `scénario non joué : ${PYTHON_INSTALL_LINE}`).toBeDefined();
    expect(outcome?.detail ?? '').toBe('');
    expect(outcome?.passed).toBe(true);
  });
});
