import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, networkInterfaces } from 'node:os';
import { HWID_COMPONENTS, type HwidComponent, type HwidComponents } from '@bot/contracts';

/**
 * The key this product's agents hash their hardware components with (HMAC-SHA-256, decision 906).
 * It is not a secret (it ships in every agent): it keeps raw serials and MAC addresses off the
 * platform and makes one product's hashes useless to another. A product built on this SDK passes
 * its own as `productKey`; changing it changes every hash, so every bound PC would count as changed.
 */
export const DEFAULT_HWID_PRODUCT_KEY = 'bot-platform:hwid-components:v1';

/** Raw values of the PC's parts, as the agent reads them; never sent, only their hashes. */
export type RawHwidComponents = Partial<Record<HwidComponent, string>>;

/**
 * Hashes each raw component (trimmed, lower-cased) with the product key: lower-case hex, one per
 * part present. An empty value is left out (a part the agent could not read).
 */
export function hashHwidComponents(
  raw: RawHwidComponents,
  productKey: string = DEFAULT_HWID_PRODUCT_KEY,
): HwidComponents {
  const hashed: HwidComponents = {};
  for (const name of HWID_COMPONENTS) {
    const value = raw[name]?.trim().toLowerCase();
    if (!value) continue;
    hashed[name] = createHmac('sha256', productKey).update(`${name}:${value}`, 'utf8').digest('hex');
  }
  return hashed;
}

function readFirst(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    try {
      const value = readFileSync(path, 'utf8').trim();
      if (value) return value;
    } catch {
      // unreadable here (another OS, no permission): try the next
    }
  }
  return undefined;
}

/**
 * A best-effort reading of this PC's parts with Node alone: the machine id, the system disk and
 * the board from Linux's /etc and /sys (the board's serial needs root, the product UUID is the
 * fallback), the first physical network card's MAC and the CPU's model. An agent on Windows reads
 * them from WMI itself and passes them as `components`.
 */
export function readMachineComponents(): RawHwidComponents {
  const nic = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && !entry.internal && entry.mac && entry.mac !== '00:00:00:00:00:00');
  return {
    machine: readFirst(['/etc/machine-id', '/var/lib/dbus/machine-id']),
    disk: readFirst(['/sys/block/sda/device/serial', '/sys/block/nvme0n1/device/serial']),
    board: readFirst(['/sys/class/dmi/id/board_serial', '/sys/class/dmi/id/product_uuid']),
    nic: nic?.mac,
    cpu: cpus()[0]?.model,
  };
}
