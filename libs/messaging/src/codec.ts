const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Text (JSON already serialised) as the bytes a message carries. */
export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Parses JSON bytes; `undefined` when they are not JSON. */
export function decodeJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
