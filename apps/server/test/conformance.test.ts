import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceBench, startConformanceBench } from '../../../tools/conformance/bench.ts';
import { runConformance, SCENARIO_IDS, type ScenarioOutcome } from '../../../tools/conformance/kit.ts';
import { SDK_AGENT } from '../../../tools/conformance/reference-agents.ts';

/**
 * The conformance kit (tools/conformance, issue 46.10) on the TypeScript SDK: the SDK passes every
 * scenario, and the kit fails an agent that does not do what a scenario asks (it says why). The
 * Python agent's run is python-agent.test.ts.
 */

let bench: ConformanceBench;
let outcomes: ScenarioOutcome[] = [];

beforeAll(async () => {
  bench = await startConformanceBench();
  outcomes = await runConformance({ agent: SDK_AGENT, bench });
}, 240_000);
afterAll(() => bench?.close());

describe('the conformance kit', () => {
  it.each(SCENARIO_IDS)('the SDK passes the scenario %s', (id) => {
    const outcome = outcomes.find((entry) => entry.id === id);
    expect(outcome?.detail ?? '').toBe('');
    expect(outcome?.passed).toBe(true);
  });

  it('fails an agent that exits at once, saying what the platform did not see', async () => {
    const [outcome] = await runConformance({ agent: 'exit 0', only: ['outdated-at-start'], bench });
    expect(outcome).toMatchObject({ id: 'outdated-at-start', passed: false });
    expect(outcome?.detail).toContain('426');
  });
});
