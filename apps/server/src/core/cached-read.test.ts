import { describe, expect, it } from 'vitest';
import { CachedRead } from './cached-read.ts';

describe('CachedRead', () => {
  it('answers the last value read while reads fail, and reads again once the retry delay passed', async () => {
    const cache = new CachedRead<number>(0, 0);
    let answer: () => Promise<number> = async () => 1;
    const read = () => answer();
    expect(await cache.get(read)).toBe(1);
    answer = () => Promise.reject(new Error('base de données indisponible'));
    expect(await cache.get(read)).toBe(1);
    answer = async () => 2;
    expect(await cache.get(read)).toBe(2);
  });

  it('fails when nothing was ever read', async () => {
    const cache = new CachedRead<number>(1_000);
    await expect(cache.get(() => Promise.reject(new Error('indisponible')))).rejects.toThrow('indisponible');
  });

  it('does not read again before the retry delay after a failure', async () => {
    const cache = new CachedRead<number>(0, 60_000);
    let reads = 0;
    expect(await cache.get(async () => ++reads)).toBe(1);
    expect(await cache.get(() => Promise.reject(new Error('indisponible')).finally(() => reads++))).toBe(1);
    expect(await cache.get(async () => ++reads)).toBe(1);
    expect(reads).toBe(2);
  });
});
