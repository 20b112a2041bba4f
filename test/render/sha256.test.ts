import { createHash } from 'node:crypto';
import { sha256Hex } from '../../src/render/sha256';

const expected = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

test('sha256Hex matches node:crypto at every padding boundary, on multi-byte text and on long input', () => {
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
    expect({ n: text.length, hash: sha256Hex(text) }).toEqual({ n: text.length, hash: expected(text) });
});
