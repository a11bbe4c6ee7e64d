import { parseArgs } from 'node:util';
import { formatOutcome, runConformance, SCENARIO_IDS } from './kit.ts';

/**
 * `npm run conformance -- --agent "<command line>" [--only report,command]`: plays the protocol's
 * scenarios at the agent against a real server started here, prints which pass, and exits 1 when
 * one fails (apps/bot-agent/README.md, "Conformance kit").
 */
const { values } = parseArgs({ options: { agent: { type: 'string' }, only: { type: 'string' } } });
if (!values.agent) {
  console.error(
    `Usage : npm run conformance -- --agent "<ligne de commande de l’agent>" [--only ${SCENARIO_IDS.join(',')}]`,
  );
  process.exit(64);
}
const only = values.only?.split(',').map((id) => id.trim());
const unknown = only?.filter((id) => !SCENARIO_IDS.includes(id)) ?? [];
if (unknown.length > 0) {
  console.error(`Scénarios inconnus : ${unknown.join(', ')} (connus : ${SCENARIO_IDS.join(', ')})`);
  process.exit(64);
}
console.log(`Kit de conformité : ${values.agent}`);
const outcomes = await runConformance({
  agent: values.agent,
  only,
  onOutcome: (outcome) => console.log(formatOutcome(outcome)),
});
const passed = outcomes.filter((outcome) => outcome.passed).length;
console.log(`${passed}/${outcomes.length} scénarios réussis.`);
process.exit(passed === outcomes.length ? 0 : 1);
