/**
 * Many idle realtime subscribers in one process (the bench's load CPU): N raw TCP connections
 * each sending `GET /api/realtime` and reading the stream, without parsing more than it needs.
 *
 *   bun bench/realtime-client.ts URL N [PATH]
 *
 * Prints JSON lines on stdout: `{"open":N,"ms":…}` once every stream has said `: connected`
 * (or `{"failed":…}`), then, for each line `expect TEXT` read on stdin, `{"expect":TEXT,"ms":…,"got":K}`
 * once every stream has received TEXT (ms from reading the line), or after 10 s with how many got it.
 * `close` on stdin ends every connection and the process.
 */
export {};

const [url, countArg, pathArg] = process.argv.slice(2);
if (!url || !countArg) {
  console.error('usage: bun bench/realtime-client.ts URL N [PATH]');
  process.exit(2);
}
const { hostname, port } = new URL(url);
const count = Number(countArg);
const path = pathArg ?? '/api/realtime?types=articles';
const request = new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
const decoder = new TextDecoder();

interface State {
  connected: boolean;
  /** The end of what came last (a text split between two reads is still found). */
  tail: string;
  seen: boolean;
}

const states: State[] = [];
let connected = 0;
let failed = 0;
let expected: { text: string; at: number; got: number; timer?: ReturnType<typeof setTimeout> } | undefined;
const sockets: { end(): void }[] = [];
const say = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);

function report() {
  if (!expected) return;
  clearTimeout(expected.timer);
  say({ expect: expected.text, ms: Math.round((performance.now() - expected.at) * 10) / 10, got: expected.got });
  expected = undefined;
}

const started = performance.now();
// Opened in waves so the server's accept queue (and this process) keep up.
const WAVE = 500;
for (let first = 0; first < count; first += WAVE) {
  const wave: Promise<unknown>[] = [];
  for (let i = first; i < Math.min(count, first + WAVE); i++) {
    const state: State = { connected: false, tail: '', seen: false };
    states.push(state);
    wave.push(
      Bun.connect({
        hostname,
        port: Number(port),
        socket: {
          open(socket) {
            socket.write(request);
          },
          data(_socket, chunk) {
            const text = state.tail + decoder.decode(chunk);
            if (!state.connected && text.includes(': connected')) {
              state.connected = true;
              connected++;
            }
            if (expected && !state.seen && text.includes(expected.text)) {
              state.seen = true;
              if (++expected.got === count) report();
            }
            state.tail = text.slice(-128);
          },
          close() {
            if (!state.connected) failed++;
          },
          error() {
            failed++;
          },
        },
      }).then(
        (socket) => sockets.push(socket),
        () => failed++,
      ),
    );
  }
  await Promise.all(wave);
}
while (connected + failed < count && performance.now() - started < 120_000) await Bun.sleep(20);
if (connected < count) say({ failed: count - connected, open: connected });
else say({ open: connected, ms: Math.round(performance.now() - started) });

for await (const line of console) {
  if (line === 'close') break;
  if (line.startsWith('expect ')) {
    for (const state of states) state.seen = false;
    expected = { text: line.slice('expect '.length), at: performance.now(), got: 0 };
    expected.timer = setTimeout(report, 10_000);
  }
}
for (const socket of sockets) socket.end();
process.exit(0);
