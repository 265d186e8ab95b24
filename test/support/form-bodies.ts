/** Form bodies as the unit tests of their parsers write them. */

export const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** What a real client sends for a FormData: undici's encoding, bytes and boundary. */
export async function encoded(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}
