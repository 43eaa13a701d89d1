// Latency the recording proxy of `capture` adds: the same requests sent to a local upstream
// directly and through the proxy (loopback both ways, keep-alive, one at a time, interleaved so
// load on the machine hits both alike), a ~20 KB JSON body and an SSE answer in three chunks.
// Prints the median time per request of each and their difference (the added latency), plus
// the 90th percentile. Run with `npx tsx bench/capture-latency.bench.ts [--runs N]`.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startCaptureProxy } from "../src/cli/capture/proxy";

const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex === -1 ? 300 : Number(process.argv[runsIndex + 1]);
const body = Buffer.from(JSON.stringify({ model: "m", stream: true, messages: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "x".repeat(500) })) }));

const upstream = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write('event: message_start\ndata: {"type":"message_start"}\n\n');
    response.write('event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"hi"}}\n\n');
    response.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
const out = mkdtempSync(path.join(tmpdir(), "capture-bench-"));
const proxy = await startCaptureProxy({ port: 0, out, upstream: upstreamUrl });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function once(base: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/v1/messages`, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length } }, (response) => {
      response.resume();
      response.on("end", () => resolve(performance.now() - started));
    });
    request.on("error", reject);
    request.end(body);
  });
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

for (let i = 0; i < 30; i++) await once(upstreamUrl), await once(proxy.url); // warm-up
const direct: number[] = [];
const proxied: number[] = [];
for (let i = 0; i < runs; i++) {
  direct.push(await once(upstreamUrl));
  proxied.push(await once(proxy.url));
}
const ms = (value: number) => `${value.toFixed(3)} ms`;
console.log(`requests: ${runs} each, body ${body.length} bytes, SSE answer`);
console.log(`direct   median ${ms(quantile(direct, 0.5))}  p90 ${ms(quantile(direct, 0.9))}`);
console.log(`proxied  median ${ms(quantile(proxied, 0.5))}  p90 ${ms(quantile(proxied, 0.9))}  (written to disk each)`);
console.log(`added    median ${ms(quantile(proxied, 0.5) - quantile(direct, 0.5))}`);
agent.destroy();
await proxy.close();
upstream.close();
rmSync(out, { recursive: true, force: true });
