/**
 * WebP and AVIF through the Squoosh codecs (`@jsquash/webp`, `@jsquash/avif`): libwebp and
 * libavif (dav1d to decode, aom to encode) compiled to WebAssembly. Chosen because they
 * install without scripts (plain JS and .wasm files) and run inside `dist/folio`, where a
 * native addon (sharp) cannot load.
 *
 * The .wasm files are imported `with { type: 'file' }`: from source that is their path in
 * node_modules; `bun build --compile` embeds them and gives their path inside the binary.
 * Nothing is read or compiled until the first WebP or AVIF upload (about 80 ms and 5.5 MB of
 * code): cold start and the RSS of processes that never see one stay as they were. Each
 * compiled module is kept; each upload gets fresh instances, so the linear memory a large
 * image grew (WASM memory never shrinks) is garbage once the upload is done.
 */
import avifDecWasm from '@jsquash/avif/codec/dec/avif_dec.wasm' with { type: 'file' };
import avifEncWasm from '@jsquash/avif/codec/enc/avif_enc.wasm' with { type: 'file' };
import webpDecWasm from '@jsquash/webp/codec/dec/webp_dec.wasm' with { type: 'file' };
import webpEncWasm from '@jsquash/webp/codec/enc/webp_enc.wasm' with { type: 'file' };
import webpEncSimdWasm from '@jsquash/webp/codec/enc/webp_enc_simd.wasm' with { type: 'file' };

export interface Bitmap {
  /** RGBA, 4 bytes a pixel. */
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export interface Codec {
  decode(bytes: Uint8Array): Promise<Bitmap>;
  /** An encoder for one upload's images (one instance, however many formats); `quality` 0–100. */
  encoder(): Promise<(bitmap: Bitmap, quality: number) => Promise<Uint8Array>>;
}

/**
 * aom's speed 10 (its fastest; the library's default is 6). Measured on a 2-core CI-class
 * machine, one 1000×667 encode takes ~110 ms at 10, ~480 at 8, ~1200 at 6: the four formats of
 * an upload stay near 250 ms of event-loop time instead of seconds, for files ~1.5× larger.
 */
export const AVIF_ENCODE_SPEED = 10;

const modules = new Map<string, Promise<WebAssembly.Module>>();
const compiled = (path: string) => {
  let module = modules.get(path);
  if (!module) {
    module = Bun.file(path)
      .arrayBuffer()
      .then((bytes) => WebAssembly.compile(bytes));
    // A failed read is not cached: the next upload tries again.
    module.catch(() => modules.delete(path));
    modules.set(path, module);
  }
  return module;
};

/** The jsquash entry points re-initialised with a fresh instance of the compiled module. */
async function fresh<T extends { init: (module: WebAssembly.Module) => unknown }>(entry: Promise<T>, wasm: string | Promise<string>): Promise<T> {
  const [api, module] = await Promise.all([entry, Promise.resolve(wasm).then(compiled)]);
  await api.init(module);
  return api;
}

/** The encoder build matching the glue jsquash picks (it loads the SIMD one when the runtime has SIMD). */
const webpEncoderWasm = async () => ((await (await import('wasm-feature-detect')).simd()) ? webpEncSimdWasm : webpEncWasm);

const bitmapOf = (image: { data: Uint8ClampedArray; width: number; height: number }): Bitmap => ({
  data: image.data,
  width: image.width,
  height: image.height,
});
/** The codecs take ImageData; Bun has no such global, and they read only these fields. */
const imageData = (bitmap: Bitmap) => ({ ...bitmap, colorSpace: 'srgb' }) as never;
const exact = (bytes: Uint8Array) =>
  (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;

export const webp: Codec = {
  async decode(bytes) {
    const api = await fresh(import('@jsquash/webp/decode.js'), webpDecWasm);
    return bitmapOf(await api.default(exact(bytes)));
  },
  async encoder() {
    const api = await fresh(import('@jsquash/webp/encode.js'), webpEncoderWasm());
    return async (bitmap, quality) => new Uint8Array(await api.default(imageData(bitmap), { quality }));
  },
};

export const avif: Codec = {
  async decode(bytes) {
    const api = await fresh(import('@jsquash/avif/decode.js'), avifDecWasm);
    const image = await api.default(exact(bytes), { bitDepth: 8 });
    if (!image) throw new Error('AVIF decoding error');
    return bitmapOf(image as { data: Uint8ClampedArray; width: number; height: number });
  },
  async encoder() {
    const api = await fresh(import('@jsquash/avif/encode.js'), avifEncWasm);
    return async (bitmap, quality) => new Uint8Array(await api.default(imageData(bitmap), { quality, speed: AVIF_ENCODE_SPEED }));
  },
};

export const CODECS: Record<string, Codec> = { 'image/webp': webp, 'image/avif': avif };
