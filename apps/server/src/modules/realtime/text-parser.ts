import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser';

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
    const data = packet.data == null ? '' : JSON.stringify(packet.data);
    return [`${packet.type}${namespace}${packet.id ?? ''}${data}`];
  }
}

/** The `parser` option of the hub's Socket.IO server. */
export const textOnlyParser = { Encoder: TextOnlyEncoder, Decoder };
