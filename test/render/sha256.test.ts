import { createHash } from 'node:crypto';
import { sha256Hex, sha256HexInJs } from '../../src/render/sha256';

const expected = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

test('the JavaScript SHA-256 matches node:crypto at every padding boundary, on multi-byte text and on long input', () => {
  const samples = ['', 'abc', 'é€😀 pod template', 'x'.repeat(200_000)];
  for (let n = 50; n <= 130; n++) samples.push('a'.repeat(n)); // 55/56 and 119/120 bytes change the block count
  let seed = 7;
  for (let i = 0; i < 50; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    samples.push(
      JSON.stringify({
        seed,
        s: String.fromCharCode(...Array.from({ length: seed % 300 }, (_, j) => 32 + ((seed + j * 31) % 2000))),
      }),
    );
  }
  for (const text of samples)
    expect({ n: text.length, hash: sha256HexInJs(text) }).toEqual({ n: text.length, hash: expected(text) });
});

test('sha256Hex gives the same hash before and after a process has hashed enough to switch to node:crypto', async () => {
  // Module state: a fresh copy starts at its first hash, whatever other tests hashed.
  await jest.isolateModulesAsync(async () => {
    const { sha256Hex: fresh } = await import('../../src/render/sha256');
    const texts = Array.from({ length: 100 }, (_, i) => `pod template ${i} é€`);
    expect(texts.map(fresh)).toEqual(texts.map(expected));
    expect(texts.map(fresh)).toEqual(texts.map(sha256HexInJs));
  });
  expect(sha256Hex('abc')).toBe(expected('abc'));
});
