// A file answer: what the export services return, sent as an attachment named after its title.
import { attachmentDisposition } from '@trellis/domain';

export type Attachment = { filename: string; contentType: string } & ({ body: string | Uint8Array } | { stream: ReadableStream<Uint8Array> });

export function attachmentResponse(file: Attachment): Response {
  const body = 'stream' in file ? file.stream : typeof file.body === 'string' ? file.body : new Blob([new Uint8Array(file.body)]);
  return new Response(body, { headers: { 'content-type': file.contentType, 'content-disposition': attachmentDisposition(file.filename) } });
}
