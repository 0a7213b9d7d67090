/**
 * Fallback load generator, used only when wrk is not installed: N concurrent loops of
 * fetch over keep-alive connections for a fixed time, latencies recorded per request.
 * Slower than wrk (it spends CPU on the client side), so its figures are lower bounds;
 * run.ts says which generator produced a result.
 *
 *   bun bench/load.ts '{"base":"http://127.0.0.1:1337","connections":64,"seconds":5,"requests":[{"method":"GET","path":"/api/articles"}]}'
 *
 * Prints one JSON object: { requests, seconds, rps, p50Ms, p99Ms, non2xx, errors }.
 */

export interface LoadRequest {
  method: string;
  path: string;
  body?: string;
}

export interface LoadSpec {
  base: string;
  connections: number;
  seconds: number;
  /** Rotated through, one after the other across all loops (as requests.lua does for wrk). */
  requests: LoadRequest[];
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + spec.seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const r = spec.requests[next++ % spec.requests.length]!;
      const t0 = performance.now();
      try {
        const response = await fetch(spec.base + r.path, {
          method: r.method,
          headers: r.body === undefined ? undefined : { 'content-type': 'application/json' },
          body: r.body,
        });
        await response.arrayBuffer();
        if (response.status < 200 || response.status >= 300) non2xx++;
        latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    non2xx,
    errors,
  };
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  console.log(JSON.stringify(await runLoad(spec)));
}
