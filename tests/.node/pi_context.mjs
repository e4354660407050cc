// pi's own view of session files: SessionManager.open on a copy (pi may rewrite what it opens),
// then buildSessionContext and convertToLlm. Prints one line per file named, in order:
// {thinkingLevel, model, messages, llmMessages}. (One process for several files: loading pi's
// package is most of the cost.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { convertToLlm, SessionManager } from "@mariozechner/pi-coding-agent";

for (const arg of process.argv.slice(2)) {
	const source = path.resolve(arg);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-context-"));
	const copy = path.join(dir, path.basename(source));
	fs.copyFileSync(source, copy);
	try {
		const manager = SessionManager.open(copy, dir);
		const context = manager.buildSessionContext();
		const out = {
			thinkingLevel: context.thinkingLevel,
			model: context.model ?? null,
			messages: context.messages,
			llmMessages: convertToLlm(context.messages),
		};
		process.stdout.write(`${JSON.stringify(out)}\n`);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
