export declare const gzipBest: (bytes: Uint8Array) => Promise<Buffer>;
export declare const brotliBest: (bytes: Uint8Array) => Buffer;
