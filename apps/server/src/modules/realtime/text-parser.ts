import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser';
import type { HubServer } from './realtime.types.ts';

/**
 * An event payload already written as JSON text: sent as it is, not parsed and written again (a
 * batch of staff states another node wrote reaches this node's staff sockets that way).
 */
class EncodedJson {
  constructor(readonly text: string) {}
}

/**
 * Socket.IO's encoder without its search for binary attachments. The stock encoder walks every
 * object, array and key of each emitted event looking for Buffers before it stringifies it: about
 * 5 % of the hub's CPU at 10,000 bots, where staff batches carry hundreds of states each. Nothing
 * this server emits is binary (the events' payload types in `@bot/contracts` have none), so an event
 * is written as the text the stock encoder produces for a binary-free payload; clients keep the
 * stock parser. Other packets (connect, disconnect, errors) go through the stock encoder.
 */
class TextOnlyEncoder extends Encoder {
  override encode(packet: Packet): string[] {
    if (packet.type !== PacketType.EVENT && packet.type !== PacketType.ACK) return super.encode(packet);
    const namespace = packet.nsp && packet.nsp !== '/' ? `${packet.nsp},` : '';
    const data = packet.data == null ? '' : encodeData(packet.data);
    return [`${packet.type}${namespace}${packet.id ?? ''}${data}`];
  }
}

function encodeData(data: unknown): string {
  if (Array.isArray(data) && data.length === 2 && data[1] instanceof EncodedJson) {
    return `[${JSON.stringify(data[0])},${data[1].text}]`;
  }
  return JSON.stringify(data);
}

/** The `parser` option of the hub's Socket.IO server. */
export const textOnlyParser = { Encoder: TextOnlyEncoder, Decoder };

/**
 * Emits to this node's sockets in `room` an event whose payload is already JSON text (`json`),
 * through the text-only encoder: the typed `emit` knows payloads as objects, so this is the one
 * place the text goes in their stead. This node's only: another node's encoder would not know it.
 */
export function emitEncoded(io: HubServer, room: string, event: string, json: string): void {
  const target = io.local.to(room);
  (target.emit as (event: string, payload: EncodedJson) => boolean)(event, new EncodedJson(json));
}
