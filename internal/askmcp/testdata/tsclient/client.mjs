// Drives `bot mcp` with the official TypeScript MCP SDK's client, as an agent's client
// does, for cmd/bot's TestMCPWithTheTypeScriptSDKsClient. Usage: node client.mjs BOT MODE,
// MODE "loop" (ask, wait while a person answers, resolve, then bad calls and tools/list),
// "posted" (ask while Clarify takes nothing), "absent" (wait for an id no ask can become,
// then wait for and read one an ask Clarify has not taken yet may become) or "unverified"
// (ask where the server believes another account than Clarify's). Each step prints one
// line of JSON; the test reads them, and answers as the person when it sees the ask's line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bot, mode] = process.argv.slice(2);
const say = (step, value) => console.log(JSON.stringify({ step, ...value }));

const client = new Client({ name: "ts-sdk-test", version: "0" });
await client.connect(new StdioClientTransport({ command: bot, args: ["mcp"], env: process.env, stderr: "inherit" }));

async function call(name, args, extra = {}) {
  const start = Date.now();
  try {
    const res = await client.callTool({ name, arguments: args }, undefined, extra);
    return { ms: Date.now() - start, isError: !!res.isError, record: res.structuredContent,
      text: res.content?.[0]?.text ?? "" };
  } catch (e) {
    return { ms: Date.now() - start, thrown: String(e.code ?? "") + " " + String(e.message) };
  }
}

if (mode === "posted") {
  say("ask", await call("clarify_ask", { issue: 42, target: "@maria", question: "Per API key?", ref: "step-9" }));
} else if (mode === "absent") {
  say("unknown", await call("clarify_wait", { issue: 42, id: "CLR-42-099", timeout_seconds: 20 }));
  say("wait", await call("clarify_wait", { issue: 42, id: "CLR-42-002", timeout_seconds: 1 }));
  say("status", await call("clarify_status", { issue: 42, id: "CLR-42-002" }));
} else if (mode === "unverified") {
  say("ask", await call("clarify_ask", { issue: 42, target: "@maria", question: "Per API key?", ref: "step-5" }));
} else {
  const asked = await call("clarify_ask", { issue: 42, target: "@maria", question: "Per API key or per client IP?",
    options: ["per API key", "per client IP"] });
  say("ask", asked);
  const progress = [];
  const waited = await call("clarify_wait", { issue: 42, id: asked.record.id, timeout_seconds: 25 },
    { onprogress: (p) => progress.push(p.message), resetTimeoutOnProgress: true });
  say("wait", { ...waited, progress });
  say("resolve", await call("clarify_resolve", { issue: 42, id: asked.record.id, decision: "Per API key." }));
  const bad = [
    ["clarify_wait", { issue: 42, id: "" }],
    ["clarify_wait", { issue: 42, id: "CLR-42-001", timeout_seconds: -1 }],
    ["clarify_status", { issue: 42, id: "CLR-7-001" }],
    ["clarify_ask", { issue: 42, target: "@maria", question: "Which?", options: ["x", "y"], fallback: "c" }],
    ["clarify_ask", { issue: 42, target: "@maria", question: "Which?", ref: "r".repeat(201) }],
    ["clarify_followup", { issue: 42, id: "CLR-42-001" }],
    ["clarify_nope", {}],
  ];
  const errors = [];
  for (const [name, args] of bad) errors.push({ name, ...(await call(name, args)) });
  say("bad", { errors });
  const list = await client.listTools();
  say("list", { tools: list.tools.map((t) => t.name) });
}
await client.close();
