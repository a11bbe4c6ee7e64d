/** The fleet player, run in a Web Worker of the page (plain JS source). */
export const FLEET_WORKER = `
onmessage = (event) => {
  const { accounts, perBot, batchesPerSecond } = event.data;
  const statuses = ['idle', 'moving', 'gathering', 'treasure', 'fighting', 'banking'];
  const bots = Math.ceil(accounts / perBot);
  let seed = 12345;
  const random = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
  const now = new Date().toISOString();
  const states = [];
  for (let bot = 0; bot < bots; bot++) {
    const list = [];
    for (let index = 0; index < Math.min(perBot, accounts - bot * perBot); index++) {
      const x = Math.round(random() * 80 - 40);
      const y = Math.round(random() * 80 - 40);
      list.push({
        name: 'acc-' + bot + '-' + index, character: 'Perso' + bot + '-' + index,
        level: 1 + Math.floor(random() * 199), status: statuses[Math.floor(random() * statuses.length)],
        position: { mapId: (x + 1000) * 10000 + (y + 1000), x, y }, routeId: null,
        stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 }, message: null,
      });
    }
    states.push({
      hwid: 'BENCH-' + String(bot).padStart(6, '0'),
      owner: { id: 'owner-' + (bot % 500), username: 'client' + (bot % 500) },
      online: true, version: '1.2.3', connectedAt: now, lastSeenAt: now, accounts: list,
    });
  }
  postMessage({ snapshot: true, json: JSON.stringify(states) });
  let cursor = 0;
  const perBatch = Math.ceil(bots / batchesPerSecond);
  setInterval(() => {
    const batch = [];
    const stamp = new Date().toISOString();
    for (let i = 0; i < perBatch; i++) {
      const state = states[cursor];
      cursor = (cursor + 1) % bots;
      for (const account of state.accounts) {
        const x = Math.max(-40, Math.min(40, account.position.x + Math.round(random() * 2 - 1)));
        const y = Math.max(-40, Math.min(40, account.position.y + Math.round(random() * 2 - 1)));
        account.position = { mapId: (x + 1000) * 10000 + (y + 1000), x, y };
        account.stats.gathered += 1;
        if (random() < 0.05) account.status = statuses[Math.floor(random() * statuses.length)];
      }
      state.lastSeenAt = stamp;
      batch.push(state);
    }
    postMessage({ snapshot: false, json: JSON.stringify(batch) });
  }, 1000 / batchesPerSecond);
};
`;
