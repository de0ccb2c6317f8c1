// What the no-stall spec and bench share: a long document, a health poller that measures what a
// request costs everyone else, and the studio process's resident memory.
import { readFileSync } from 'node:fs';
import type { ApiClient } from './api-client';

/** About `bytes` of prose: paragraphs (one line each) of ordinary, much-repeated words, each numbered. */
export function longDocument(bytes: number): string {
  const vocabulary = ['the', 'a', 'of', 'and', 'to', 'in', 'study', 'branch', 'result', 'model', 'reader', 'is', 'was', 'that'];
  const paragraphs: string[] = [];
  let size = 0;
  let x = 7;
  for (let p = 0; size < bytes; p++) {
    const words: string[] = [`P${p}`];
    for (let w = 0; w < 60; w++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      words.push(vocabulary[x % vocabulary.length]!);
    }
    const paragraph = `${words.join(' ')}.`;
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

/** The document with paragraph `p`'s number followed by `mark`. */
export function editParagraph(text: string, p: number, mark: string): string {
  return text.replace(new RegExp(`^P${p} `, 'm'), `P${p} ${mark} `);
}

export interface HealthSamples {
  ms: number[];
  errors: number;
  p99: number;
  max: number;
}

/** Polls /api/health back to back while `work` runs; each answer's latency is what `work` cost everyone else. */
export async function healthDuring<T>(baseUrl: string, work: () => Promise<T>): Promise<{ result: T; health: HealthSamples }> {
  let done = false;
  const ms: number[] = [];
  let errors = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/api/health`);
        await response.text();
        if (response.ok) ms.push(performance.now() - started);
        else errors++;
      } catch {
        errors++;
      }
    }
  })();
  try {
    const result = await work();
    return { result, health: { ms, errors, p99: percentile(ms, 0.99), max: Math.max(0, ...ms) } };
  } finally {
    done = true;
    await poller;
  }
}

export function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** The resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Samples `pid`'s RSS every 25 ms while `work` runs: the peak, in MB. */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** A conversation whose document is `content`, at the version the save answered. */
export async function conversationWithDocument(client: ApiClient, content: string): Promise<{ id: string; version: number }> {
  const { thread_id: id } = await client.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'Long document' }, 201);
  const saved = await client.json<{ document: { version: number } }>('PATCH', `/api/conversations/${id}/workspace`, { document: { content } });
  return { id, version: saved.document.version };
}

/** Reads a response to its end; the status and the body's size. */
export async function drain(response: Response): Promise<{ status: number; bytes: number }> {
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, bytes };
}
