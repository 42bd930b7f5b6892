// The build's compressed copies of a text file, made once at their best (scripts/build.ts), and the
// bench's for files it did not build (Typeform's): brotli at quality 11, and gzip by Zopfli, whose
// output every gunzip reads and which is 2 to 5 % smaller than zlib's level 9 (the shared chunk
// 7,304 B, not 7,482). Plain JavaScript, so that Node runs it without a compiler (the bench).
import { gzipAsync } from '@gfx/zopfli';
import { brotliCompressSync, constants } from 'node:zlib';

/** `bytes` as gzip, by Zopfli (15 iterations, its default). */
export const gzipBest = async (bytes) => Buffer.from(await gzipAsync(bytes, { numiterations: 15 }));

/** `bytes` as brotli, at quality 11 for text. */
export const brotliBest = (bytes) =>
  brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
