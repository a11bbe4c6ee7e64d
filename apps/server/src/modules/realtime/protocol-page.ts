type JsonObject = Record<string, unknown>;
interface Message {
  name: string;
  summary?: string;
  description?: string;
  payload?: unknown;
  examples?: { name: string; payload: unknown }[];
  tags?: { name: string }[];
}
interface Operation {
  action: 'send' | 'receive';
  messages: { $ref: string }[];
  reply?: { messages: { $ref: string }[] };
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The little markdown the description uses: paragraphs, `code` and **bold**. */
function paragraphs(markdown: string): string {
  return markdown
    .split(/\n{2,}/)
    .map((block) =>
      escapeHtml(block)
        .replace(/`([^`]+)`/g, '<code>$1</code>')
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>'),
    )
    .map((block) => `<p>${block}</p>`)
    .join('\n');
}

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

function messageOf(document: JsonObject, ref: { $ref: string }): Message {
  const id = ref.$ref.split('/').at(-1) as string;
  return (document.components as { messages: Record<string, Message> }).messages[id] as Message;
}

function section(document: JsonObject, id: string, operation: Operation): string {
  const message = messageOf(document, operation.messages[0] as { $ref: string });
  const direction = operation.action === 'receive' ? 'client → serveur' : 'serveur → client';
  const who = (message.tags ?? []).map((tag) => tag.name).join(', ');
  const reply = operation.reply
    ? messageOf(document, operation.reply.messages[0] as { $ref: string })
    : undefined;
  return [
    `<section id="${escapeHtml(id)}">`,
    `<h3><code>${escapeHtml(message.name)}</code> <small>${direction} · ${escapeHtml(who)}</small></h3>`,
    `<p><strong>${escapeHtml(message.summary ?? '')}</strong></p>`,
    `<p>${escapeHtml(message.description ?? '')}</p>`,
    message.payload === undefined
      ? '<p>Sans argument.</p>'
      : `<details><summary>Schéma de l’argument</summary>${json(message.payload)}</details>`,
    ...(message.examples ?? []).map((example) => `<p>Exemple :</p>${json(example.payload)}`),
    reply
      ? `<p>Accusé de réception (facultatif) : ${escapeHtml(reply.summary ?? '')}</p><details><summary>Schéma de la réponse</summary>${json(reply.payload)}</details>${(reply.examples ?? []).map((example) => json(example.payload)).join('')}`
      : '',
    '</section>',
  ].join('\n');
}

function listOf(document: JsonObject, action: Operation['action']): string {
  const operations = Object.entries(document.operations as Record<string, Operation>).filter(
    ([, operation]) => operation.action === action,
  );
  return operations.map(([id, operation]) => section(document, id, operation)).join('\n');
}

/**
 * The AsyncAPI document as one plain page (no script: the site's CSP allows none inline), for a
 * bot maker who reads rather than generates: every event, its argument's schema and examples.
 */
export function renderProtocolPage(document: JsonObject): string {
  const info = document.info as { title: string; version: string; description: string };
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1b1f24; }
pre { background: #f3f4f6; padding: .75rem; overflow-x: auto; font-size: 13px; }
section { border-top: 1px solid #d0d7de; margin-top: 1.5rem; }
small { color: #57606a; font-weight: normal; }
</style>
</head>
<body>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>Document AsyncAPI 3.0 : <a href="/api/docs/asyncapi.json">/api/docs/asyncapi.json</a> · API HTTP : <a href="/api/docs">/api/docs</a></p>
${paragraphs(info.description)}
<h2>Reçus par le serveur</h2>
${listOf(document, 'receive')}
<h2>Émis par le serveur</h2>
${listOf(document, 'send')}
</body>
</html>
`;
}
