// Drives `tether --mode rpc` with pi's own RpcClient (npm @mariozechner/pi-coding-agent,
// pinned in package.json) through the scenario of tests/test_rpc_pi_client.py, whose loopback
// OpenAI-compatible server holds the scripted replies in the same order. Prints one JSON
// report: every response's data and the events of every run, for the Python test to check.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "@mariozechner/pi-coding-agent";

const here = path.dirname(fileURLToPath(import.meta.url));
const client = new RpcClient({
	cliPath: path.join(here, "tether_cli.mjs"),
	cwd: process.env.TETHER_TEST_CWD,
	provider: "test",
	model: "test-model",
});
const report = { runs: {}, data: {} };
const events = [];
client.onEvent((event) => events.push(event));

function waitFor(predicate, timeout = 20000) {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			stop();
			reject(new Error(`timed out waiting for an event; stderr: ${client.getStderr()}`));
		}, timeout);
		const stop = client.onEvent((event) => {
			if (predicate(event)) {
				clearTimeout(timer);
				stop();
				resolve(event);
			}
		});
	});
}

// start() a run; when an event matches `trigger` (watched from before the start), do `action`.
async function run(name, start, trigger, action) {
	const from = events.length;
	const idle = client.waitForIdle(30000);
	idle.catch(() => {}); // awaited below; a failure before that is reported, not a crash
	const hit = trigger ? waitFor(trigger) : null;
	await start();
	if (hit) {
		await hit;
		await action();
	}
	await idle;
	report.runs[name] = events.slice(from);
}

await client.start();
try {
	// 1. a prompt whose answer calls a tool
	await run("tools", () => client.prompt("list the files"));

	// 2. steer while a (slow) tool runs
	await run(
		"steer",
		() => client.prompt("a slow task"),
		(e) => e.type === "tool_execution_start",
		() => client.steer("change of plan"),
	);

	// 3. a follow-up sent while the answer streams
	await run(
		"follow_up",
		() => client.prompt("first question"),
		(e) => e.type === "message_update",
		() => client.followUp("second question"),
	);

	// 4. abort while the answer streams
	await run(
		"abort",
		() => client.prompt("a long answer"),
		(e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta",
		() => client.abort(),
	);

	// 5. models and thinking levels
	report.data.models = await client.getAvailableModels();
	report.data.setModel = await client.setModel("test", "test-reasoner");
	await client.setThinkingLevel("medium");
	report.data.cycleThinking = await client.cycleThinkingLevel();
	report.data.stateReasoner = await client.getState();
	report.data.cycleModel = await client.cycleModel();
	report.data.stateAfterCycle = await client.getState();

	// 6. compaction, then a user bash command, then a prompt that sees both
	report.data.compact = await client.compact("keep the file names");
	report.data.bash = await client.bash("echo from-bash");
	await run("after_compact", () => client.prompt("what did bash print?"));

	// 7. stats, fork, clone, name, last text
	report.data.stats = await client.getSessionStats();
	report.data.stateBeforeFork = await client.getState();
	report.data.forkMessages = await client.getForkMessages();
	const target = report.data.forkMessages.find((m) => m.text === "first question");
	report.data.fork = await client.fork(target.entryId);
	await run("forked", () => client.prompt("asked again in the fork"));
	report.data.stateForked = await client.getState();
	report.data.clone = await client.clone();
	await client.setSessionName("  rpc clone  ");
	report.data.stateCloned = await client.getState();
	report.data.lastText = await client.getLastAssistantText();
	report.data.messages = await client.getMessages();
	report.data.commands = await client.getCommands();
	report.data.steeringMode = await client.setSteeringMode("all");
	report.data.autoCompaction = await client.setAutoCompaction(false);
	report.data.stateEnd = await client.getState();
} catch (error) {
	report.error = String(error?.stack ?? error);
	report.lastEvents = events.slice(-30).map((e) => e.assistantMessageEvent?.type ?? e.type);
} finally {
	await client.stop();
}
report.stderr = client.getStderr();
process.stdout.write(`${JSON.stringify(report)}\n`);
