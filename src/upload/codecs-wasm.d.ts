// A `.wasm` imported `with { type: 'file' }` is its path: on disk from source, inside the
// executable's embedded files in `dist/folio` (src/upload/codecs.ts).
declare module '*.wasm' {
  const path: string;
  export default path;
}
