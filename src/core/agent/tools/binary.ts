/**
 * Tells text from binary by a file's first bytes (a NUL byte, or bytes that are not UTF-8), and
 * names the usual binary types by their magic numbers or extension, so a tool can say "PNG image,
 * 12,345 bytes" instead of dumping it.
 */
import { baseName } from './paths.ts';

const MAGIC: ReadonlyArray<readonly [number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'PNG image'],
  [[0xff, 0xd8, 0xff], 'JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'ZIP archive (or a format built on it: jar, docx, xlsx)'],
  [[0x1f, 0x8b], 'gzip archive'],
  [[0x42, 0x5a, 0x68], 'bzip2 archive'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz archive'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'ELF executable'],
  [[0x4d, 0x5a], 'Windows executable'],
  [[0xcf, 0xfa, 0xed, 0xfe], 'Mach-O executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'WebAssembly module'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'SQLite database'],
  [[0x52, 0x49, 0x46, 0x46], 'RIFF media (WAV, AVI, WebP)'],
  [[0x4f, 0x67, 0x67, 0x53], 'Ogg media'],
  [[0x49, 0x44, 0x33], 'MP3 audio'],
  [[0x77, 0x4f, 0x46, 0x32], 'WOFF2 font'],
  [[0x77, 0x4f, 0x46, 0x46], 'WOFF font'],
];

const EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'PNG image', jpg: 'JPEG image', jpeg: 'JPEG image', gif: 'GIF image', webp: 'WebP image', ico: 'icon image',
  pdf: 'PDF document', zip: 'ZIP archive', gz: 'gzip archive', tgz: 'gzip archive', tar: 'tar archive',
  wasm: 'WebAssembly module', so: 'shared library', dylib: 'shared library', dll: 'shared library', exe: 'Windows executable',
  class: 'Java class file', pyc: 'Python bytecode', o: 'object file', a: 'static library', db: 'database', sqlite: 'SQLite database',
  mp3: 'MP3 audio', mp4: 'MP4 video', mov: 'QuickTime video', woff: 'WOFF font', woff2: 'WOFF2 font', ttf: 'TrueType font', otf: 'OpenType font',
};

export type Sniff = { binary: false } | { binary: true; type: string; reason: string };

/**
 * Whether `sample` (a file's first bytes) is binary. `complete` says the sample is the whole
 * file; when it is not, a UTF-8 sequence cut at the sample's end is not held against it.
 */
export function sniffBinary(sample: Uint8Array, path: string, complete: boolean): Sniff {
  const magic = MAGIC.find(([bytes]) => bytes.every((b, i) => sample[i] === b));
  const nul = sample.indexOf(0);
  let reason: string | undefined;
  if (nul >= 0) reason = `a NUL byte at offset ${nul}`;
  else {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !complete });
    } catch {
      reason = 'bytes that are not valid UTF-8';
    }
  }
  if (reason === undefined) return { binary: false };
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const type = magic?.[1] ?? EXTENSIONS[extension] ?? (extension ? `binary data (.${extension})` : 'binary data');
  return { binary: true, type, reason };
}
