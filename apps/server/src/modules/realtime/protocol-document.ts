import {
  APP_NAME,
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
} from '@bot/contracts';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import { type Audience, clientEvents, type EventDescription, serverEvents } from './protocol-messages.ts';

/** The AsyncAPI version the document follows. */
const ASYNCAPI_VERSION = '3.0.0';
const CHANNEL = 'socket';

type JsonObject = Record<string, unknown>;
type Direction = 'client' | 'server';

/**
 * How Socket.IO maps onto AsyncAPI's WebSocket binding (it has no Socket.IO binding): written in
 * the document itself, for whoever reads it without our sources (docs/protocol.md says the same).
 */
function mappingDescription(config: AppConfig): string {
  const { realtime } = config;
  return [
    `Le protocole temps réel de ${APP_NAME} : Socket.IO 4 (Engine.IO 4) sur WebSocket, décrit avec la liaison WebSocket d’AsyncAPI, qui n’en a pas pour Socket.IO. La référence lisible est docs/protocol.md.`,
    '',
    '**Connexion.** Un seul canal : la WebSocket `/socket.io/?EIO=4&transport=websocket` (transport websocket seulement : le long polling est refusé, un client Socket.IO doit être réglé sur `transports: ["websocket"]`) et l’espace de noms par défaut `/`, le seul. Le serveur ouvre avec le paquet Engine.IO `0{"sid",…,"pingInterval","pingTimeout","maxPayload"}` ; le client rejoint l’espace de noms par `40` et le serveur répond `40{"sid"}`. Il envoie `2` (ping) toutes les `pingInterval` ms ; le client répond `3` (pong), sinon la connexion est coupée. Un client sans en-tête Origin (un agent) est accepté ; un navigateur doit venir du site. Les messages sont du texte JSON : les pièces binaires de Socket.IO sont refusées.',
    '',
    '**Un message = un événement Socket.IO.** Chaque message de ce document est un événement : la trame `42["<name>",<payload>]`, où `<name>` est le champ `name` du message et `<payload>` le JSON décrit par son schéma ; un événement sans argument est `42["<name>"]`. Les opérations `receive` sont les événements que le serveur reçoit (émis par le client), les opérations `send` ceux qu’il émet.',
    '',
    '**Accusés de réception.** Un événement envoyé avec un accusé porte un identifiant : `42<id>["authenticate",{…}]` ; le serveur répond `43<id>[<réponse>]`. Dans ce document, la réponse est le `reply` de l’opération (même canal), et son message est celui dont l’identifiant finit par `.ack`. Les accusés restent facultatifs.',
    '',
    `**Limites.** Un message de plus de ${realtime.maxMessageBytes} octets ferme la connexion ; plus de ${realtime.floodMessagesPer10s} messages en 10 s aussi (auth_error SOCKET_FLOOD) ; un socket doit s’authentifier dans les ${realtime.authTimeoutMs / 1000} s (AUTH_TIMEOUT). Les limites de chaque champ sont dans les schémas (maxLength, maxItems, minimum…).`,
    '',
    `**Erreurs et reconnexion.** Un refus avant la connexion (origine refusée, trop de connexions depuis une adresse) est une réponse HTTP d’erreur à la demande de WebSocket, que les clients Socket.IO appellent connect_error ; tout autre refus est l’événement auth_error, suivi de la fermeture (\`41\`). Après une fermeture par le serveur, un client se reconnecte avec un délai qui double de ${SOCKET_RECONNECTION_DELAY_MS} à ${SOCKET_RECONNECTION_DELAY_MAX_MS} ms, à ±${SOCKET_RANDOMIZATION_FACTOR * 100} % près, sauf si le dernier auth_error était définitif (docs/protocol.md, « Reconnecting »).`,
  ].join('\n');
}

/** A zod schema as the JSON schema of a message payload (draft-07, AsyncAPI's default format). */
function jsonSchemaOf(schema: z.ZodType, direction: Direction): JsonObject {
  const { $schema: _, ...payload } = z.toJSONSchema(schema, {
    target: 'draft-7',
    // What a client may send (defaults optional) / what the server sends (every default filled).
    io: direction === 'client' ? 'input' : 'output',
    unrepresentable: 'any',
  }) as JsonObject;
  return payload;
}

const messageId = (direction: Direction, event: string) => `${direction}.${event}`;
const messageRef = (id: string) => ({ $ref: `#/channels/${CHANNEL}/messages/${id}` });
const AUDIENCE_TAGS: Record<Audience, { name: string }[]> = {
  agent: [{ name: 'agent' }],
  navigateur: [{ name: 'navigateur' }],
  tous: [{ name: 'agent' }, { name: 'navigateur' }],
};

function messageOf(
  event: string,
  described: EventDescription<unknown, unknown>,
  direction: Direction,
): JsonObject {
  const message: JsonObject = {
    name: event,
    title: event,
    summary: described.summary,
    description: described.description,
    contentType: 'application/json',
    tags: AUDIENCE_TAGS[described.audience],
  };
  if (described.payload) {
    message.payload = jsonSchemaOf(described.payload, direction);
    message.examples = described.examples.map((payload, index) => ({
      name: `exemple-${index + 1}`,
      payload,
    }));
  }
  return message;
}

function ackMessageOf(
  event: string,
  ack: NonNullable<EventDescription<unknown, unknown>['ack']>,
): JsonObject {
  return {
    name: event,
    title: `${event} (accusé de réception)`,
    summary: `Réponse du serveur à ${event} envoyé avec un accusé : trame 43<id>[<réponse>]`,
    contentType: 'application/json',
    payload: jsonSchemaOf(ack.schema, 'server'),
    examples: ack.examples.map((payload, index) => ({ name: `exemple-${index + 1}`, payload })),
  };
}

interface Entries {
  messages: Record<string, JsonObject>;
  operations: Record<string, JsonObject>;
}

function addEvents(
  entries: Entries,
  events: Record<string, EventDescription<unknown, unknown>>,
  direction: Direction,
): void {
  for (const [event, described] of Object.entries(events)) {
    const id = messageId(direction, event);
    entries.messages[id] = messageOf(event, described, direction);
    const operation: JsonObject = {
      action: direction === 'client' ? 'receive' : 'send',
      channel: { $ref: `#/channels/${CHANNEL}` },
      title: event,
      summary: described.summary,
      messages: [messageRef(id)],
      tags: AUDIENCE_TAGS[described.audience],
    };
    if (described.ack) {
      entries.messages[`${id}.ack`] = ackMessageOf(event, described.ack);
      operation.reply = { channel: { $ref: `#/channels/${CHANNEL}` }, messages: [messageRef(`${id}.ack`)] };
    }
    entries.operations[id] = operation;
  }
}

/**
 * The AsyncAPI 3.0 document of the socket protocol, generated from the contracts' schemas and this
 * server's limits (docs/protocol.md). Built once at start: `GET /api/docs/asyncapi.json`.
 */
export function buildAsyncApiDocument(config: AppConfig, version: string): JsonObject {
  const entries: Entries = { messages: {}, operations: {} };
  addEvents(entries, clientEvents(config), 'client');
  addEvents(entries, serverEvents(config), 'server');
  const site = new URL(config.publicUrl);
  return {
    asyncapi: ASYNCAPI_VERSION,
    info: {
      title: `Protocole temps réel ${APP_NAME}`,
      version,
      description: mappingDescription(config),
    },
    defaultContentType: 'application/json',
    servers: {
      plateforme: {
        host: site.host,
        protocol: site.protocol === 'https:' ? 'wss' : 'ws',
        pathname: '/socket.io/',
        description: 'Le serveur de la plateforme (le même que l’API HTTP).',
      },
    },
    channels: {
      [CHANNEL]: {
        address: '/',
        title: 'Espace de noms Socket.IO « / »',
        description: 'Le seul espace de noms : agents et navigateurs s’y connectent, puis s’authentifient.',
        messages: Object.fromEntries(
          Object.keys(entries.messages).map((id) => [id, { $ref: `#/components/messages/${id}` }]),
        ),
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                EIO: { type: 'string', const: '4', description: 'Version d’Engine.IO' },
                transport: { type: 'string', const: 'websocket' },
                hwid: {
                  type: 'string',
                  description: 'Facultatif : s’il est donné, authenticate doit porter le même',
                },
              },
              required: ['EIO', 'transport'],
            },
            bindingVersion: '0.1.0',
          },
        },
      },
    },
    operations: entries.operations,
    components: { messages: entries.messages },
  };
}
