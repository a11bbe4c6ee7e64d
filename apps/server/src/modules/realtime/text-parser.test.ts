import fc from 'fast-check';
import { Encoder, type Packet, PacketType } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { emitEncoded, textOnlyParser } from './text-parser.ts';

const stock = new Encoder();
const textOnly = new textOnlyParser.Encoder();

/** Any JSON payload (no binary: the hub never emits any). */
const payload = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const packet: fc.Arbitrary<Packet> = fc.record(
  {
    type: fc.constantFrom(
      PacketType.CONNECT,
      PacketType.DISCONNECT,
      PacketType.EVENT,
      PacketType.ACK,
      PacketType.CONNECT_ERROR,
    ),
    nsp: fc.constantFrom('/', '/admin', ''),
    id: fc.nat(),
    data: fc.oneof(
      fc.tuple(fc.string({ minLength: 1 }), payload),
      fc.tuple(fc.string({ minLength: 1 })),
      payload,
    ),
  },
  { requiredKeys: ['type', 'nsp'] },
);

describe('text-only Socket.IO encoder', () => {
  it('writes every binary-free packet exactly as the stock encoder does', () => {
    fc.assert(
      fc.property(packet, (sample) => {
        expect(textOnly.encode(sample)).toEqual(stock.encode(sample));
      }),
      { numRuns: 3_000 },
    );
  });

  it('writes an event of staff states as one text frame', () => {
    const states = [{ hwid: 'HW-1', accounts: [{ name: 'a', position: { x: 1, y: -2 } }] }];
    const encoded = textOnly.encode({ type: PacketType.EVENT, nsp: '/', data: ['bot_update', states] });
    expect(encoded).toEqual([`2["bot_update",${JSON.stringify(states)}]`]);
  });

  it('writes a payload already encoded as JSON text exactly as the stock encoder writes the payload', () => {
    let emitted: unknown[] = [];
    // Socket.IO's `io.local.to(room)`, recording what is emitted.
    const io = { local: { to: () => ({ emit: (...args: unknown[]) => (emitted = args) }) } };
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        payload,
        fc.constantFrom('/', '/admin'),
        (event, value, nsp) => {
          emitEncoded(io as never, 'admins', event, JSON.stringify(value));
          const sample: Packet = { type: PacketType.EVENT, nsp, data: emitted };
          expect(textOnly.encode(sample)).toEqual(stock.encode({ ...sample, data: [event, value] }));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
